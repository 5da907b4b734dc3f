package dev.faultline.stats.detect;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.AlertKeys;

/**
 * One hypothesis tested in a framework's family at one day end, with everything its explanation
 * needs.
 *
 * @param kind {@link AlertKind#SURGE} (a category, optionally after a release) or {@link
 *     AlertKind#NEW_COMBINATION} (a category × stage pair absent from the baseline period)
 * @param key the {@link AlertKeys} key
 * @param release the version whose weeks after are compared with the weeks before, else null
 * @param windowStartDay first epoch day of the window counted: for a CUSUM, the start of its run
 * @param windowEndDay epoch day after the window's last
 * @param count issues of the key in the window
 * @param baselineCount issues of the key in the baseline period
 * @param baselineStartDay first epoch day of the baseline period
 * @param baselineDays length of the baseline period (shorter than configured while the framework's
 *     history is)
 * @param expected expected count in the window under the model: the window's other issues of the
 *     dimension × share / (1 − share) (for a release: the larger of that and the baseline rate)
 * @param share the key's share of the dimension's issues in the baseline, shrunk toward an even
 *     share (for a new pair: Laplace's 1/(N + 2))
 * @param rise the rate multiple the CUSUM tests (3); 0 for a release comparison
 * @param statistic the CUSUM's log-likelihood ratio at this end; 0 for a release comparison
 * @param threshold the statistic at which this key alerts, given the family's false-alert budget
 * @param arlDays mean days between chance runs at least as strong as this one, in this key alone
 *     (the zero-state average run length at {@code statistic}); 0 for a release comparison
 * @param dispersion negative-binomial over-dispersion of a release comparison (0 = Poisson)
 * @param pValue P(X ≥ count) for the window under the baseline share (Poisson tail; for a release,
 *     the negative-binomial one)
 * @param adjustedPValue family-wise: the chance that some key of the framework shows a run this
 *     strong by chance within a month (for a release: Bonferroni over the release's tests)
 * @param familySize hypotheses tested in the framework at this day end
 * @param alert whether it passes the false-alert control and the minimum support
 * @param dimensionBaseline the framework's issues in the key's dimension in the baseline period
 * @param dimensionWindow the framework's issues in the key's dimension in the window
 * @param budget the false alerts a month the framework spends over its family ({@link
 *     AlertModel#budget}); a release's tests share half of it
 */
public record Finding(
    AlertKind kind,
    String key,
    String release,
    long windowStartDay,
    long windowEndDay,
    long count,
    long baselineCount,
    long baselineStartDay,
    long baselineDays,
    double expected,
    double share,
    double rise,
    double statistic,
    double threshold,
    double arlDays,
    double dispersion,
    double pValue,
    double adjustedPValue,
    int familySize,
    boolean alert,
    long dimensionBaseline,
    long dimensionWindow,
    double budget) {

  Finding decided(double adjusted, int family, double limit, boolean passes) {
    return new Finding(
        kind,
        key,
        release,
        windowStartDay,
        windowEndDay,
        count,
        baselineCount,
        baselineStartDay,
        baselineDays,
        expected,
        share,
        rise,
        statistic,
        limit,
        arlDays,
        dispersion,
        pValue,
        adjusted,
        family,
        passes,
        dimensionBaseline,
        dimensionWindow,
        budget);
  }

  public Dimension dimension() {
    return Dimension.valueOf(AlertKeys.split(key)[0]);
  }

  public String category() {
    return AlertKeys.split(key)[1];
  }

  /** The stage of a pair, else null. */
  public String stage() {
    String[] p = AlertKeys.split(key);
    return p.length == 3 ? p[2] : null;
  }

  /**
   * The count a reader expects in the window from the baseline's rate: {@code baselineCount ×
   * window days / baselineDays} (what the explanation states; the test itself reads shares).
   */
  public double expectedFromBaseline() {
    return baselineDays <= 0
        ? 0
        : baselineCount * (double) (windowEndDay - windowStartDay) / baselineDays;
  }

  /**
   * The expected count an alert states: the one its test used ({@link #expected}), which the text
   * derives from counts it also states (the window's other issues of the dimension and the share
   * the baseline gives); the plain baseline rate ({@link #expectedFromBaseline()}) follows it.
   */
  public double statedExpected() {
    return expected;
  }

  /** The window's issues of the dimension other than the key's: what the share applies to. */
  public long others() {
    return Math.max(0, dimensionWindow - count);
  }

  /** Whether this is a release comparison rather than a CUSUM. */
  public boolean releaseComparison() {
    return release != null;
  }

  /**
   * -log10 of the window's p-value, for ranking alerts: 3 means one in a thousand. (The family-wise
   * chance of an alert's first day sits near the budget by construction, so it does not rank.)
   */
  public double score() {
    return pValue <= 0 ? 320.0 : -Math.log10(pValue);
  }
}
