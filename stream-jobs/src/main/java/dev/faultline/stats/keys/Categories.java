package dev.faultline.stats.keys;

import dev.faultline.schemas.taxonomy.Dimension;
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
   * The distribution code ({@link Dimension#distributionCodes()}) of a counted category: the code
   * itself, for the flag {@code true}, {@code false} and {@code null} (UNKNOWN).
   */
  public static String distributionCode(Dimension d, String category) {
    if (d.coded()) {
      return category;
    }
    return "TRUE".equals(category) ? "true" : "FALSE".equals(category) ? "false" : "null";
  }

  /** The counted category of a distribution code: its inverse. */
  public static String ofDistributionCode(Dimension d, String code) {
    return d.coded() ? code : ofFlag("null".equals(code) ? null : Boolean.valueOf(code));
  }

  /**
   * The distributed-specific flag as a category: {@code TRUE}, {@code FALSE} or {@code UNKNOWN}
   * (null).
   */
  public static String ofFlag(Boolean flag) {
    return flag == null ? UNKNOWN : flag ? "TRUE" : "FALSE";
  }
}
