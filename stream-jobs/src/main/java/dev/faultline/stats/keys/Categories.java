package dev.faultline.stats.keys;

import java.util.Set;

/** Category codes the detectors treat specially. */
public final class Categories {
  /** The category of a label the classifier could not tell, or that is below its confidence bar. */
  public static final String UNKNOWN = "UNKNOWN";

  /**
   * Codes that say "the classifier could not tell" or "does not apply": counted, never alerted on.
   */
  public static final Set<String> UNINFORMATIVE = Set.of(UNKNOWN, "NONE", "UNREPORTED", "OTHER");

  private Categories() {}

  public static boolean informative(String category) {
    return category != null && !UNINFORMATIVE.contains(category);
  }

  /**
   * The distributed-specific flag as a category: {@code TRUE}, {@code FALSE} or {@code UNKNOWN}
   * (null).
   */
  public static String ofFlag(Boolean flag) {
    return flag == null ? UNKNOWN : flag ? "TRUE" : "FALSE";
  }
}
