package dev.faultline.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Probabilistic classify-and-count (PCC; Bella, Ferri, Hern&aacute;ndez-Orallo and
 * Ram&iacute;rez-Quintana, "Quantification via probability estimators", ICDM 2010): a code's
 * expected count over a scope is the sum of the items' calibrated probabilities of it, instead of
 * the number of items whose top label it is (which is biased whenever the classifier's errors do
 * not cancel; Forman, "Quantifying counts and costs via classification", DMKD 2008).
 *
 * <p>Intervals contain the per-item uncertainty only (items independent, each label drawn from its
 * distribution): the count's is the exact Poisson-binomial interval ({@link PoissonBinomial}); the
 * share's (among known codes, a ratio) comes from {@value #DRAWS} seeded simulated labellings of
 * the scope, their 5th and 95th percentiles at level 0.9 (../shared/STATISTICS.md). They do
 * <em>not</em> contain calibration error or a shift of the scope's mix away from the training
 * data's; a validation sample of the scope ({@link PredictionPowered}) does.
 *
 * <p>A human label is passed as a point mass (probability 1 on its code): it then wins for its own
 * item and adds no uncertainty.
 */
public final class ClassifyAndCount {

  /** Simulated labellings behind a share interval. */
  public static final int DRAWS = 2000;

  /** Seed of the simulation when none is given: the same input gives the same intervals. */
  public static final long DEFAULT_SEED = 20261127L;

  /** The method named in each row. */
  public static final String METHOD = "pcc";

  private ClassifyAndCount() {}

  /** Estimates at level 0.9 with the default seed. */
  public static List<Estimate> estimate(Codes codes, double[][] p) {
    return estimate(codes, p, 0.9, DEFAULT_SEED);
  }

  /**
   * One row per code: expected count and its Poisson-binomial interval, share among known codes and
   * its simulated interval.
   *
   * @param p per item, its probability of each code (in the order of {@code codes})
   */
  public static List<Estimate> estimate(Codes codes, double[][] p, double level, long seed) {
    codes.check(p);
    checkLevel(level);
    int n = p.length;
    int kk = codes.size();
    double[] expected = new double[kk];
    double known = 0;
    for (double[] row : p) {
      for (int k = 0; k < kk; k++) {
        expected[k] += row[k];
        if (codes.known(k)) {
          known += row[k];
        }
      }
    }
    double[][] shares = simulateShares(codes, p, seed);
    List<Estimate> out = new ArrayList<>();
    for (int k = 0; k < kk; k++) {
      double[] col = new double[n];
      for (int i = 0; i < n; i++) {
        col[i] = Math.min(1, Math.max(0, p[i][k]));
      }
      int[] ci = PoissonBinomial.interval(col, level);
      double share = Double.NaN;
      double lo = Double.NaN;
      double hi = Double.NaN;
      if (codes.known(k)) {
        share = known > 0 ? expected[k] / known : Double.NaN;
        double[] s = shares[k];
        if (s.length > 0) {
          lo = percentile(s, (1 - level) / 2);
          hi = percentile(s, (1 + level) / 2);
        }
      }
      out.add(
          new Estimate(
              codes.codes().get(k), expected[k], ci[0], ci[1], share, lo, hi, METHOD, 0, n, level));
    }
    return out;
  }

  /**
   * Per code, the sorted shares among known codes over {@link #DRAWS} labellings drawn from the
   * items' distributions (labellings with no known code are skipped).
   */
  static double[][] simulateShares(Codes codes, double[][] p, long seed) {
    int kk = codes.size();
    SplittableRandom r = new SplittableRandom(seed);
    double[][] s = new double[kk][DRAWS];
    int kept = 0;
    int[] count = new int[kk];
    for (int d = 0; d < DRAWS; d++) {
      Arrays.fill(count, 0);
      int known = 0;
      for (double[] row : p) {
        int k = draw(row, r.nextDouble());
        count[k]++;
        if (codes.known(k)) {
          known++;
        }
      }
      if (known == 0) {
        continue;
      }
      for (int k = 0; k < kk; k++) {
        s[k][kept] = count[k] / (double) known;
      }
      kept++;
    }
    for (int k = 0; k < kk; k++) {
      s[k] = Arrays.copyOf(s[k], kept);
      Arrays.sort(s[k]);
    }
    return s;
  }

  /** The code whose cumulative probability first exceeds u (the last code with mass if none). */
  static int draw(double[] row, double u) {
    double c = 0;
    double total = 0;
    for (double v : row) {
      total += v;
    }
    u *= total; // rows sum to 1 within the tolerance: draw from the row as given
    int last = 0;
    for (int k = 0; k < row.length; k++) {
      if (row[k] > 0) {
        last = k;
        c += row[k];
        if (u < c) {
          return k;
        }
      }
    }
    return last;
  }

  /** The q-th percentile of sorted values (nearest rank, rounded outward at the tails). */
  static double percentile(double[] sorted, double q) {
    int n = sorted.length;
    int i = q < 0.5 ? (int) Math.floor(q * (n - 1)) : (int) Math.ceil(q * (n - 1));
    return sorted[Math.max(0, Math.min(n - 1, i))];
  }

  static void checkLevel(double level) {
    if (!(level > 0 && level < 1)) {
      throw new IllegalArgumentException("interval level must be in (0, 1), not " + level);
    }
  }
}
