package dev.faultline.estimate.item;

import java.util.Locale;

/**
 * What a label's stored distribution rests on: the {@code <key>Calibration} marker written beside
 * every label (issue #31's contract between the classifier tiers and the estimates).
 *
 * <ul>
 *   <li>{@code cv:<version>}: calibrated on held-out folds (the learned layer; rules given a
 *       cross-validated confusion);
 *   <li>{@code confusion:<model>/<promptVersion>}: a language model's answer mapped through its
 *       measured confusion row;
 *   <li>{@code prior:<epsilon>}: an answer with no measured calibration, stored with 1 - epsilon on
 *       its code and epsilon spread by a stated prior: <em>uncalibrated</em>;
 *   <li>{@code human}: a person's label, a point mass that is the truth for its item.
 * </ul>
 *
 * <p>A label written before markers existed has none: with a distribution it is read as {@code cv:}
 * (the contract), except a distribution that is a point mass on one code, which is no distribution
 * at all (a language model's answer or a rule stored before calibration); a label without a
 * distribution, or with such a point mass, is given {@link #DEFAULT_PRIOR_ERROR} (a stated prior,
 * not a measurement) and counts as uncalibrated.
 *
 * @param basis which of the cases
 * @param epsilon the prior error rate of an uncalibrated label (0 otherwise)
 * @param marker the marker as stored (null when there was none)
 */
public record Calibration(Basis basis, double epsilon, String marker) {

  /** The cases. */
  public enum Basis {
    /** Calibrated out of fold. */
    CV,
    /** Mapped through a measured confusion row. */
    CONFUSION,
    /** Uncalibrated: a stated prior error rate. */
    PRIOR,
    /** A person's label. */
    HUMAN
  }

  /**
   * The prior error rate given to a label that has no distribution (or a point mass) and no marker:
   * 1 - 0.2 on its code, 0.2 spread evenly over the dimension's other codes. Stated, not measured:
   * rows resting on such labels say {@code uncalibrated}.
   */
  public static final double DEFAULT_PRIOR_ERROR = 0.2;

  /** Mass on one code at or above which a stored distribution counts as a point mass. */
  static final double POINT_MASS = 0.9999;

  /** Whether the label's distribution was measured (cross-validation or a confusion row). */
  public boolean calibrated() {
    return basis == Basis.CV || basis == Basis.CONFUSION;
  }

  /** Whether it is a person's label. */
  public boolean human() {
    return basis == Basis.HUMAN;
  }

  /**
   * Reads a marker.
   *
   * @param marker the stored {@code <key>Calibration}, or null
   * @param human whether the label is a person's by other evidence (the issue's {@code humanGiven})
   * @param pointMass whether the stored distribution is missing or a point mass
   */
  public static Calibration of(String marker, boolean human, boolean pointMass) {
    if (human || "human".equals(marker)) {
      return new Calibration(Basis.HUMAN, 0, marker);
    }
    if (marker == null || marker.isBlank()) {
      return pointMass
          ? new Calibration(Basis.PRIOR, DEFAULT_PRIOR_ERROR, null)
          : new Calibration(Basis.CV, 0, null);
    }
    String m = marker.strip().toLowerCase(Locale.ROOT);
    if (m.startsWith("cv:") || m.equals("cv")) {
      return new Calibration(Basis.CV, 0, marker);
    }
    if (m.startsWith("confusion:")) {
      return new Calibration(Basis.CONFUSION, 0, marker);
    }
    if (m.startsWith("prior:")) {
      return new Calibration(Basis.PRIOR, epsilon(marker.strip().substring(6)), marker);
    }
    throw new IllegalArgumentException(
        "unknown calibration marker '"
            + marker
            + "': use cv:<version>, confusion:<model>/<prompt>, prior:<epsilon> or human");
  }

  private static double epsilon(String text) {
    try {
      double e = Double.parseDouble(text.strip());
      if (!(e > 0 && e < 1)) {
        throw new NumberFormatException();
      }
      return e;
    } catch (NumberFormatException ex) {
      throw new IllegalArgumentException(
          "calibration marker prior:" + text + " needs an error rate in (0, 1)", ex);
    }
  }
}
