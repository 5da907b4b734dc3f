package dev.faultline.estimate.group;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.item.Item;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Why a sample whose drawn items were not all labelled is used with bounds rather than as if the
 * skipped items had never been drawn: people skip the hard items (here: those the classifier gets
 * wrong, 70% of the time). A scope of 400 bug reports whose classifier names the right stage 70% of
 * the time, a uniform sample of 80, truth and skipping drawn by the test. Using only the labelled
 * items biases the rectifier (the sample now over-represents the classifier's successes) and the
 * intervals under-cover; bounding the unlabelled items (each counted in the cell and out of it)
 * holds the 90% whatever was skipped.
 */
class PartialSampleTest {
  private static final int TRIALS = 200;
  private static final int SIZE = 400;
  private static final int DRAWN = 80;

  private record Coverage(double worst, String byCode) {}

  private static Coverage run(boolean bounds, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int codes = Synthetic.CODES.size();
    int[] hits = new int[codes - 1];
    GroupedEstimator.Spec spec =
        new GroupedEstimator.Spec(
            Synthetic.STAGE, null, "BUG", GroupedEstimator.Mode.ESTIMATE, ModelError.NONE);
    for (int t = 0; t < TRIALS; t++) {
      List<Synthetic.Drawn> scope = new ArrayList<>();
      List<List<Object>> groups = new ArrayList<>();
      int[] truth = new int[codes];
      for (int i = 0; i < SIZE; i++) {
        int code = Synthetic.pick(Synthetic.MIX, r.nextDouble());
        int hint = r.nextDouble() < 0.7 ? code : r.nextInt(codes);
        double[] p = Synthetic.soft(hint, r);
        Map<String, Object> row = new HashMap<>();
        List<Double> list = new ArrayList<>();
        for (double v : p) {
          list.add(v);
        }
        row.put("p", list);
        row.put("calibration", "cv:synthetic");
        row.put("top", Synthetic.CODES.get(hint));
        row.put("kind", "BUG");
        row.put("humanGiven", List.of("kind"));
        truth[code]++;
        scope.add(new Synthetic.Drawn(row, true, code));
        groups.add(List.of());
      }
      int[] order = shuffled(SIZE, r);
      for (int j = 0; j < DRAWN; j++) {
        Synthetic.Drawn d = scope.get(order[j]);
        boolean hard = !d.row().get("top").equals(Synthetic.CODES.get(d.code()));
        boolean skipped = hard && r.nextDouble() < 0.7;
        if (!skipped) {
          d.row().put("sample", Map.of("kind", "BUG", "stage", Synthetic.CODES.get(d.code())));
        }
        // with bounds, a skipped item is known to have been drawn; without, it looks undrawn
        d.row().put("sampleDrawn", bounds || !skipped);
      }
      List<Item> items = Synthetic.items(scope);
      List<Row> rows = GroupedEstimator.estimate(items, groups, spec);
      int known = SIZE - truth[codes - 1];
      for (int k = 0; k < codes - 1; k++) {
        hits[k] += rows.get(k).shareCovers(truth[k] / (double) known) ? 1 : 0;
      }
    }
    double worst = 1;
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < codes - 1; k++) {
      double c = hits[k] / (double) TRIALS;
      worst = Math.min(worst, c);
      b.append(String.format(Locale.ROOT, "%s %.3f ", Synthetic.CODES.get(k), c));
    }
    return new Coverage(worst, b.toString());
  }

  @Test
  void boundsHoldWhereTheLabelledItemsAloneUnderCover() {
    Coverage bounded = run(true, 41);
    Coverage labelledOnly = run(false, 41);
    System.out.println("share coverage, bounds: " + bounded.byCode());
    System.out.println("share coverage, labelled items only: " + labelledOnly.byCode());
    assertTrue(bounded.worst() >= 0.87, "bounds: " + bounded.byCode());
    assertTrue(labelledOnly.worst() < 0.8, "labelled items only: " + labelledOnly.byCode());
  }

  private static int[] shuffled(int n, SplittableRandom r) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    return a;
  }
}
