package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Weighted quantiles by Hazen's midpoint rule, against values worked out by hand. */
class QuantilesTest {
  private static double q(double[] v, double[] w, double q) {
    return Quantiles.weighted(v, w, q);
  }

  @Test
  void equalWeightsGiveHazensQuantiles() {
    double[] v = {4, 1, 3, 2};
    double[] w = {1, 1, 1, 1};
    // positions 1/8, 3/8, 5/8, 7/8 of 1, 2, 3, 4
    assertEquals(2.5, q(v, w, 0.5), 1e-12);
    assertEquals(1.0, q(v, w, 0.1), 1e-12, "below the first position: the first value");
    assertEquals(4.0, q(v, w, 0.9), 1e-12, "beyond the last position: the last value");
    assertEquals(1.5, q(v, w, 0.25), 1e-12);
  }

  @Test
  void aHeavierValuePullsTheQuantileTowardsIt() {
    // 0 at 1/8, 10 at (1 + 1.5) / 4 = 5/8: the median 10 x (.5 - .125) / .5
    assertEquals(7.5, q(new double[] {0, 10}, new double[] {1, 3}, 0.5), 1e-12);
    assertEquals(2.5, q(new double[] {0, 10}, new double[] {3, 1}, 0.5), 1e-12);
  }

  @Test
  void itemsOfNoWeightOrNoValueAreLeftOut() {
    assertEquals(5.0, q(new double[] {5, 100, Double.NaN}, new double[] {1, 0, 1}, 0.5), 1e-12);
    assertTrue(Double.isNaN(q(new double[] {5}, new double[] {0}, 0.5)));
    assertTrue(Double.isNaN(q(new double[] {}, new double[] {}, 0.5)));
  }

  @Test
  void theOptionNamesColumnAndQuantile() {
    assertEquals(
        List.of(
            new Quantiles.Spec("medianLines", "lines", 0.5),
            new Quantiles.Spec("p90", "lines", 0.9)),
        Quantiles.parse("medianLines=lines@0.5, p90=lines@0.9"));
    assertThrows(IllegalArgumentException.class, () -> Quantiles.parse("medianLines=lines"));
    assertThrows(IllegalArgumentException.class, () -> Quantiles.parse("m=lines@1.5"));
  }
}
