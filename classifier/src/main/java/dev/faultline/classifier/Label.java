package dev.faultline.classifier;

/**
 * One classified value with how sure the classifier is and why.
 *
 * @param value the code; for {@code distributedSpecific} null means "cannot tell"
 * @param confidence in [0, 1]; 1.0 for human-given values
 * @param evidence the rule or feature and the words that decided it, human-readable
 * @param humanGiven whether the value came from a GitHub label set by a person rather than from the
 *     rules
 * @param <T> the code type
 */
public record Label<T>(T value, double confidence, String evidence, boolean humanGiven) {

  /** A value decided by the rules. */
  public static <T> Label<T> predicted(T value, double confidence, String evidence) {
    return new Label<>(value, clamp(confidence), evidence, false);
  }

  /** A value set by a person through a GitHub label. */
  public static <T> Label<T> human(T value, String evidence) {
    return new Label<>(value, 1.0, evidence, true);
  }

  private static double clamp(double c) {
    return Math.max(0.0, Math.min(1.0, c));
  }
}
