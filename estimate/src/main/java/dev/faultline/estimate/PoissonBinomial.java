package dev.faultline.estimate;

import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The number of successes among independent Bernoulli trials with different probabilities (the
 * Poisson-binomial distribution), computed exactly by the textbook recursion over the trials
 * (P_j(k) = P_{j-1}(k)(1 - p_j) + P_{j-1}(k-1) p_j; e.g. Chen and Liu, "Statistical applications of
 * the Poisson-binomial and conditional Bernoulli distributions", Statistica Sinica 1997), O(n
 * &middot; width): the support is trimmed to where the mass exceeds {@value #NEGLIGIBLE}, and
 * trials with p = 0 or 1 only shift it.
 */
public final class PoissonBinomial {

  /** Mass below which the distribution's outer tail cells are dropped. */
  static final double NEGLIGIBLE = 1e-18;

  private final int offset;
  private final double[] mass;

  private PoissonBinomial(int offset, double[] mass) {
    this.offset = offset;
    this.mass = mass;
  }

  /** The distribution of the number of successes. */
  public static PoissonBinomial of(double[] p) {
    return of(p, p.length);
  }

  /**
   * The distribution up to {@code cap} uncertain successes (the trials with p = 1 come on top): P(X
   * = k) is exact for every k up to the cap, as the recursion's cell k reads only cells k and k −
   * 1; the mass above the cap is left out, so the total may be below 1.
   */
  static PoissonBinomial of(double[] p, int cap) {
    int sure = 0;
    int width = Math.min(p.length, Math.max(0, cap)) + 1;
    double[] cur = new double[width + 1];
    double[] next = new double[width + 1];
    cur[0] = 1;
    int lo = 0;
    int hi = 0; // support of cur is [lo, hi] (relative to sure)
    for (double q : p) {
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("probability " + q + " is not in [0, 1]");
      }
      if (q == 0) {
        continue;
      }
      if (q == 1) {
        sure++;
        continue;
      }
      next[lo] = cur[lo] * (1 - q);
      for (int k = lo + 1; k <= hi; k++) {
        next[k] = cur[k] * (1 - q) + cur[k - 1] * q;
      }
      if (hi + 1 < width) {
        next[hi + 1] = cur[hi] * q;
        hi++;
      }
      while (hi > lo && next[hi] < NEGLIGIBLE) {
        hi--;
      }
      while (lo < hi && next[lo] < NEGLIGIBLE) {
        lo++;
      }
      double[] t = cur;
      cur = next;
      next = t;
    }
    double[] m = new double[hi - lo + 1];
    System.arraycopy(cur, lo, m, 0, m.length);
    return new PoissonBinomial(sure + lo, m);
  }

  /**
   * Below this standard deviation {@link #interval(double[], double)} computes the distribution
   * exactly; from it on, by the refined normal approximation.
   */
  static final double APPROXIMATE_FROM_SD = 12;

  private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1);

  /**
   * The equal-tailed interval of the number of successes: exact ({@link #of}) while the standard
   * deviation is below {@value #APPROXIMATE_FROM_SD}, else by the refined normal approximation
   * (Volkova 1996; Hong, "On computing the distribution function for the Poisson binomial
   * distribution", Computational Statistics &amp; Data Analysis 2013, §3: P(X ≤ k) ≈ G((k + ½ −
   * μ)/σ), G(x) = Φ(x) + γ(1 − x²)φ(x)/6 with γ the skewness), whose endpoints there are within one
   * count of the exact ones ({@code PoissonBinomialTest}), at O(n) instead of O(n · width).
   */
  public static int[] interval(double[] p, double level) {
    double mu = 0;
    double var = 0;
    double third = 0;
    for (double q : p) {
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("probability " + q + " is not in [0, 1]");
      }
      mu += q;
      var += q * (1 - q);
      third += q * (1 - q) * (1 - 2 * q);
    }
    if (Math.sqrt(var) < APPROXIMATE_FROM_SD) {
      return of(p, upperBound(p, mu, var, level)).interval(level);
    }
    double sd = Math.sqrt(var);
    double gamma = third / (var * sd);
    return new int[] {
      rnaQuantile((1 - level) / 2, mu, sd, gamma, p.length),
      rnaQuantile((1 + level) / 2, mu, sd, gamma, p.length)
    };
  }

  /**
   * A number of uncertain successes (those of the trials with p &lt; 1) that the interval's upper
   * end cannot exceed: by Cantelli's inequality P(X − μ ≥ t) ≤ σ² / (σ² + t²), so with t = σ √(u /
   * (1 − u)), u = (1 + level) / 2, at least u of the mass lies below μ + t. The exact recursion
   * then stops there instead of at the support's negligible tail.
   */
  static int upperBound(double[] p, double mu, double var, double level) {
    int sure = 0;
    for (double q : p) {
      sure += q == 1 ? 1 : 0;
    }
    double u = (1 + level) / 2;
    double t = Math.sqrt(var * u / (1 - u));
    return (int) Math.ceil(mu - sure + t) + 1;
  }

  /** The smallest k with G((k + ½ − μ)/σ) ≥ q, within [0, n]. */
  private static int rnaQuantile(double q, double mu, double sd, double gamma, int n) {
    int k = (int) Math.max(0, Math.floor(mu - 10 * sd));
    int last = (int) Math.min(n, Math.ceil(mu + 10 * sd));
    for (; k < last; k++) {
      double x = (k + 0.5 - mu) / sd;
      double phi = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
      if (NORMAL.cumulativeProbability(x) + gamma * (1 - x * x) * phi / 6 >= q - 1e-12) {
        return k;
      }
    }
    return last;
  }

  /** P(X = k). */
  public double pmf(int k) {
    int j = k - offset;
    return j < 0 || j >= mass.length ? 0 : mass[j];
  }

  /** The smallest k with P(X &le; k) &ge; q. */
  public int quantile(double q) {
    double c = 0;
    for (int j = 0; j < mass.length; j++) {
      c += mass[j];
      if (c >= q - 1e-12) {
        return offset + j;
      }
    }
    return offset + mass.length - 1;
  }

  /**
   * The equal-tailed interval of the given level: [the (1-level)/2 quantile, the (1+level)/2
   * quantile]; as the distribution is discrete it holds at least that level.
   */
  public int[] interval(double level) {
    return new int[] {quantile((1 - level) / 2), quantile((1 + level) / 2)};
  }
}
