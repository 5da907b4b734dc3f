package dev.faultline.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The release view: for one release, the categories whose rate in the days after it differs from
 * the days before it. The {@code beforeDays} before the release's publication are compared with the
 * days from it, {@code afterDays} once that many have passed, else the whole days elapsed so far (a
 * release 10 days old is compared over its 10 days, not over 28 days of which 18 count as zero).
 * Two rates of Poisson counts are compared by the exact conditional test (Przyborowski and Wilenski
 * 1940): given the category's {@code n = before + after} issues, {@code after} is binomial with
 * {@code p = daysAfter / (daysBefore + daysAfter)} when the rates are equal; two-sided p = twice
 * the smaller tail, at most 1. Bonferroni over the release's categories at {@code alpha}.
 */
final class ReleaseShifts {
  private static final Duration DAY = Duration.ofDays(1);

  private ReleaseShifts() {}

  /** One category around one release. */
  record Shift(
      String category,
      long before,
      long after,
      double beforePerWeek,
      double afterPerWeek,
      double pValue,
      double adjustedPValue,
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
   * @return every category with an issue in the periods compared, differing ones first, then by
   *     name; none when no whole day has passed since the release
   */
  static List<Shift> compare(
      Map<String, Long> before, Map<String, Long> after, Periods periods, double alpha) {
    if (periods.daysAfter() == 0) {
      return List.of();
    }
    Map<String, long[]> counts = new TreeMap<>();
    before.forEach((category, n) -> counts.computeIfAbsent(category, c -> new long[2])[0] += n);
    after.forEach((category, n) -> counts.computeIfAbsent(category, c -> new long[2])[1] += n);
    double daysBefore = periods.daysBefore();
    double daysAfter = periods.daysAfter();
    double share = daysAfter / (daysBefore + daysAfter);
    List<Shift> out = new ArrayList<>();
    for (Map.Entry<String, long[]> e : counts.entrySet()) {
      long b = e.getValue()[0];
      long a = e.getValue()[1];
      double p = pValue(a, b, share);
      double adjusted = Math.min(1, p * counts.size());
      out.add(
          new Shift(
              e.getKey(),
              b,
              a,
              7 * b / daysBefore,
              7 * a / daysAfter,
              p,
              adjusted,
              adjusted <= alpha));
    }
    out.sort((x, y) -> x.differs() == y.differs() ? 0 : x.differs() ? -1 : 1);
    return out;
  }

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
