package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The release view's comparison against hand-computed binomial tails, over the days elapsed for a
 * young release.
 */
class ReleaseShiftsTest {
  private static final Instant RELEASE = Instant.parse("2024-05-09T15:00:00Z");

  @Test
  void pValueIsTwiceTheSmallerBinomialTail() {
    // 6 of 6 issues in the 4 weeks after, against 8 before: P(X = 6 | n = 6, p = 1/3) = 1/729
    assertEquals(2.0 / 729, ReleaseShifts.pValue(6, 0, 1.0 / 3), 1e-12);
    // 0 of 4 after: P(X = 0 | n = 4, p = 1/3) = (2/3)^4 = 16/81
    assertEquals(32.0 / 81, ReleaseShifts.pValue(0, 4, 1.0 / 3), 1e-12);
    // as many as the weeks make expected: no evidence
    assertEquals(1.0, ReleaseShifts.pValue(1, 2, 1.0 / 3), 1e-12);
    assertEquals(1.0, ReleaseShifts.pValue(0, 0, 1.0 / 3), 1e-12);
  }

  @Test
  void aCategoryThatRoseDiffersAndRatesAreCountsPerWeekOfTheirPeriods() {
    ReleaseShifts.Periods full =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(90)), 56, 28);
    List<ReleaseShifts.Shift> shifts =
        ReleaseShifts.compare(
            Map.of("HANG", exact(2), "OUT_OF_MEMORY", exact(2)),
            Map.of("OUT_OF_MEMORY", exact(10)),
            full,
            0.05);
    assertEquals(List.of("OUT_OF_MEMORY", "HANG"), shifts.stream().map(s -> s.category()).toList());
    ReleaseShifts.Shift oom = shifts.get(0);
    assertEquals(2, oom.before());
    assertEquals(10, oom.after());
    assertEquals(0.25, oom.beforePerWeek(), 1e-12);
    assertEquals(2.5, oom.afterPerWeek(), 1e-12);
    // P(X >= 10 | n = 12, p = 1/3) = sum_{k=10..12} C(12,k) (1/3)^k (2/3)^(12-k) = 289/531441
    assertEquals(2 * 289.0 / 531441, oom.pValue(), 1e-12);
    assertEquals(Math.min(1, 2 * oom.pValue()), oom.adjustedPValue(), 1e-12);
    assertTrue(oom.differs());
    ReleaseShifts.Shift hang = shifts.get(1);
    assertEquals(2, hang.before());
    assertEquals(0, hang.after());
    assertFalse(hang.differs());
  }

  @Test
  void aReleaseTenDaysOldIsComparedOverItsTenDays() {
    ReleaseShifts.Periods young =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(10).plusHours(5)), 56, 28);
    assertEquals(10, young.daysAfter());
    assertEquals(RELEASE.plus(Duration.ofDays(10)), young.to());
    assertEquals(RELEASE.minus(Duration.ofDays(56)), young.from());
    assertFalse(young.complete());
    assertEquals("10 days so far", young.soFar());
    ReleaseShifts.Shift oom =
        ReleaseShifts.compare(
                Map.of("OUT_OF_MEMORY", exact(4)), Map.of("OUT_OF_MEMORY", exact(2)), young, 0.05)
            .get(0);
    // 2 in 10 days is 1.4 a week, as 4 in 56 days is 0.5: not 2 in 28 days (0.5 a week)
    assertEquals(1.4, oom.afterPerWeek(), 1e-12);
    assertEquals(0.5, oom.beforePerWeek(), 1e-12);
    // 2 of 6 after, P = 10/66 per issue: twice the upper tail
    double q = 10 / 66.0;
    double upper = 0;
    for (int k = 2; k <= 6; k++) {
      upper += binomial(6, k) * Math.pow(q, k) * Math.pow(1 - q, 6 - k);
    }
    assertEquals(Math.min(1, 2 * upper), oom.pValue(), 1e-12);
    ReleaseShifts.Periods full =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(40)), 56, 28);
    assertEquals(28, full.daysAfter());
    assertTrue(full.complete());
    assertNull(full.soFar());
    ReleaseShifts.Periods today = ReleaseShifts.periods(RELEASE, RELEASE.plusSeconds(60), 56, 28);
    assertEquals(
        List.of(),
        ReleaseShifts.compare(Map.of("HANG", exact(3)), Map.of("HANG", exact(1)), today, 0.05));
  }

  @Test
  void aSteadyCategoryTenDaysAfterAReleaseHasNotDropped() {
    // one HANG a day throughout: 56 in the 56 days before, 10 in the 10 days since the release
    ReleaseShifts.Periods young =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(10).plusHours(5)), 56, 28);
    Map<String, ReleaseShifts.Count> before = Map.of("HANG", exact(56));
    Map<String, ReleaseShifts.Count> after = Map.of("HANG", exact(10));
    ReleaseShifts.Shift hang = ReleaseShifts.compare(before, after, young, 0.05).get(0);
    assertEquals(7.0, hang.beforePerWeek(), 1e-12);
    assertEquals(7.0, hang.afterPerWeek(), 1e-12);
    // 10 of 66 after at P = 10/66 per issue: the mean, both tails above 1/2
    assertEquals(1.0, hang.pValue(), 1e-12);
    assertFalse(hang.differs(), hang.toString());
    // Read over the full 28 days, as before #32, the same counts are a false "rate dropped": 10 of
    // 66 at P = 1/3 has a lower tail of 7.4e-4 (two-sided 0.0015)
    ReleaseShifts.Periods asIfFull =
        new ReleaseShifts.Periods(
            young.from(), young.release(), RELEASE.plus(Duration.ofDays(28)), 56, 28, true);
    ReleaseShifts.Shift misread = ReleaseShifts.compare(before, after, asIfFull, 0.05).get(0);
    assertEquals(2.5, misread.afterPerWeek(), 1e-12);
    assertTrue(misread.differs(), misread.toString());
    assertEquals(0.0014737, misread.pValue(), 1e-7);
  }

  @Test
  void expectedCountsAreComparedByTheScoreTestWithTheirVariancesAdded() {
    ReleaseShifts.Periods full =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(90)), 56, 28);
    // 8 expected before (variance 4), 10 after (variance 2): pooled rate 18/84 a day, so the
    // variance of the difference of daily rates is 18/84 (1/28 + 1/56) + 2/28² + 4/56² = 3/196,
    // the difference 10/28 - 8/56 = 3/14, z = (3/14) / sqrt(3/196) = sqrt(3)
    ReleaseShifts.Shift oom =
        ReleaseShifts.compare(
                Map.of("OUT_OF_MEMORY", new ReleaseShifts.Count(8, 4)),
                Map.of("OUT_OF_MEMORY", new ReleaseShifts.Count(10, 2)),
                full,
                0.05)
            .get(0);
    assertEquals("score", oom.test());
    assertEquals(2 * (1 - PHI_SQRT3), oom.pValue(), 1e-6);
    assertEquals(8.0, oom.before(), 1e-12);
    assertEquals(2.5, oom.afterPerWeek(), 1e-12);
    assertFalse(oom.differs(), oom.toString());
    // the same expectations without classification variance: z = (3/14) / sqrt(18/84 * 3/56) = 2
    ReleaseShifts.Shift certain =
        ReleaseShifts.compare(
                Map.of("OUT_OF_MEMORY", new ReleaseShifts.Count(8, 0)),
                Map.of("OUT_OF_MEMORY", new ReleaseShifts.Count(10.0000001, 0)),
                full,
                0.05)
            .get(0);
    assertEquals("score", certain.test());
    assertEquals(2 * (1 - PHI_2), certain.pValue(), 1e-6);
    assertTrue(certain.differs(), certain.toString());
  }

  @Test
  void categoriesWithLessThanHalfAnIssueExpectedAreNotTestedNorCountedInBonferroni() {
    ReleaseShifts.Periods full =
        ReleaseShifts.periods(RELEASE, RELEASE.plus(Duration.ofDays(90)), 56, 28);
    List<ReleaseShifts.Shift> shifts =
        ReleaseShifts.compare(
            Map.of("HANG", exact(2), "CRASH", new ReleaseShifts.Count(0.2, 0.16)),
            Map.of("HANG", exact(0), "CRASH", new ReleaseShifts.Count(0.2, 0.16)),
            full,
            0.05);
    assertEquals(List.of("HANG"), shifts.stream().map(ReleaseShifts.Shift::category).toList());
    // one category tested: the adjusted p is the p (0 of 2 after at P = 1/3: 2 (2/3)^2)
    assertEquals(8.0 / 9, shifts.get(0).adjustedPValue(), 1e-12);
    assertEquals("exact", shifts.get(0).test());
  }

  @Test
  void anIntervalIsReadAsTheVarianceOfANormalOne() {
    ReleaseShifts.Count c =
        ReleaseShifts.Count.of(10, 10 - 2 * ReleaseShifts.Z90, 10 + 2 * ReleaseShifts.Z90);
    assertEquals(4.0, c.variance(), 1e-12);
    assertEquals(0.0, ReleaseShifts.Count.of(3, null, null).variance());
    assertTrue(ReleaseShifts.Count.of(3, null, null).isExact());
    assertFalse(c.isExact());
    assertEquals(13.0, c.plus(ReleaseShifts.Count.exact(3)).expected(), 1e-12);
    assertEquals(4.0, c.plus(ReleaseShifts.Count.exact(3)).variance(), 1e-12);
  }

  /** Φ(√3) and Φ(2), the standard normal's distribution function. */
  private static final double PHI_SQRT3 = 0.9583677416682248;

  private static final double PHI_2 = 0.9772498680518208;

  private static ReleaseShifts.Count exact(long n) {
    return ReleaseShifts.Count.exact(n);
  }

  private static double binomial(int n, int k) {
    double c = 1;
    for (int i = 1; i <= k; i++) {
      c = c * (n - k + i) / i;
    }
    return c;
  }
}
