package dev.faultline.estimate.group;

import dev.faultline.estimate.PriorShift;
import dev.faultline.estimate.TrainingPrior;
import dev.faultline.estimate.item.Calibration;
import dev.faultline.estimate.item.Item;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Optional;

/**
 * Where the grouped estimator corrects a scope's probabilities for the scope's own mix of codes
 * ({@link PriorShift}, Saerens, Latinne and Decaestecker 2002, damped): only where it was chosen on
 * the training corpus's grouped folds (docs/estimates.md, "Correcting for the scope's mix") — the
 * symptom of bug reports, a scope of at least {@link PriorShift#MIN_EXPECTED} expected bug reports,
 * no validation sample serving it (prediction-powered inference rectifies the raw probabilities)
 * and probabilities estimated, not labels counted. Only the items whose symptom and kind rest on
 * the learned layer's cross-validated calibration are re-weighted; a person's labels and other
 * tiers' answers count in the scope's mix but are kept as they are.
 */
final class ScopeMix {
  private ScopeMix() {}

  /**
   * Corrects {@code p} in place where the correction applies.
   *
   * @param items the group's items
   * @param spec what is estimated
   * @param expected the group's expected number of items of the kind
   * @param p per item its probability of each code of the dimension and of the kind (no "not of the
   *     kind" entry: that is 1 minus the row's sum)
   * @return whether {@code p} was corrected (false when no item rests on the learned layer)
   */
  static boolean adjust(
      List<Item> items, GroupedEstimator.Spec spec, double expected, double[][] p) {
    if (!applies(items, spec, expected)) {
      return false;
    }
    List<String> codes = spec.dimension().distributionCodes();
    int none = codes.indexOf("NONE");
    Optional<double[]> prior = TrainingPrior.bundled().of(spec.dimension().key(), codes);
    if (none < 0 || prior.isEmpty()) {
      return false;
    }
    // The training prior is over the stored joint: P(bug and code), NONE holding "not a bug".
    double[][] joint = new double[p.length][];
    boolean[] fixed = new boolean[p.length];
    for (int i = 0; i < p.length; i++) {
      joint[i] = p[i].clone();
      double sum = 0;
      for (double v : p[i]) {
        sum += v;
      }
      joint[i][none] += Math.max(0, 1 - sum);
      normalise(joint[i]);
      fixed[i] = !learned(items.get(i));
    }
    boolean any = false;
    for (boolean f : fixed) {
      any |= !f;
    }
    if (!any) {
      return false; // no learned item to correct
    }
    double[][] q = PriorShift.adjust(joint, prior.get(), PriorShift.STRENGTH, fixed).p();
    for (int i = 0; i < p.length; i++) {
      if (fixed[i]) {
        continue;
      }
      double noneOfKind = p[i][none];
      double noneJoint = joint[i][none];
      for (int k = 0; k < codes.size(); k++) {
        p[i][k] = k == none ? 0 : q[i][k];
      }
      // NONE's mass splits between "of the kind, no code" and "not of the kind" as before
      p[i][none] = noneJoint > 0 ? q[i][none] * noneOfKind / noneJoint : 0;
    }
    return true;
  }

  static boolean applies(List<Item> items, GroupedEstimator.Spec spec, double expected) {
    if (spec.dimension() != Dimension.SYMPTOM
        || spec.pair() != null
        || !"BUG".equals(spec.kind())
        || spec.mode() != GroupedEstimator.Mode.ESTIMATE
        || !PriorShift.applies(expected)) {
      return false;
    }
    for (Item item : items) {
      if (item.drawn() || item.sample() != null && !item.sample().isEmpty()) {
        return false; // a validation sample serves the scope
      }
    }
    return true;
  }

  private static boolean learned(Item item) {
    return item.calibration(0).basis() == Calibration.Basis.CV
        && item.kindCalibration().basis() == Calibration.Basis.CV;
  }

  private static void normalise(double[] row) {
    double sum = 0;
    for (double v : row) {
      sum += v;
    }
    if (sum > 0) {
      for (int k = 0; k < row.length; k++) {
        row[k] /= sum;
      }
    }
  }
}
