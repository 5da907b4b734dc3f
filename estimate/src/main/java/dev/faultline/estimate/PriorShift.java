package dev.faultline.estimate;

import java.util.Arrays;

/**
 * An unlabelled correction of a scope's calibrated probabilities for a shift of its mix of codes
 * away from the training data's ("prior shift" or "label shift"): the EM of Saerens, Latinne and
 * Decaestecker, "Adjusting the outputs of a classifier to new a priori probabilities: a simple
 * procedure", Neural Computation 14(1), 2002. Each item's distribution p_i, calibrated where the
 * codes occur with the training prior π_t, becomes q_i(c) ∝ p_i(c) · π(c) / π_t(c) for the scope's
 * own prior π, and π is re-estimated from the q_i until it no longer moves (a maximum-likelihood
 * estimate of the scope's mix under the assumption that p(text | code) is the same in training and
 * scope).
 *
 * <p>Undamped, that estimate overfits a scope of a few hundred items with a dozen codes (measured:
 * docs/estimates.md, "Correcting for the scope's mix"). The M-step therefore adds a Dirichlet prior
 * centred on π_t worth {@code strength × n} items (a MAP estimate, pseudo-counts as in Dempster,
 * Laird and Rubin's EM with a conjugate prior): π = (Σ_i q_i + α π_t) / (n + α). {@code strength} 0
 * is the paper's EM; a large one returns the input unchanged (PCC).
 *
 * <p>Items whose distribution does not rest on the training prior (a person's label, an answer of
 * another tier) are marked {@code fixed}: they count in the scope's mix but are not re-weighted.
 * Codes whose training prior is 0 are never re-weighted. Pure and deterministic.
 */
public final class PriorShift {

  /**
   * The damping chosen on the training corpus's grouped folds (docs/estimates.md): α = 2 n, the
   * training prior weighs twice the scope's items.
   */
  public static final double STRENGTH = 2.0;

  /**
   * The smallest expected number of items of the kind (e.g. bug reports) in a scope for which the
   * correction was measured to help (docs/estimates.md); below it PCC was as good or better.
   */
  public static final double MIN_EXPECTED = 80;

  /** Iterations at most (a damped EM converges in tens). */
  static final int MAX_ITERATIONS = 1000;

  /** Converged when no code's prior moves by more than this in an iteration. */
  static final double TOLERANCE = 1e-10;

  private PriorShift() {}

  /**
   * The adjusted distributions and the scope's estimated prior.
   *
   * @param p per item its adjusted distribution (a fixed item's unchanged)
   * @param prior the scope's estimated mix of codes π
   * @param iterations EM iterations run
   */
  public record Result(double[][] p, double[] prior, int iterations) {}

  /** Whether a scope is large enough for the correction ({@link #MIN_EXPECTED}). */
  public static boolean applies(double expectedOfKind) {
    return expectedOfKind >= MIN_EXPECTED;
  }

  /**
   * Damped EM with the chosen {@link #STRENGTH}, every item adjustable.
   *
   * @param p per item its calibrated probability of each code (rows sum to 1)
   * @param trainingPrior the codes' mix the probabilities were calibrated under (sums to 1)
   */
  public static Result adjust(double[][] p, double[] trainingPrior) {
    return adjust(p, trainingPrior, STRENGTH, new boolean[p.length]);
  }

  /**
   * Damped EM.
   *
   * @param p per item its calibrated probability of each code (rows sum to 1)
   * @param trainingPrior the codes' mix the probabilities were calibrated under (sums to 1)
   * @param strength the Dirichlet prior's weight in items per scope item (0: the paper's EM)
   * @param fixed per item, true when its distribution is kept as given
   */
  public static Result adjust(
      double[][] p, double[] trainingPrior, double strength, boolean[] fixed) {
    check(p, trainingPrior, strength, fixed);
    int n = p.length;
    int k = trainingPrior.length;
    double alpha = strength * n;
    double[] pi = trainingPrior.clone();
    // The fixed items' part of the M-step's sum does not change between iterations.
    double[] fixedSum = new double[k];
    for (int i = 0; i < n; i++) {
      if (fixed[i]) {
        for (int c = 0; c < k; c++) {
          fixedSum[c] += p[i][c];
        }
      }
    }
    double[] ratio = new double[k];
    double[] next = new double[k];
    int it = 0;
    while (it < MAX_ITERATIONS && n > 0) {
      it++;
      ratios(trainingPrior, pi, ratio);
      System.arraycopy(fixedSum, 0, next, 0, k);
      for (int i = 0; i < n; i++) {
        if (!fixed[i]) {
          accumulate(p[i], ratio, next);
        }
      }
      double moved = 0;
      for (int c = 0; c < k; c++) {
        double v = (next[c] + alpha * trainingPrior[c]) / (n + alpha);
        moved = Math.max(moved, Math.abs(v - pi[c]));
        pi[c] = v;
      }
      if (moved <= TOLERANCE) {
        break;
      }
    }
    double[][] q = new double[n][];
    reweight(p, trainingPrior, fixed, pi, q);
    return new Result(q, pi, it);
  }

  /** π / π_t per code (1 where the training prior has no mass: the row's own value is kept). */
  private static void ratios(double[] trainingPrior, double[] pi, double[] ratio) {
    for (int c = 0; c < ratio.length; c++) {
      ratio[c] = trainingPrior[c] > 0 ? pi[c] / trainingPrior[c] : 1;
    }
  }

  /** Adds one adjustable item's re-weighted, renormalised row to {@code sum} (the E-step). */
  private static void accumulate(double[] row, double[] ratio, double[] sum) {
    double total = total(row, ratio);
    for (int c = 0; c < row.length; c++) {
      sum[c] += reweighted(row, ratio, total, c);
    }
  }

  /** The E-step's rows: every adjustable row re-weighted by π / π_t and renormalised. */
  private static void reweight(
      double[][] p, double[] trainingPrior, boolean[] fixed, double[] pi, double[][] q) {
    double[] ratio = new double[trainingPrior.length];
    ratios(trainingPrior, pi, ratio);
    for (int i = 0; i < p.length; i++) {
      double[] row = p[i].clone();
      if (!fixed[i]) {
        double total = total(p[i], ratio);
        for (int c = 0; c < row.length; c++) {
          row[c] = reweighted(p[i], ratio, total, c);
        }
      }
      q[i] = row;
    }
  }

  private static double total(double[] row, double[] ratio) {
    double total = 0;
    for (int c = 0; c < row.length; c++) {
      total += row[c] * ratio[c];
    }
    return total;
  }

  /**
   * Code c's probability in the re-weighted, renormalised row; a row whose mass is all on codes the
   * scope's prior has emptied is kept as it is.
   */
  private static double reweighted(double[] row, double[] ratio, double total, int c) {
    return total > 0 ? row[c] * ratio[c] / total : row[c];
  }

  private static void check(double[][] p, double[] prior, double strength, boolean[] fixed) {
    if (!(strength >= 0) || Double.isInfinite(strength)) {
      throw new IllegalArgumentException("strength must be finite and >= 0, not " + strength);
    }
    if (fixed.length != p.length) {
      throw new IllegalArgumentException(
          "fixed has " + fixed.length + " entries for " + p.length + " items");
    }
    checkRow("the training prior", prior, prior.length);
    for (int i = 0; i < p.length; i++) {
      checkRow("item " + i, p[i], prior.length);
    }
  }

  private static void checkRow(String what, double[] row, int k) {
    if (row == null || row.length != k) {
      throw new IllegalArgumentException(
          what + " has " + (row == null ? "no" : row.length) + " probabilities, not " + k);
    }
    double sum = 0;
    for (int c = 0; c < k; c++) {
      if (!(row[c] >= 0 && row[c] <= 1)) {
        throw new IllegalArgumentException(
            what + ": probability of code " + c + " is " + row[c] + ", not in [0, 1]");
      }
      sum += row[c];
    }
    if (Math.abs(sum - 1) > Codes.SUM_TOLERANCE) {
      throw new IllegalArgumentException(
          what + ": probabilities sum to " + sum + ", not 1 " + Arrays.toString(row));
    }
  }
}
