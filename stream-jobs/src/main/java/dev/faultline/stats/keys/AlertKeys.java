package dev.faultline.stats.keys;

import dev.faultline.schemas.taxonomy.Dimension;

/**
 * Keys of the alert detector's counts within one framework: a category of a dimension ({@code
 * SYMPTOM|HANG}) or a category paired with a stage ({@code SYMPTOM|HANG|COMMUNICATION}).
 */
public final class AlertKeys {
  private AlertKeys() {}

  public static String category(Dimension dimension, String category) {
    return dimension.name() + '|' + category;
  }

  public static String pair(Dimension dimension, String category, String stage) {
    return dimension.name() + '|' + category + '|' + stage;
  }

  /**
   * Dimension, category and, for a pair, stage (what {@code key.split("\\|", 3)} gives, the
   * dimension checked), found by {@code indexOf}: the detector splits its keys at every re-test.
   */
  public static String[] split(String key) {
    int first = dimensionEnd(key);
    String dimension = key.substring(0, first);
    int second = key.indexOf('|', first + 1);
    return second < 0
        ? new String[] {dimension, key.substring(first + 1)}
        : new String[] {dimension, key.substring(first + 1, second), key.substring(second + 1)};
  }

  /** Whether {@code key} is a category × stage pair ({@link #split} gives three parts). */
  public static boolean isPair(String key) {
    return key.indexOf('|', dimensionEnd(key) + 1) >= 0;
  }

  /** The index of the separator after the key's dimension, which must name a {@link Dimension}. */
  private static int dimensionEnd(String key) {
    int first = key.indexOf('|');
    if (first < 0) {
      throw new IllegalArgumentException("not an alert key: " + key);
    }
    Dimension.valueOf(key.substring(0, first));
    return first;
  }
}
