package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class PoissonBinomialTest {

  @Test
  void smallCaseByHand() {
    // 1 + Bernoulli(0.5) + Bernoulli(0.2): P(1) = 0.5 * 0.8, P(2) = 0.5 * 0.8 + 0.5 * 0.2, P(3) =
    // 0.5 * 0.2; a trial at 0 changes nothing
    PoissonBinomial d = PoissonBinomial.of(new double[] {0.5, 1.0, 0.2, 0.0});
    assertEquals(0.0, d.pmf(0), 1e-15);
    assertEquals(0.4, d.pmf(1), 1e-15);
    assertEquals(0.5, d.pmf(2), 1e-15);
    assertEquals(0.1, d.pmf(3), 1e-15);
    assertEquals(0.0, d.pmf(4), 1e-15);
    // 5% quantile: P(X <= 1) = 0.4 >= 0.05; 95%: P(X <= 2) = 0.9 < 0.95, P(X <= 3) = 1
    assertArrayEquals(new int[] {1, 3}, d.interval(0.9));
    assertArrayEquals(new int[] {2, 2}, d.interval(0.0001));
  }

  @Test
  void equalProbabilitiesGiveTheBinomial() {
    double[] p = new double[200];
    Arrays.fill(p, 0.13);
    PoissonBinomial d = PoissonBinomial.of(p);
    BinomialDistribution b = new BinomialDistribution(200, 0.13);
    for (int k = 0; k <= 200; k++) {
      assertEquals(b.probability(k), d.pmf(k), 1e-12, "k=" + k);
    }
    assertEquals(b.inverseCumulativeProbability(0.05), d.quantile(0.05));
    assertEquals(b.inverseCumulativeProbability(0.95), d.quantile(0.95));
  }

  @Test
  void refusesAProbabilityOutsideZeroOne() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PoissonBinomial.of(new double[] {0.3, -0.1}));
    assertEquals("probability -0.1 is not in [0, 1]", e.getMessage());
  }
}
