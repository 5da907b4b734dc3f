package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /** The approximation's interval against the exact one on large scopes of uneven probabilities. */
  @Test
  void approximateIntervalMatchesTheExactOneWithinACount() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(5);
    for (int trial = 0; trial < 20; trial++) {
      int n = 2000 + r.nextInt(8000);
      double[] p = new double[n];
      double skew = 0.2 + 3 * r.nextDouble(); // from many likely trials to mostly unlikely ones
      double var = 0;
      for (int i = 0; i < n; i++) {
        p[i] = Math.pow(r.nextDouble(), skew);
        var += p[i] * (1 - p[i]);
      }
      assertTrue(Math.sqrt(var) >= PoissonBinomial.APPROXIMATE_FROM_SD, "approximated");
      int[] exact = PoissonBinomial.of(p).interval(0.9);
      int[] approx = PoissonBinomial.interval(p, 0.9);
      assertTrue(
          Math.abs(exact[0] - approx[0]) <= 1,
          java.util.Arrays.toString(exact) + " vs " + java.util.Arrays.toString(approx));
      assertTrue(
          Math.abs(exact[1] - approx[1]) <= 1,
          java.util.Arrays.toString(exact) + " vs " + java.util.Arrays.toString(approx));
    }
  }

  @Test
  void smallScopesStayExact() {
    double[] p = {0.1, 0.5, 0.9, 0.3};
    assertArrayEquals(PoissonBinomial.of(p).interval(0.9), PoissonBinomial.interval(p, 0.9));
  }

  /**
   * Below the approximation's threshold the interval stops the recursion at a bound on its upper
   * end: on scopes of rare cells (the paths query's), uneven ones, ones with sure trials and tiny
   * ones it must be the full distribution's interval, at 90% and at other levels.
   */
  @Test
  void theCappedRecursionGivesTheFullDistributionsInterval() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    int checked = 0;
    for (int trial = 0; trial < 400; trial++) {
      int n = 1 + r.nextInt(trial % 4 == 0 ? 6 : 3000);
      double scale = Math.pow(10, -4 * r.nextDouble()); // mean from about n down to n / 10,000
      double[] p = new double[n];
      for (int i = 0; i < n; i++) {
        double u = r.nextDouble();
        p[i] = u < 0.02 ? 1 : u < 0.05 ? 0 : scale * Math.pow(r.nextDouble(), 1 + 2 * u);
      }
      double var = 0;
      for (double q : p) {
        var += q * (1 - q);
      }
      if (Math.sqrt(var) >= PoissonBinomial.APPROXIMATE_FROM_SD) {
        continue;
      }
      for (double level : new double[] {0.9, 0.5, 0.99}) {
        assertArrayEquals(
            PoissonBinomial.of(p).interval(level),
            PoissonBinomial.interval(p, level),
            "n=" + n + " scale=" + scale + " level=" + level);
      }
      checked++;
    }
    assertTrue(checked > 300, checked + " scopes checked");
  }

  /**
   * Small cells (a trend's month × symptom): months of 4 to 15 bug reports, each report's
   * probabilities over 15 symptoms sharp (weights u⁸, as a classifier's are) and times a P(bug) of
   * .6 to 1, its symptom drawn by this test from those same probabilities. The 90% interval then
   * holds the realised count in at least 90% of the cells of each band of the expected count, yet
   * in well under 90% of the cells whose realised count is 3 or more: that band selects the cells
   * whose count came out above its expectation. So a coverage figure by band of the true count (the
   * product-path benchmark's trend table) is not a test of the intervals; by band of the estimate
   * it is.
   */
  @Test
  void smallCellsAreCoveredByBandOfTheExpectedCountNotOfTheRealisedOne() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    int codes = 15;
    long[] hits = new long[2];
    long[] cells = new long[2];
    long hitsThreeOrMore = 0;
    long threeOrMore = 0;
    for (int month = 0; month < 3000; month++) {
      int n = 4 + r.nextInt(12);
      double[][] p = new double[codes][n];
      int[] count = new int[codes];
      for (int i = 0; i < n; i++) {
        double[] w = new double[codes];
        double sum = 0;
        for (int c = 0; c < codes; c++) {
          w[c] = Math.pow(r.nextDouble(), 8);
          sum += w[c];
        }
        double bug = 0.6 + 0.4 * r.nextDouble();
        double u = r.nextDouble();
        double cumulative = 0;
        int drawn = -1; // not a bug report
        for (int c = 0; c < codes; c++) {
          p[c][i] = bug * w[c] / sum;
          cumulative += p[c][i];
          if (drawn < 0 && u < cumulative) {
            drawn = c;
          }
        }
        if (drawn >= 0) {
          count[drawn]++;
        }
      }
      for (int c = 0; c < codes; c++) {
        int[] ci = PoissonBinomial.interval(p[c], 0.9);
        boolean hit = ci[0] <= count[c] && count[c] <= ci[1];
        int band = Arrays.stream(p[c]).sum() < 1 ? 0 : 1;
        cells[band]++;
        hits[band] += hit ? 1 : 0;
        if (count[c] >= 3) {
          threeOrMore++;
          hitsThreeOrMore += hit ? 1 : 0;
        }
      }
    }
    for (int band = 0; band < 2; band++) {
      double coverage = hits[band] / (double) cells[band];
      assertTrue(cells[band] > 2000, "band " + band + ": " + cells[band] + " cells");
      assertTrue(coverage >= 0.9, "band " + band + " of the expected count: coverage " + coverage);
    }
    double selected = hitsThreeOrMore / (double) threeOrMore;
    assertTrue(threeOrMore > 200 && selected < 0.8, threeOrMore + " cells: coverage " + selected);
  }
}
