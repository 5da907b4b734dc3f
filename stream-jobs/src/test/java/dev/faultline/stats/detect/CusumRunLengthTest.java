package dev.faultline.stats.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CusumRunLengthTest {

  /** Days until the CUSUM built on share p0 first reaches h, the days drawn with share p. */
  private static int runLength(double v, double p0, double p, double rise, double h, Random r) {
    double s = 0;
    for (int day = 1; ; day++) {
      int x = AlertModelTest.poisson(v * p, r);
      int y = AlertModelTest.poisson(v * (1 - p), r);
      s = Math.max(0, s + CusumRunLength.increment(x, x + y, p0, rise));
      if (s >= h) {
        return day;
      }
    }
  }

  @Test
  void theMarkovChainsRunLengthAgreesWithSimulatedCusums() {
    Random r = new Random(11);
    for (double[] c : new double[][] {{6, 0.1, 4}, {2, 0.05, 3}, {10, 0.3, 5}}) {
      double v = c[0];
      double p0 = c[1];
      double h = c[2];
      int runs = 2_000;
      double sum = 0;
      for (int i = 0; i < runs; i++) {
        sum += runLength(v, p0, p0, 3, h, r);
      }
      double simulated = sum / runs;
      double chain = Math.exp(CusumRunLength.lnArl(v, p0, 0, 3, h));
      // the run lengths are about exponential: the mean of 2,000 is within ±7% (3 standard errors)
      // the chain puts shares on a 5% grid and the statistic on 64 states
      assertEquals(1, chain / simulated, 0.15, "v " + v + ", p0 " + p0 + ", h " + h);
    }
  }

  @Test
  void aRiseShortensTheRunsAndTheThresholdInvertsTheRunLength() {
    Random r = new Random(12);
    double h = CusumRunLength.threshold(6, 0.1, 0, 3, 5_000);
    assertEquals(Math.log(5_000), CusumRunLength.lnArl(6, 0.1, 0, 3, h), 1e-6);
    double sum = 0;
    for (int i = 0; i < 500; i++) {
      sum += runLength(6, 0.1, CusumRunLength.shareAfter(0.1, 3), 3, h, r);
    }
    // a threefold rate of a category with 0.6 issues a day is found in days, not years
    assertTrue(sum / 500 < 14, "mean delay " + sum / 500 + " days at threshold " + h);
  }

  @Test
  void anUncertainShareRaisesTheThreshold() {
    double known = CusumRunLength.threshold(6, 0.1, 0, 3, 5_000);
    double fromFewIssues = CusumRunLength.threshold(6, 0.1, 0.03, 3, 5_000);
    assertTrue(fromFewIssues > known + 0.3, known + " vs " + fromFewIssues);
    assertThrows(IllegalArgumentException.class, () -> CusumRunLength.lnArl(6, 0, 0, 3, 4));
    assertThrows(IllegalArgumentException.class, () -> CusumRunLength.lnArl(6, 0.1, 0, 1, 4));
  }
}
