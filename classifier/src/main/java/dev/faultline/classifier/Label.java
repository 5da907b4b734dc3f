package dev.faultline.classifier;

import java.util.Map;

/**
 * One classified value with how sure the classifier is and why, and the probability of every code
 * of its dimension.
 *
 * @param value the code; for {@code distributedSpecific} null means "cannot tell"
 * @param confidence in [0, 1]; 1.0 for human-given values
 * @param evidence the rule or feature and the words that decided it, human-readable
 * @param humanGiven whether the value came from a GitHub label set by a person rather than from the
 *     rules
 * @param distribution the probability of each code of the dimension (its symbol, {@code
 *     true}/{@code false}/{@code null} for distributed-specific), in the dimension's code order;
 *     null when the tier gives none: a point mass on the value ({@link Distributions#of})
 * @param calibration what the distribution rests on ({@link Calibrations}: {@code cv:<version>},
 *     {@code confusion:<model>/<prompt>}, {@code prior:<epsilon>} or {@code human}); null when the
 *     tier states none (a person's label is always {@code human})
 * @param <T> the code type
 */
public record Label<T>(
    T value,
    double confidence,
    String evidence,
    boolean humanGiven,
    Map<String, Double> distribution,
    String calibration) {

  public Label {
    if (humanGiven && calibration == null) {
      calibration = Calibrations.HUMAN;
    }
  }

  /** A label without a distribution of its own (a point mass on its value). */
  public Label(T value, double confidence, String evidence, boolean humanGiven) {
    this(value, confidence, evidence, humanGiven, null, null);
  }

  /** A label with a distribution and no stated calibration. */
  public Label(
      T value,
      double confidence,
      String evidence,
      boolean humanGiven,
      Map<String, Double> distribution) {
    this(value, confidence, evidence, humanGiven, distribution, null);
  }

  /** A value decided by the rules. */
  public static <T> Label<T> predicted(T value, double confidence, String evidence) {
    return new Label<>(value, clamp(confidence), evidence, false);
  }

  /** A value set by a person through a GitHub label. */
  public static <T> Label<T> human(T value, String evidence) {
    return new Label<>(value, 1.0, evidence, true);
  }

  /** The same label with a distribution over its dimension's codes. */
  public Label<T> withDistribution(Map<String, Double> distribution) {
    return new Label<>(value, confidence, evidence, humanGiven, distribution, calibration);
  }

  /**
   * The same label with a distribution, the calibration it rests on, and as confidence the
   * distribution's probability of the label's own code (so the confidence is the probability that
   * the label is right under that distribution).
   */
  public Label<T> calibrated(Map<String, Double> distribution, String calibration) {
    double p =
        distribution.getOrDefault(dev.faultline.schemas.taxonomy.Dimension.codeOf(value), 0.0);
    return new Label<>(value, clamp(p), evidence, humanGiven, distribution, calibration);
  }

  /** The same label with another calibration marker. */
  public Label<T> withCalibration(String calibration) {
    return new Label<>(value, confidence, evidence, humanGiven, distribution, calibration);
  }

  /** The same label with other evidence. */
  public Label<T> withEvidence(String evidence) {
    return new Label<>(value, confidence, evidence, humanGiven, distribution, calibration);
  }

  private static double clamp(double c) {
    return Math.max(0.0, Math.min(1.0, c));
  }
}
