package dev.faultline.jobs.stats.domain;

import java.util.Optional;

/**
 * Decides whether a category's count in the recent window is far above its own trailing baseline: a one-sided
 * Poisson test of the recent count against the baseline rate scaled to the window, with a minimum count so that a
 * category going from 0 to 2 is not news. Pure and stateless; episode bookkeeping is the caller's.
 *
 * @param sensitivity largest tail probability that raises an alert (smaller = fewer alerts), e.g. 0.001
 * @param minCount smallest recent count that can raise an alert
 * @param minBaselineRate floor of the expected count per window, so a category never seen before needs more than a
 *     couple of issues to count as a surge
 */
public record SurgeDetector(double sensitivity, long minCount, double minBaselineRate) implements java.io.Serializable {

  public SurgeDetector {
    if (!(sensitivity > 0 && sensitivity < 1)) {
      throw new IllegalArgumentException("surge sensitivity must be a probability in (0, 1), e.g. 0.001; was " + sensitivity);
    }
    if (minCount < 1) {
      throw new IllegalArgumentException("surge minimum count must be at least 1, was " + minCount);
    }
    if (!(minBaselineRate > 0)) {
      throw new IllegalArgumentException("minimum baseline rate must be positive, e.g. 0.5; was " + minBaselineRate);
    }
  }

  /** The outcome of one test. */
  public record Verdict(long count, double expected, double pValue, boolean surge) {
    /** -log10 of the tail probability: 3 means one in a thousand. */
    public double score() {
      return pValue <= 0 ? 320.0 : -Math.log10(pValue);
    }
  }

  /**
   * @param recentCount issues in the recent window
   * @param recentDays length of the recent window in days
   * @param baselineCount issues in the trailing baseline period just before the recent window
   * @param baselineDays length of the baseline period in days
   */
  public Verdict test(long recentCount, int recentDays, long baselineCount, int baselineDays) {
    double expected = Math.max(minBaselineRate, Math.max(0, baselineCount) * (double) recentDays / baselineDays);
    double p = PoissonTail.atLeast(recentCount, expected);
    boolean surge = recentCount >= minCount && p <= sensitivity;
    return new Verdict(recentCount, expected, p, surge);
  }

  /** The verdict when it is a surge. */
  public Optional<Verdict> surge(long recentCount, int recentDays, long baselineCount, int baselineDays) {
    Verdict v = test(recentCount, recentDays, baselineCount, baselineDays);
    return v.surge() ? Optional.of(v) : Optional.empty();
  }
}
