package dev.faultline.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The release view: for one release, the categories whose rate in the days after it differs from
 * the days before it. The {@code beforeDays} before the release's publication are compared with the
 * days from it, {@code afterDays} once that many have passed, else the whole days elapsed so far (a
 * release 10 days old is compared over its 10 days, not over 28 days of which 18 count as zero).
 *
 * <p>The counts are estimates by default: each period's expected number of bug reports of the
 * category with the variance of that expectation ({@link Count}). Two rates are compared by the
 * score test of two Poisson rates with the classification variance added (a Wald-type z: under
 * equal rates the pooled rate {@code λ = (a + b) / (dA + dB)}, {@code z = (a/dA − b/dB) / sqrt(λ
 * (1/dA + 1/dB) + varA/dA² + varB/dB²)}, two-sided normal p; Cox and Lewis, The Statistical
 * Analysis of Series of Events, 1966, for the Poisson part): an uncertain count widens the test as
 * it widens the interval. Where both counts are exact (labels counted: no variance, whole numbers)
 * the exact conditional test is used instead (Przyborowski and Wilenski 1940): given the category's
 * {@code n = before + after} issues, {@code after} is binomial with {@code p = daysAfter /
 * (daysBefore + daysAfter)} when the rates are equal; two-sided p = twice the smaller tail, at most
 * 1. Bonferroni over the release's categories with at least half an issue expected in the two
 * periods together, at {@code alpha}.
 */
final class ReleaseShifts {
  private static final Duration DAY = Duration.ofDays(1);

  private ReleaseShifts() {}

  /** The smallest expected count, before and after together, of a category that is tested. */
  static final double MIN_TESTED = 0.5;

  /**
   * One period's count of a category: the expected number of issues and the variance of that
   * expectation (0 for a count of labels).
   */
  record Count(double expected, double variance) {
    /** A count of labels: no variance. */
    static Count exact(long n) {
      return new Count(n, 0);
    }

    /**
     * An estimate with a 90% interval {@code [low, high]}: its variance read from the interval's
     * width as a normal one's ({@code ((high − low) / (2 · 1.645))²}); no interval, no variance.
     */
    static Count of(double expected, Double low, Double high) {
      if (low == null || high == null) {
        return new Count(expected, 0);
      }
      double sd = (high - low) / (2 * Z90);
      return new Count(expected, sd * sd);
    }

    Count plus(Count other) {
      return new Count(expected + other.expected, variance + other.variance);
    }

    boolean isExact() {
      return variance == 0 && expected == Math.rint(expected);
    }
  }

  /** The normal quantile of a two-sided 90% interval. */
  static final double Z90 = 1.6448536269514722;

  /**
   * One category around one release: the expected counts (whole numbers for labels counted), their
   * rates per week, the test used ({@code exact} or {@code score}) and its p-values.
   */
  record Shift(
      String category,
      double before,
      double after,
      double beforePerWeek,
      double afterPerWeek,
      double pValue,
      double adjustedPValue,
      String test,
      boolean differs) {}

  /**
   * The periods compared around one release: {@code [from, release)} and {@code [release, to)}.
   *
   * @param daysAfter whole days elapsed since the release, at most the full period
   * @param complete whether the full period after has passed
   */
  record Periods(
      Instant from,
      Instant release,
      Instant to,
      long daysBefore,
      long daysAfter,
      boolean complete) {
    /** What a row says of a young release: {@code "10 days so far"}, else null. */
    String soFar() {
      return complete ? null : daysAfter + (daysAfter == 1 ? " day" : " days") + " so far";
    }
  }

  /**
   * The periods of a release published at {@code published}, seen at {@code now}: the {@code
   * beforeDays} before it, and the whole days from it up to {@code afterDays}.
   */
  static Periods periods(Instant published, Instant now, int beforeDays, int afterDays) {
    long elapsed = Math.max(0, Duration.between(published, now).toMillis() / DAY.toMillis());
    long after = Math.min(afterDays, elapsed);
    return new Periods(
        published.minus(DAY.multipliedBy(beforeDays)),
        published,
        published.plus(DAY.multipliedBy(after)),
        beforeDays,
        after,
        after == afterDays);
  }

  /**
   * @param before issues per category in the days before
   * @param after issues per category in the days after
   * @return every category with at least {@link #MIN_TESTED} issues expected in the periods
   *     compared, differing ones first, then by name; none when no whole day has passed since the
   *     release
   */
  static List<Shift> compare(
      Map<String, Count> before, Map<String, Count> after, Periods periods, double alpha) {
    if (periods.daysAfter() == 0) {
      return List.of();
    }
    Count none = new Count(0, 0);
    Map<String, Count[]> counts = new TreeMap<>();
    before.forEach((c, n) -> counts.computeIfAbsent(c, k -> new Count[] {none, none})[0] = n);
    after.forEach((c, n) -> counts.computeIfAbsent(c, k -> new Count[] {none, none})[1] = n);
    counts.values().removeIf(n -> n[0].expected() + n[1].expected() < MIN_TESTED);
    double daysBefore = periods.daysBefore();
    double daysAfter = periods.daysAfter();
    List<Shift> out = new ArrayList<>();
    for (Map.Entry<String, Count[]> e : counts.entrySet()) {
      Count b = e.getValue()[0];
      Count a = e.getValue()[1];
      boolean exact = a.isExact() && b.isExact();
      double p =
          exact
              ? pValue(
                  Math.round(a.expected()),
                  Math.round(b.expected()),
                  daysAfter / (daysBefore + daysAfter))
              : scorePValue(a, b, daysAfter, daysBefore);
      double adjusted = Math.min(1, p * counts.size());
      out.add(
          new Shift(
              e.getKey(),
              b.expected(),
              a.expected(),
              7 * b.expected() / daysBefore,
              7 * a.expected() / daysAfter,
              p,
              adjusted,
              exact ? "exact" : "score",
              adjusted <= alpha));
    }
    out.sort((x, y) -> x.differs() == y.differs() ? 0 : x.differs() ? -1 : 1);
    return out;
  }

  /**
   * Two-sided p of the score test of two Poisson rates over {@code daysAfter} and {@code
   * daysBefore}, each count's classification variance added to the Poisson variance under equal
   * rates.
   */
  static double scorePValue(Count after, Count before, double daysAfter, double daysBefore) {
    double pooled = (after.expected() + before.expected()) / (daysAfter + daysBefore);
    double variance =
        pooled * (1 / daysAfter + 1 / daysBefore)
            + after.variance() / (daysAfter * daysAfter)
            + before.variance() / (daysBefore * daysBefore);
    if (variance <= 0) {
      return 1;
    }
    double z =
        (after.expected() / daysAfter - before.expected() / daysBefore) / Math.sqrt(variance);
    return Math.min(1, 2 * STANDARD_NORMAL.cumulativeProbability(-Math.abs(z)));
  }

  private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(null, 0, 1);

  /** Two-sided exact conditional p-value of {@code after} of {@code after + before} issues. */
  static double pValue(long after, long before, double share) {
    int n = (int) (after + before);
    if (n == 0) {
      return 1;
    }
    BinomialDistribution d = new BinomialDistribution(null, n, share);
    double lower = d.cumulativeProbability((int) after);
    double upper = 1 - d.cumulativeProbability((int) after - 1);
    return Math.min(1, 2 * Math.min(lower, upper));
  }
}
