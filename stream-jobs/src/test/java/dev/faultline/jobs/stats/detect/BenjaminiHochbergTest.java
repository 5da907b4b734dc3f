package dev.faultline.jobs.stats.detect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BenjaminiHochbergTest {

  @Test
  void adjustsByRankAndKeepsTheInputOrder() {
    // sorted: 0.005, 0.01, 0.03, 0.04 -> m p / rank: 0.02, 0.02, 0.04, 0.04 (already monotone)
    assertArrayEquals(
        new double[] {0.02, 0.04, 0.04, 0.02},
        BenjaminiHochberg.adjust(new double[] {0.01, 0.04, 0.03, 0.005}),
        1e-12);
    // a large p-value early in the ranking is pulled down by a later, smaller m p / rank
    assertArrayEquals(
        new double[] {0.03, 0.03, 0.03},
        BenjaminiHochberg.adjust(new double[] {0.02, 0.03, 0.021}),
        1e-12);
    assertArrayEquals(new double[] {1.0}, BenjaminiHochberg.adjust(new double[] {1.0}), 0);
  }

  @Test
  void underTheGlobalNullAFamilyHasAnyRejectionAboutQOfTheTime() {
    // 4,000 families of 50 independent uniform p-values: P(any adjusted p <= q) = q exactly under
    // the global null.
    Random random = new Random(11);
    double q = 0.05;
    int families = 4000;
    int withRejection = 0;
    for (int f = 0; f < families; f++) {
      double[] p = new double[50];
      for (int i = 0; i < p.length; i++) {
        p[i] = random.nextDouble();
      }
      for (double a : BenjaminiHochberg.adjust(p)) {
        if (a <= q) {
          withRejection++;
          break;
        }
      }
    }
    double rate = withRejection / (double) families;
    double se = Math.sqrt(q * (1 - q) / families);
    assertTrue(Math.abs(rate - q) < 4 * se, "rate " + rate);
  }

  @Test
  void rejectsSomethingThatIsNotAProbability() {
    assertThrows(
        IllegalArgumentException.class,
        () -> BenjaminiHochberg.adjust(new double[] {0.1, Double.NaN}));
  }
}
