package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PriorShiftTest {

  /** Three codes, a one-dimensional feature x | c ~ Normal(MEANS[c], 1). */
  static final double[] MEANS = {-2, 0, 2};

  static final double[] TRAINING = {0.5, 0.3, 0.2};

  /**
   * A scope drawn from {@code mix} by a generator that knows the truth: each item's code, then its
   * feature; {@code p} is the exact posterior under the training prior (a calibrated classifier).
   */
  record Scope(double[][] p, double[] realized) {}

  static Scope draw(SplittableRandom r, int n, double[] mix) {
    double[][] p = new double[n][];
    double[] count = new double[mix.length];
    for (int i = 0; i < n; i++) {
      double u = r.nextDouble();
      int c = 0;
      while (c < mix.length - 1 && u >= mix[c]) {
        u -= mix[c];
        c++;
      }
      count[c]++;
      double x = MEANS[c] + gaussian(r);
      double[] row = new double[mix.length];
      double sum = 0;
      for (int k = 0; k < mix.length; k++) {
        row[k] = TRAINING[k] * Math.exp(-0.5 * (x - MEANS[k]) * (x - MEANS[k]));
        sum += row[k];
      }
      for (int k = 0; k < mix.length; k++) {
        row[k] /= sum;
      }
      p[i] = row;
    }
    for (int k = 0; k < mix.length; k++) {
      count[k] /= n;
    }
    return new Scope(p, count);
  }

  static double gaussian(SplittableRandom r) {
    return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
  }

  static double[] mean(double[][] p) {
    double[] m = new double[p[0].length];
    for (double[] row : p) {
      for (int k = 0; k < m.length; k++) {
        m[k] += row[k] / p.length;
      }
    }
    return m;
  }

  static double tvd(double[] a, double[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d += Math.abs(a[k] - b[k]);
    }
    return d / 2;
  }

  @Test
  void undampedEmRecoversAShiftedMixThatPccMisses() {
    Scope s = draw(new SplittableRandom(31), 4000, new double[] {0.1, 0.3, 0.6});
    double pcc = tvd(mean(s.p()), s.realized());
    PriorShift.Result em = PriorShift.adjust(s.p(), TRAINING, 0, new boolean[s.p().length]);
    // PCC is pulled toward the training mix; the paper's EM finds the scope's own
    assertTrue(pcc > 0.08, "the scope is shifted: PCC is off by " + pcc);
    assertTrue(tvd(em.prior(), s.realized()) < 0.02, "EM prior " + tvd(em.prior(), s.realized()));
    assertTrue(tvd(mean(em.p()), s.realized()) < 0.02);
  }

  @Test
  void dampingLandsBetweenPccAndTheUndampedEstimate() {
    Scope s = draw(new SplittableRandom(7), 400, new double[] {0.15, 0.5, 0.35});
    double pcc = tvd(mean(s.p()), s.realized());
    double undamped =
        tvd(mean(PriorShift.adjust(s.p(), TRAINING, 0, new boolean[400]).p()), s.realized());
    double damped = tvd(mean(PriorShift.adjust(s.p(), TRAINING).p()), s.realized());
    assertTrue(undamped < damped && damped < pcc, undamped + " < " + damped + " < " + pcc);
  }

  @Test
  void withoutAShiftTheDampedCorrectionBarelyMoves() {
    Scope s = draw(new SplittableRandom(3), 400, TRAINING);
    assertTrue(tvd(mean(PriorShift.adjust(s.p(), TRAINING).p()), mean(s.p())) < 0.02);
  }

  @Test
  void oneItemByHand() {
    // pi1 = (q1 + 0.5) / 2 with q1 = 0.8 pi1 / (0.8 pi1 + 0.2 (1 - pi1)):
    // 1.2 pi1^2 - 0.7 pi1 - 0.1 = 0, pi1 = (0.7 + sqrt(0.97)) / 2.4
    double[][] p = {{0.8, 0.2}};
    PriorShift.Result r = PriorShift.adjust(p, new double[] {0.5, 0.5}, 1, new boolean[1]);
    double pi1 = (0.7 + Math.sqrt(0.97)) / 2.4;
    assertEquals(pi1, r.prior()[0], 1e-8);
    assertEquals(0.8 * pi1 / (0.8 * pi1 + 0.2 * (1 - pi1)), r.p()[0][0], 1e-8);
    // undamped, one item's EM runs to the corner
    assertEquals(
        1, PriorShift.adjust(p, new double[] {0.5, 0.5}, 0, new boolean[1]).prior()[0], 1e-6);
  }

  @Test
  void fixedItemsKeepTheirDistributionAndStillCount() {
    double[][] p = {{0.9, 0.1}, {0.6, 0.4}};
    PriorShift.Result r =
        PriorShift.adjust(p, new double[] {0.5, 0.5}, 1, new boolean[] {true, false});
    assertArrayEquals(p[0], r.p()[0], 0);
    // pi1 = (0.9 + q + 1) / 4 with q the second item's re-weighted share of code 0
    double q = r.p()[1][0];
    assertEquals((0.9 + q + 1) / 4, r.prior()[0], 1e-9);
    assertTrue(q > 0.6, "the fixed item pulls the mix toward code 0: " + q);
  }

  @Test
  void aLargeStrengthIsPcc() {
    Scope s = draw(new SplittableRandom(5), 200, new double[] {0.1, 0.3, 0.6});
    PriorShift.Result r = PriorShift.adjust(s.p(), TRAINING, 1e7, new boolean[200]);
    for (int i = 0; i < 200; i++) {
      assertArrayEquals(s.p()[i], r.p()[i], 1e-6);
    }
  }

  @Test
  void aCodeTheTrainingNeverSawIsLeftAlone() {
    double[][] p = {{0.7, 0.2, 0.1}, {0.2, 0.7, 0.1}};
    PriorShift.Result r = PriorShift.adjust(p, new double[] {0.5, 0.5, 0}, 0.5, new boolean[2]);
    // its mass is not re-weighted (no ratio to take) but still counts in the scope's mix
    assertEquals((r.p()[0][2] + r.p()[1][2]) / (2 + 1), r.prior()[2], 1e-9);
    for (double[] row : r.p()) {
      assertEquals(1, row[0] + row[1] + row[2], 1e-12);
    }
  }

  @Test
  void theGate() {
    assertFalse(PriorShift.applies(79.9));
    assertTrue(PriorShift.applies(PriorShift.MIN_EXPECTED));
  }

  @Test
  void badInputIsNamed() {
    double[] prior = {0.5, 0.5};
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    PriorShift.adjust(
                        new double[][] {{0.5, 0.5}}, new double[] {0.5, 0.4}, 1, new boolean[1]))
            .getMessage()
            .contains("training prior"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> PriorShift.adjust(new double[][] {{1.0}}, prior, 1, new boolean[1]))
            .getMessage()
            .contains("item 0"));
    assertThrows(
        IllegalArgumentException.class,
        () -> PriorShift.adjust(new double[][] {{0.5, 0.5}}, prior, -1, new boolean[1]));
    assertThrows(
        IllegalArgumentException.class,
        () -> PriorShift.adjust(new double[][] {{0.5, 0.5}}, prior, 1, new boolean[2]));
  }
}
