package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClassifyAndCountTest {

  static final Codes ABU = Codes.of(List.of("A", "B", "UNKNOWN"));

  @Test
  void expectedCountsAndSharesByHand() {
    double[][] p = {{0.5, 0.5, 0}, {1, 0, 0}, {0.2, 0.3, 0.5}};
    List<Estimate> e = ClassifyAndCount.estimate(ABU, p);
    Estimate a = e.get(0);
    Estimate b = e.get(1);
    Estimate u = e.get(2);
    assertEquals(1.7, a.count(), 1e-12);
    assertEquals(0.8, b.count(), 1e-12);
    assertEquals(0.5, u.count(), 1e-12);
    // shares among the known codes A and B: 1.7 / 2.5 and 0.8 / 2.5; UNKNOWN has none
    assertEquals(0.68, a.share(), 1e-12);
    assertEquals(0.32, b.share(), 1e-12);
    assertTrue(Double.isNaN(u.share()));
    // A's count is 1 + Bernoulli(0.5) + Bernoulli(0.2): 90% interval [1, 3] (see
    // PoissonBinomialTest)
    assertEquals(1, a.countLow());
    assertEquals(3, a.countHigh());
    // B's: Bernoulli(0.5) + Bernoulli(0.3): P(0) = 0.35, P(2) = 0.15 -> [0, 2]
    assertEquals(0, b.countLow());
    assertEquals(2, b.countHigh());
    assertEquals("pcc", a.method());
    assertEquals(0, a.sampleSize());
    assertEquals(3, a.items());
    assertTrue(a.shareLow() <= a.share() && a.share() <= a.shareHigh());
  }

  @Test
  void sameInputSameIntervals() {
    double[][] p = randomScope(new SplittableRandom(5), 150, false).p;
    assertEquals(ClassifyAndCount.estimate(ABU, p), ClassifyAndCount.estimate(ABU, p));
  }

  @Test
  void aPointMassAddsNoUncertainty() {
    double[][] p = {{1, 0, 0}, {0, 1, 0}, {1, 0, 0}};
    Estimate a = ClassifyAndCount.estimate(ABU, p).get(0);
    assertEquals(2, a.countLow());
    assertEquals(2, a.countHigh());
    assertEquals(2 / 3.0, a.shareLow(), 1e-12);
    assertEquals(2 / 3.0, a.shareHigh(), 1e-12);
  }

  @Test
  void badInputIsNamed() {
    IllegalArgumentException sum =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClassifyAndCount.estimate(ABU, new double[][] {{1, 0, 0}, {0.5, 0.3, 0}}));
    assertTrue(sum.getMessage().startsWith("item 1: probabilities sum to 0.8"), sum.getMessage());
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClassifyAndCount.estimate(ABU, new double[][] {{1.2, -0.2, 0}}));
    assertTrue(
        negative.getMessage().contains("item 0: probability of A is 1.2"), negative.getMessage());
    IllegalArgumentException width =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClassifyAndCount.estimate(ABU, new double[][] {{1, 0}}));
    assertTrue(width.getMessage().startsWith("item 0: 2 probabilities for 3 codes"));
    IllegalArgumentException nan =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClassifyAndCount.estimate(ABU, new double[][] {{Double.NaN, 0.5, 0.5}}));
    assertTrue(nan.getMessage().contains("probability of A is NaN"));
  }

  /**
   * When each item's label really is drawn from its probabilities (calibrated, independent), the
   * count and share intervals hold their 90%; the test fails if they are made narrower (e.g. an 80%
   * interval) or absurdly wide.
   */
  @Test
  void intervalsCoverTheTruthWhenTheProbabilitiesAreCalibrated() {
    SplittableRandom r = new SplittableRandom(20261127L);
    int trials = 300;
    int[] countHits = new int[2];
    int[] shareHits = new int[2];
    for (int t = 0; t < trials; t++) {
      Scope s = randomScope(r, 120, true);
      List<Estimate> e = ClassifyAndCount.estimate(ABU, s.p, 0.9, t);
      int known = s.truth[0] + s.truth[1];
      for (int k = 0; k < 2; k++) {
        Estimate x = e.get(k);
        if (s.truth[k] >= x.countLow() && s.truth[k] <= x.countHigh()) {
          countHits[k]++;
        }
        if (x.shareCovers(s.truth[k] / (double) known)) {
          shareHits[k]++;
        }
      }
    }
    for (int k = 0; k < 2; k++) {
      double count = countHits[k] / (double) trials;
      double share = shareHits[k] / (double) trials;
      assertTrue(count >= 0.86 && count <= 0.98, "count coverage of code " + k + ": " + count);
      assertTrue(share >= 0.86 && share <= 0.98, "share coverage of code " + k + ": " + share);
    }
  }

  record Scope(double[][] p, int[] truth) {}

  /**
   * A scope whose items have random distributions over A (common), B (rarer) and UNKNOWN; with
   * {@code drawTruth}, each true label drawn from its item's distribution by this test's own
   * sampler ({@link #pick}), not by the code under test.
   */
  static Scope randomScope(SplittableRandom r, int n, boolean drawTruth) {
    double[][] p = new double[n][];
    int[] truth = new int[3];
    for (int i = 0; i < n; i++) {
      double a = r.nextDouble() * 3;
      double b = r.nextDouble();
      double u = r.nextDouble() * 0.5;
      double sum = a + b + u;
      p[i] = new double[] {a / sum, b / sum, u / sum};
      if (drawTruth) {
        truth[pick(p[i], r.nextDouble())]++;
      }
    }
    return new Scope(p, truth);
  }

  /** The index whose cumulative probability first exceeds u (the test's own inverse-CDF draw). */
  static int pick(double[] p, double u) {
    double c = 0;
    for (int k = 0; k < p.length; k++) {
      c += p[k];
      if (u < c) {
        return k;
      }
    }
    return p.length - 1;
  }
}
