package dev.faultline.estimate.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.item.Item;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The estimator computes intervals only for the cells a query can show ({@link Keep}): those rows
 * must be the rows of the full estimate, and the others carry their expected count and no interval.
 * Which cells a query shows is worked out here from the full estimate's rows (the query's rule:
 * above the minimum, known codes if asked, the largest n per group with ties at the last place).
 */
class KeepTest {

  @Test
  void theRowsAQueryShowsAreTheFullEstimatesAndOnlyTheOthersLackIntervals() {
    SplittableRandom r = new SplittableRandom(23);
    List<Item> items = new ArrayList<>();
    List<List<Object>> groups = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      Synthetic.Drawn d = Synthetic.draw(Synthetic.Tier.LEARNED, r, 0);
      items.add(Synthetic.items(List.of(d)).get(0));
      groups.add(List.of("g" + r.nextInt(3)));
    }
    GroupedEstimator.Spec spec = GroupedEstimator.Spec.of(Synthetic.STAGE, "BUG");
    List<Row> full = GroupedEstimator.estimate(items, groups, spec);
    int leftOut = 0;
    for (Keep keep :
        List.of(
            new Keep(0, 3, false),
            new Keep(0, 6, true),
            new Keep(0, 6, false),
            new Keep(15, null, false),
            new Keep(15, 2, true),
            Keep.ALL)) {
      List<Row> pruned = GroupedEstimator.estimate(items, groups, spec, keep);
      Set<Row> shown = shown(full, keep);
      assertEquals(full.size(), pruned.size());
      for (int i = 0; i < full.size(); i++) {
        Row f = full.get(i);
        Row p = pruned.get(i);
        if (shown.contains(f)) {
          assertEquals(f, p, keep + ": a shown row");
        } else {
          leftOut++;
          assertEquals(Keep.NOTE, p.note(), keep + ": " + p);
          assertEquals(f.estimate(), p.estimate(), 1e-12);
          assertTrue(Double.isNaN(p.estimateLow()) && Double.isNaN(p.shareHigh()), p.toString());
        }
      }
    }
    assertTrue(leftOut >= 20, leftOut + " rows left out");
  }

  /** The rows a query with these settings shows, from the full estimate. */
  private static Set<Row> shown(List<Row> full, Keep keep) {
    Set<Row> out = new HashSet<>();
    for (Object g : List.of("g0", "g1", "g2")) {
      List<Row> family = new ArrayList<>();
      for (Row row : full) {
        boolean known = !Codes.NOT_KNOWN.contains(row.code());
        if (row.group().equals(List.of(g))
            && row.estimate() >= keep.minimum()
            && (known || !keep.knownOnly())) {
          family.add(row);
        }
      }
      family.sort(Comparator.comparingDouble(Row::estimate).reversed());
      int n = keep.top() == null ? family.size() : Math.min(keep.top(), family.size());
      for (Row row : family) {
        if (n > 0 && row.estimate() >= family.get(n - 1).estimate()) {
          out.add(row);
        }
      }
    }
    return out;
  }
}
