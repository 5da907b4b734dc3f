package dev.faultline.stats.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CountTailsTest {

  @Test
  void poissonTailMatchesKnownValues() {
    assertEquals(1.0, PoissonTail.atLeast(0, 3.0), 1e-12);
    assertEquals(1 - Math.exp(-2.0), PoissonTail.atLeast(1, 2.0), 1e-12);
    // P(X >= 10 | 2) = 4.65e-5 (R: ppois(9, 2, lower.tail = FALSE))
    assertEquals(4.6498e-5, PoissonTail.atLeast(10, 2.0), 1e-8);
  }

  @Test
  void poissonTailKeepsItsPrecisionFarOutAndUnderflowsToZeroNotToNaN() {
    // An independent sum of the upper terms in log space: P(X >= 200 | 100), about 1e-19.
    double direct = 0;
    for (int k = 200; k < 600; k++) {
      direct += Math.exp(k * Math.log(100) - 100 - logFactorial(k));
    }
    double p = PoissonTail.atLeast(200, 100.0);
    assertTrue(direct > 1e-25 && direct < 1e-15, "reference " + direct);
    assertEquals(1.0, p / direct, 1e-9);
    double far = PoissonTail.atLeast(2000, 100.0); // about e^-4000: below the smallest double
    assertTrue(far >= 0 && far < 1e-300, "far tail " + far);
  }

  @Test
  void negativeBinomialTailEqualsTheSumOfItsProbabilities() {
    for (double[] c :
        new double[][] {{3.0, 0.5, 7}, {0.2, 2.0, 3}, {12.0, 0.05, 25}, {1.0, 1.0, 1}}) {
      double mean = c[0];
      double theta = c[1];
      int k = (int) c[2];
      double r = 1 / theta;
      double q = mean / (r + mean);
      double term = Math.pow(1 - q, r); // P(X = 0)
      double below = 0;
      for (int j = 0; j < k; j++) {
        below += term;
        term *= (j + r) / (j + 1) * q;
      }
      assertEquals(
          1 - below,
          CountTails.atLeast(k, mean, theta),
          1e-10,
          "mean " + mean + " theta " + theta + " k " + k);
    }
  }

  @Test
  void negativeBinomialTailIsHeavierThanPoissonAndTendsToIt() {
    // P(X >= 10 | Poisson 2) summed here term by term, not by the code under test: about 4.65e-5
    double poisson = 0;
    double term = Math.exp(-2.0);
    for (int j = 0; j < 200; j++) {
      if (j >= 10) {
        poisson += term;
      }
      term *= 2.0 / (j + 1);
    }
    assertEquals(4.6498e-5, poisson, 1e-9);
    assertEquals(poisson, CountTails.atLeast(10, 2.0, 0), poisson * 1e-12);
    assertEquals(poisson, CountTails.atLeast(10, 2.0, 1e-7), poisson * 1e-4);
    assertTrue(CountTails.atLeast(10, 2.0, 0.5) > 100 * poisson);
  }

  @Test
  void rejectsANonPositiveMeanAndANegativeDispersion() {
    assertThrows(IllegalArgumentException.class, () -> CountTails.atLeast(3, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> CountTails.atLeast(3, 1, -0.1));
  }

  private static double logFactorial(int n) {
    double s = 0;
    for (int i = 2; i <= n; i++) {
      s += Math.log(i);
    }
    return s;
  }
}
