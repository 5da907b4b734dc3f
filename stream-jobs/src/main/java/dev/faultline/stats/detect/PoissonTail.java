package dev.faultline.stats.detect;

/**
 * Upper tail of the Poisson distribution, computed in log space so large counts neither overflow
 * nor underflow.
 */
public final class PoissonTail {
  private PoissonTail() {}

  /** P(X ≥ k) for X ~ Poisson(lambda); 1 for k ≤ 0. */
  public static double atLeast(long k, double lambda) {
    if (lambda <= 0) {
      throw new IllegalArgumentException("Poisson rate must be positive, was " + lambda);
    }
    if (k <= 0) {
      return 1.0;
    }
    // P(X >= k) = 1 - P(X <= k-1). Past the mean, sum the upper terms directly (they shrink fast
    // and keep precision
    // for tiny tails); below it, 1 - CDF is accurate.
    if (k > lambda) {
      double logTerm = k * Math.log(lambda) - lambda - logFactorial(k);
      double term = Math.exp(logTerm);
      double sum = 0;
      for (long i = k; i < k + 10_000; i++) {
        sum += term;
        term *= lambda / (i + 1);
        if (term < sum * 1e-17) {
          break;
        }
      }
      return Math.min(1.0, sum);
    }
    double term = Math.exp(-lambda);
    double cdf = 0;
    for (long i = 0; i < k; i++) {
      cdf += term;
      term *= lambda / (i + 1);
    }
    return Math.max(0.0, 1.0 - cdf);
  }

  static double logFactorial(long n) {
    if (n < 2) {
      return 0;
    }
    if (n < 256) {
      double s = 0;
      for (long i = 2; i <= n; i++) {
        s += Math.log(i);
      }
      return s;
    }
    // Stirling with the first correction terms: exact to double precision at n ≥ 256.
    double x = n;
    return x * Math.log(x)
        - x
        + 0.5 * Math.log(2 * Math.PI * x)
        + 1 / (12 * x)
        - 1 / (360 * x * x * x);
  }
}
