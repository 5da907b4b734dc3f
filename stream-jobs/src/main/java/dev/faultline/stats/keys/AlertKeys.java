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

  /** Dimension, category and, for a pair, stage. */
  public static String[] split(String key) {
    String[] parts = key.split("\\|", 3);
    if (parts.length < 2) {
      throw new IllegalArgumentException("not an alert key: " + key);
    }
    Dimension.valueOf(parts[0]);
    return parts;
  }

  public static boolean isPair(String key) {
    return split(key).length == 3;
  }
}
