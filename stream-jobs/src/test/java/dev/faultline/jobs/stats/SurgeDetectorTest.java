package dev.faultline.jobs.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.stats.domain.PoissonTail;
import dev.faultline.jobs.stats.domain.SurgeDetector;
import org.junit.jupiter.api.Test;

class SurgeDetectorTest {
  private final SurgeDetector detector = new SurgeDetector(0.001, 5, 0.5);

  @Test
  void poissonTailMatchesKnownValues() {
    assertEquals(1.0, PoissonTail.atLeast(0, 3.0), 1e-12);
    assertEquals(1 - Math.exp(-2.0), PoissonTail.atLeast(1, 2.0), 1e-12);
    // P(X >= 10 | 2) = 4.65e-5 (R: ppois(9, 2, lower.tail = FALSE))
    assertEquals(4.6498e-5, PoissonTail.atLeast(10, 2.0), 1e-8);
    assertTrue(PoissonTail.atLeast(2000, 100.0) > 0 || PoissonTail.atLeast(2000, 100.0) == 0);
  }

  @Test
  void flagsACountFarAboveItsOwnBaseline() {
    // 12 in a week against 4 in the four weeks before: expected 1.0 per week.
    SurgeDetector.Verdict v = detector.test(12, 7, 4, 28);
    assertTrue(v.surge());
    assertEquals(1.0, v.expected(), 1e-9);
    assertTrue(v.score() > 3);
  }

  @Test
  void doesNotFlagABusyButSteadyCategory() {
    assertFalse(detector.test(30, 7, 110, 28).surge());
  }

  @Test
  void needsTheMinimumCountEvenFromNothing() {
    assertFalse(detector.test(4, 7, 0, 28).surge());
    assertTrue(detector.test(6, 7, 0, 28).surge());
  }

  @Test
  void rejectsASensitivityThatIsNotAProbability() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SurgeDetector(3, 5, 0.5));
    assertTrue(e.getMessage().contains("sensitivity"));
  }
}
