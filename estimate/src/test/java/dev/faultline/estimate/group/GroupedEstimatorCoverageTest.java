package dev.faultline.estimate.group;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.item.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the grouped estimator's 90% intervals on synthetic scopes whose truth the test draws
 * (the classifier calibrated by construction, so the per-item uncertainty is all there is): small
 * and larger scopes, calibrated soft distributions and point answers with a stated error rate. The
 * count intervals of every code, rare ones and zero counts included, and the share intervals where
 * a share is given, hold at least 87% per band of the code's frequency. Fails when an interval is
 * made narrower (the normal quantile halved, or the share's continuity correction dropped: see
 * docs/estimates.md).
 */
class GroupedEstimatorCoverageTest {
  private static final int TRIALS = 250;

  private record Tally(long[] countHits, long[] counts, long[] shareHits, long[] shares) {
    Tally() {
      this(new long[3], new long[3], new long[3], new long[3]);
    }
  }

  private static int band(int code) {
    double m = Synthetic.MIX[code];
    return m < 0.06 ? 0 : m < 0.2 ? 1 : 2;
  }

  private static Tally run(Synthetic.Tier tier, int size, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Tally t = new Tally();
    GroupedEstimator.Spec spec =
        new GroupedEstimator.Spec(
            Synthetic.STAGE, null, "BUG", GroupedEstimator.Mode.ESTIMATE, ModelError.NONE);
    for (int trial = 0; trial < TRIALS; trial++) {
      List<Synthetic.Drawn> drawn = new ArrayList<>();
      List<List<Object>> groups = new ArrayList<>();
      int[] truth = new int[Synthetic.CODES.size()];
      int known = 0;
      for (int i = 0; i < size; i++) {
        Synthetic.Drawn d = Synthetic.draw(tier, r, 0.2);
        drawn.add(d);
        groups.add(List.of());
        if (d.bug()) {
          truth[d.code()]++;
          known += d.code() < Synthetic.CODES.size() - 1 ? 1 : 0;
        }
      }
      List<Item> items = Synthetic.items(drawn);
      List<Row> rows = GroupedEstimator.estimate(items, groups, spec);
      for (int k = 0; k < Synthetic.CODES.size() - 1; k++) {
        Row row = rows.get(k);
        int b = band(k);
        t.counts()[b]++;
        t.countHits()[b] += row.countCovers(truth[k]) ? 1 : 0;
        if (!Double.isNaN(row.share()) && known > 0) {
          t.shares()[b]++;
          t.shareHits()[b] += row.shareCovers(truth[k] / (double) known) ? 1 : 0;
        }
      }
    }
    return t;
  }

  private static void assertCovers(Tally t, String what) {
    System.out.printf(
        Locale.ROOT,
        "%s: count %.3f %.3f %.3f, share %.3f %.3f %.3f (rare, mid, frequent)%n",
        what,
        t.countHits()[0] / (double) t.counts()[0],
        t.countHits()[1] / (double) t.counts()[1],
        t.countHits()[2] / (double) t.counts()[2],
        t.shareHits()[0] / (double) Math.max(1, t.shares()[0]),
        t.shareHits()[1] / (double) Math.max(1, t.shares()[1]),
        t.shareHits()[2] / (double) Math.max(1, t.shares()[2]));
    for (int b = 0; b < 3; b++) {
      double c = t.countHits()[b] / (double) t.counts()[b];
      assertTrue(c >= 0.87, String.format(Locale.ROOT, "%s count band %d: %.3f", what, b, c));
      if (t.shares()[b] > 50) {
        double s = t.shareHits()[b] / (double) t.shares()[b];
        assertTrue(s >= 0.87, String.format(Locale.ROOT, "%s share band %d: %.3f", what, b, s));
      }
    }
  }

  @Test
  void calibratedSoftDistributionsCoverInSmallAndLargerScopes() {
    for (int size : new int[] {6, 25, 120}) {
      assertCovers(run(Synthetic.Tier.LEARNED, size, 11 + size), "learned, " + size + " items");
    }
  }

  @Test
  void pointAnswersWithTheirStatedErrorRateCover() {
    for (int size : new int[] {6, 25, 120}) {
      assertCovers(run(Synthetic.Tier.POINT, size, 23 + size), "point answers, " + size + " items");
    }
  }

  @Test
  void peoplesLabelsAreExact() {
    Tally t = run(Synthetic.Tier.HUMAN, 30, 5);
    for (int b = 0; b < 3; b++) {
      assertTrue(t.countHits()[b] == t.counts()[b], "band " + b);
    }
  }
}
