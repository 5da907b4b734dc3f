package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The headline's closing figures against hand-computed medians and shares. */
class HeadlineClosingTest {

  private static List<double[]> closed(double[]... daysAndWeight) {
    return new ArrayList<>(List.of(daysAndWeight));
  }

  @Test
  void theWeightedMedianIsTheFirstDayReachingHalfTheWeight() {
    // 0.2 + 0.2 + 0.9 = 1.3 of 4.0 at 3 days, 2.2 at 4 days: the median is 4
    assertEquals(
        4.0,
        HeadlineClosing.weightedMedian(
            closed(
                new double[] {1, 0.2},
                new double[] {2, 0.2},
                new double[] {3, 0.9},
                new double[] {4, 0.9},
                new double[] {10, 0.9},
                new double[] {30, 0.9})));
    // equal weights: the ordinary median, the mean of the middle two of an even count
    assertEquals(
        2.5,
        HeadlineClosing.weightedMedian(
            closed(
                new double[] {1, 1},
                new double[] {2, 1},
                new double[] {3, 1},
                new double[] {4, 1})));
    // the unsure long ones weigh less than the sure short ones
    assertEquals(
        2.0,
        HeadlineClosing.weightedMedian(
            closed(new double[] {2, 1}, new double[] {50, 0.3}, new double[] {60, 0.3})));
  }

  @Test
  void theMedianHasAnIntervalAroundItAndTooFewBugReportsGiveANote() {
    Map<String, Object> m =
        HeadlineClosing.median(
            closed(
                new double[] {1, 0.2},
                new double[] {2, 0.2},
                new double[] {3, 0.9},
                new double[] {4, 0.9},
                new double[] {10, 0.9},
                new double[] {30, 0.9}),
            false);
    assertEquals(4.0, m.get("estimate"));
    assertEquals(4.0, m.get("basis"));
    double low = (Double) m.get("low");
    double high = (Double) m.get("high");
    // the likeliest labelling (the four sure ones bug reports, the two unsure ones not) has the
    // median 7 (of 3, 4, 10, 30): the interval reaches it; one with an unsure short one drawn, 4
    assertTrue(low <= 4 && 7 <= high, m.toString());
    assertTrue(low >= 1 && high <= 30, m.toString());
    Map<String, Object> few =
        HeadlineClosing.median(closed(new double[] {1, 0.9}, new double[] {2, 0.9}), false);
    assertNull(few.get("estimate"));
    assertEquals("too few to estimate (≈ 1.8 in the base)", few.get("note"));
    // labels counted: the median of the counted ones, no interval
    Map<String, Object> counted =
        HeadlineClosing.median(
            closed(
                new double[] {1, 0},
                new double[] {4, 1},
                new double[] {10, 1},
                new double[] {30, 1}),
            true);
    assertEquals(10.0, counted.get("estimate"));
    assertNull(counted.get("low"));
  }

  @Test
  void theSmallFixShareWeighsEachChangeByTheChanceItFixesABugReport() {
    // {changed lines, P(no issue it fixes is a bug report)}: weights .9, .92, .9, .2, .9 (a change
    // fixing two issues of P(bug) .9 and .2 counts with 1 - .1 x .8); small (<= 10 lines): all but
    // the second
    List<double[]> changes =
        List.of(
            new double[] {8, 0.1},
            new double[] {50, 0.1 * 0.8},
            new double[] {3, 0.1},
            new double[] {2, 0.8},
            new double[] {8, 0.1});
    Map<String, Object> share = HeadlineClosing.smallFixShare(changes, 10, false);
    assertEquals(Math.round(2.9 / 3.82 * 1e4) / 1e4, share.get("estimate"));
    assertEquals(3.8, share.get("basis"));
    assertTrue((Double) share.get("low") < 0.7592 && 0.7592 < (Double) share.get("high"));
    Map<String, Object> tight = HeadlineClosing.smallFixShare(changes, 4, false);
    assertEquals(Math.round(1.1 / 3.82 * 1e4) / 1e4, tight.get("estimate"));
    Map<String, Object> few = HeadlineClosing.smallFixShare(changes.subList(0, 2), 10, false);
    assertNull(few.get("estimate"));
    assertTrue(String.valueOf(few.get("note")).startsWith("too few to estimate"));
  }
}
