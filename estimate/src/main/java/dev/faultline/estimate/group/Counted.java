package dev.faultline.estimate.group;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.item.Item;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts of labels ({@link GroupedEstimator.Mode#CONFIDENT}: those above the bar, of the kind above
 * its bar, a label below the bar counted as "cannot tell"; {@link GroupedEstimator.Mode#ALL}: every
 * top label of the kind), as the product counted before estimates: no interval, shares among the
 * known codes' counts.
 */
final class Counted {
  private Counted() {}

  static List<Row> rows(
      List<Object> key, List<Item> items, GroupedEstimator.Spec spec, double expected) {
    boolean confident = spec.mode() == GroupedEstimator.Mode.CONFIDENT;
    List<String> codes = spec.dimension().distributionCodes();
    List<String> codes2 = spec.pair() == null ? List.of("") : spec.pair().distributionCodes();
    long[][] count = new long[codes.size()][codes2.size()];
    long[][] sure = new long[codes.size()][codes2.size()];
    for (Item item : items) {
      int x = codes.indexOf(counted(item, 0, codes, true));
      int y = spec.pair() == null ? 0 : codes2.indexOf(counted(item, 1, codes2, true));
      boolean kindSure =
          spec.kind() == null || (spec.kind().equals(item.kindTop()) && item.kindPasses());
      if (kindSure && x >= 0 && y >= 0) {
        sure[x][y]++;
      }
      int[] cell = cell(item, spec);
      if (cell != null) {
        count[cell[0]][Math.max(0, cell[1])]++;
      }
    }
    String method = confident ? "count of labels above the bar" : "count of top labels";
    List<Row> out = new ArrayList<>();
    for (int a = 0; a < codes.size(); a++) {
      for (int b = 0; b < codes2.size(); b++) {
        String shareCode = spec.pair() == null ? codes.get(a) : codes2.get(b);
        double share = share(count, a, b, spec.pair() == null, codes, codes2, shareCode);
        out.add(
            new Row(
                key,
                codes.get(a),
                spec.pair() == null ? null : codes2.get(b),
                count[a][b],
                Double.NaN,
                Double.NaN,
                share,
                Double.NaN,
                Double.NaN,
                method,
                "labels counted, not estimated",
                null,
                sure[a][b],
                0,
                items.size(),
                expected));
      }
    }
    return out;
  }

  /**
   * The cell an item is counted in (the first code's index, the pair's second's or -1 without a
   * pair), or null where it is not counted (not of the kind, or a code off the dimension's list).
   */
  static int[] cell(Item item, GroupedEstimator.Spec spec) {
    boolean confident = spec.mode() == GroupedEstimator.Mode.CONFIDENT;
    boolean kindOk =
        spec.kind() == null
            || (spec.kind().equals(item.kindTop()) && (!confident || item.kindPasses()));
    List<String> codes = spec.dimension().distributionCodes();
    // a label below the bar counts as "cannot tell" (what the classifier answers below its own
    // threshold)
    int a = codes.indexOf(counted(item, 0, codes, confident));
    int b = -1;
    if (spec.pair() != null) {
      List<String> codes2 = spec.pair().distributionCodes();
      b = codes2.indexOf(counted(item, 1, codes2, confident));
      if (b < 0) {
        return null;
      }
    }
    return kindOk && a >= 0 ? new int[] {a, b} : null;
  }

  private static String counted(Item item, int f, List<String> codes, boolean confident) {
    if (!confident || item.passes(f)) {
      return item.top(f);
    }
    return codes.contains("UNKNOWN") ? "UNKNOWN" : "null";
  }

  private static double share(
      long[][] count,
      int a,
      int b,
      boolean single,
      List<String> codes,
      List<String> codes2,
      String code) {
    if (Codes.NOT_KNOWN.contains(code)) {
      return Double.NaN;
    }
    long known = 0;
    if (single) {
      for (int x = 0; x < codes.size(); x++) {
        known += Codes.NOT_KNOWN.contains(codes.get(x)) ? 0 : count[x][0];
      }
    } else {
      for (int y = 0; y < codes2.size(); y++) {
        known += Codes.NOT_KNOWN.contains(codes2.get(y)) ? 0 : count[a][y];
      }
    }
    return known == 0 ? Double.NaN : count[a][b] / (double) known;
  }
}
