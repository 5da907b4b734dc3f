package dev.faultline.jobs.stats.detect;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;

/**
 * One hypothesis tested in a framework's family at one window end, with everything its explanation
 * needs.
 *
 * @param kind {@link AlertKind#SURGE} (a category, optionally after a release) or {@link
 *     AlertKind#NEW_COMBINATION} (a category × stage pair absent from the baseline period)
 * @param key the {@link AlertKeys} key
 * @param release the version whose weeks after are compared with the weeks before, else null
 * @param windowStartDay first epoch day of the window counted
 * @param windowEndDay epoch day after the window's last
 * @param count issues in the window
 * @param baselineCount issues of the key in the baseline period
 * @param baselineStartDay first epoch day of the baseline period
 * @param baselineDays length of the baseline period (shorter than configured while the framework's
 *     history is)
 * @param expected expected count in the window under the model: the larger of the two estimates
 *     below
 * @param rateExpected expected from the framework's baseline rate and the category's shrunk share
 * @param volumeExpected expected from this window's issues of other categories and the category's
 *     shrunk share (follows release cycles: a busy week raises every category's expectation)
 * @param dispersion negative-binomial over-dispersion used (0 = Poisson)
 * @param pValue P(X ≥ count) under the model
 * @param adjustedPValue Benjamini-Hochberg adjusted over the family
 * @param familySize hypotheses tested in the framework at this window end
 * @param alert whether it passes the false-discovery control and the minimum support
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
    double rateExpected,
    double volumeExpected,
    double dispersion,
    double pValue,
    double adjustedPValue,
    int familySize,
    boolean alert) {

  Finding adjusted(double adjusted, int family, boolean passes) {
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
        rateExpected,
        volumeExpected,
        dispersion,
        pValue,
        adjusted,
        family,
        passes);
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

  /** -log10 of the p-value: 3 means one in a thousand. */
  public double score() {
    return pValue <= 0 ? 320.0 : -Math.log10(pValue);
  }
}
