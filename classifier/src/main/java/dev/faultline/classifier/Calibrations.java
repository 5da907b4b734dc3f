package dev.faultline.classifier;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The marker every label carries beside its distribution ({@link Label#calibration()}, written as
 * {@code <key>Calibration} to the graph, the classified topic and {@code classify} output): what
 * the distribution rests on, so a reader knows which probabilities it may sum as calibrated ones.
 *
 * <ul>
 *   <li>{@code cv:<version>}: calibrated on held-out folds of the training corpus (the learned
 *       layer; the rules through their cross-validated confusion, {@link
 *       dev.faultline.classifier.rules.RulesCalibration}).
 *   <li>{@code confusion:<model>/<prompt>}: a language model's answer mapped through the confusion
 *       row measured for that model and prompt version ({@code faultline llm calibrate}).
 *   <li>{@code prior:<epsilon>}: an answer with no measured calibration: 1 − epsilon on the
 *       answered code, epsilon spread over the others by the training mix ({@link
 *       Distributions#priorError}); never a point mass.
 *   <li>{@code human}: a person's label (a point mass), and a dimension that a person's label
 *       decides for certain ({@link HumanConditioning}: a person's non-bug kind makes the symptom
 *       NONE).
 * </ul>
 *
 * A label written before the marker existed has none: readers treat a missing marker with a
 * distribution as {@code cv:} and a missing distribution as a point mass to be given a prior error.
 */
public final class Calibrations {

  /** A person's label. */
  public static final String HUMAN = "human";

  /** The prefix of a label calibrated on held-out folds. */
  public static final String CV = "cv:";

  /** The prefix of a language model's answer mapped through its measured confusion. */
  public static final String CONFUSION = "confusion:";

  /** The prefix of an answer with no measured calibration. */
  public static final String PRIOR = "prior:";

  private Calibrations() {}

  /** {@code cv:<version>}. */
  public static String cv(String version) {
    return CV + Objects.requireNonNull(version, "version");
  }

  /** {@code confusion:<model>/<prompt>}. */
  public static String confusion(String model, String prompt) {
    return CONFUSION + Objects.requireNonNull(model, "model") + "/" + prompt;
  }

  /** {@code prior:<epsilon>}, epsilon written as a plain decimal ({@code prior:0.1}). */
  public static String prior(double epsilon) {
    return PRIOR + BigDecimal.valueOf(epsilon).stripTrailingZeros().toPlainString();
  }
}
