package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The release view's comparison against hand-computed binomial tails. */
class ReleaseShiftsTest {
  private static final LocalDate RELEASE_WEEK = LocalDate.parse("2024-05-06"); // a Monday

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
  void onlyTheWeeksAroundTheReleaseCountAndACategoryThatRoseDiffers() {
    Map<LocalDate, Map<String, Long>> weekly =
        Map.of(
            RELEASE_WEEK.minusWeeks(9),
            Map.of("HANG", 50L), // before the 8 weeks: not counted
            RELEASE_WEEK.minusWeeks(8),
            Map.of("HANG", 1L, "OUT_OF_MEMORY", 1L),
            RELEASE_WEEK.minusWeeks(1),
            Map.of("HANG", 1L, "OUT_OF_MEMORY", 1L),
            RELEASE_WEEK,
            Map.of("OUT_OF_MEMORY", 5L),
            RELEASE_WEEK.plusWeeks(3),
            Map.of("OUT_OF_MEMORY", 5L),
            RELEASE_WEEK.plusWeeks(4),
            Map.of("HANG", 50L)); // after the 4 weeks: not counted
    List<ReleaseShifts.Shift> shifts = ReleaseShifts.compare(weekly, RELEASE_WEEK, 8, 4, 0.05);
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
}
