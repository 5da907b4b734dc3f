package dev.faultline.jobs.stats.records;

/** Keys of the counting operators. */
public final class StatKeys {
  private StatKeys() {}

  /** framework, dimension and category in one string key. */
  public static String of(String framework, String dimension, String category) {
    return framework + '|' + dimension + '|' + category;
  }

  /** framework, release, dimension and category in one string key. */
  public static String ofRelease(String framework, String release, String dimension, String category) {
    return framework + '|' + release + '|' + dimension + '|' + category;
  }

  /** framework, dimension and category of a key made by {@link #of}. */
  public static String[] split(String statKey) {
    String[] parts = statKey.split("\\|", 3);
    if (parts.length != 3) {
      throw new IllegalArgumentException("not a statistics key: " + statKey);
    }
    return parts;
  }
}
