package dev.faultline.dashboard;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The release view: for one release, the categories whose weekly rate in the weeks after it differs
 * from the weeks before it. Counted in whole weeks (Monday starts, as the trend query buckets
 * them): the {@code beforeWeeks} weeks before the release's week against the {@code afterWeeks}
 * weeks from it. Two rates of Poisson counts are compared by the exact conditional test
 * (Przyborowski and Wilenski 1940): given the category's {@code n = before + after} issues, {@code
 * after} is binomial with {@code p = afterWeeks / (beforeWeeks + afterWeeks)} when the rates are
 * equal; two-sided p = twice the smaller tail, at most 1. Bonferroni over the release's categories
 * at {@code alpha}.
 */
final class ReleaseShifts {
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
   * @param weekly issues per week start (Monday) and category, over at least the weeks compared
   * @param releaseWeek the Monday of the release's week
   * @return every category with an issue in the weeks compared, differing ones first, then by name
   */
  static List<Shift> compare(
      Map<LocalDate, Map<String, Long>> weekly,
      LocalDate releaseWeek,
      int beforeWeeks,
      int afterWeeks,
      double alpha) {
    Map<String, long[]> counts = new TreeMap<>();
    weekly.forEach(
        (week, byCategory) -> {
          long w = ChronoUnit.WEEKS.between(releaseWeek, week);
          int side = w < 0 && w >= -beforeWeeks ? 0 : w >= 0 && w < afterWeeks ? 1 : -1;
          if (side >= 0) {
            byCategory.forEach(
                (category, n) -> counts.computeIfAbsent(category, c -> new long[2])[side] += n);
          }
        });
    double share = afterWeeks / (double) (beforeWeeks + afterWeeks);
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
              b / (double) beforeWeeks,
              a / (double) afterWeeks,
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
