package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScopeEstimatesTest {

  static final Codes AB = Codes.of(List.of("A", "B", "UNKNOWN"));
  static final double[][] P = {{0.7, 0.2, 0.1}, {0.1, 0.8, 0.1}, {0.5, 0.5, 0}, {0.2, 0.2, 0.6}};

  @Test
  void withoutASampleItIsClassifyAndCount() {
    Estimate a = ScopeEstimates.estimate(AB, P, null).get(0);
    assertEquals("pcc", a.method());
    assertEquals(1.5, a.count(), 1e-12);
    assertEquals(0, a.sampleSize());
  }

  @Test
  void withASampleItIsPpiWithTheCorrectedScoreInterval() {
    Estimate a = ScopeEstimates.estimate(AB, P, new int[] {0, -1, 1, -1}).get(0);
    assertEquals("ppi/score_cc", a.method());
    assertEquals(2, a.sampleSize());
    // mean f(A) = 1.5 / 4, rectifier mean((1 - 0.7), (0 - 0.5)) = -0.1: 4 * (0.375 - 0.1)
    assertEquals(1.1, a.count(), 1e-12);
  }
}
