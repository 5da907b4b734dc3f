package dev.faultline.stats.detect;

import org.apache.commons.math3.special.Beta;

/**
 * Upper tails of the count models the alerts test against: Poisson, and negative binomial (a
 * Poisson whose rate varies from week to week as a gamma with squared coefficient of variation
 * {@code theta}: variance {@code mean + theta * mean^2}).
 */
public final class CountTails {
  private CountTails() {}

  /**
   * P(X ≥ k) for X negative binomial with the given mean and dispersion; Poisson when {@code theta}
   * is 0. 1 for k ≤ 0.
   *
   * @param theta over-dispersion, 0 or more (0 = Poisson)
   */
  public static double atLeast(long k, double mean, double theta) {
    if (!(mean > 0)) {
      throw new IllegalArgumentException("expected count must be positive, was " + mean);
    }
    if (!(theta >= 0)) {
      throw new IllegalArgumentException("dispersion must be 0 or more, was " + theta);
    }
    if (k <= 0) {
      return 1.0;
    }
    if (theta < 1e-9) {
      return PoissonTail.atLeast(k, mean);
    }
    double size = 1 / theta;
    // P(X >= k) = I_{mean/(size+mean)}(k, size), the regularized incomplete beta function.
    double p = Beta.regularizedBeta(mean / (size + mean), k, size, 1e-15, 100_000);
    return Math.max(0.0, Math.min(1.0, p));
  }
}
