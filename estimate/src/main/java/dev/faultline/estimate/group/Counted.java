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
    List<String> codes2 = spec.pair() == null ? List.of("") : spec.cells();
    long[][] count = new long[codes.size()][codes2.size()];
    long[][] sure = new long[codes.size()][codes2.size()];
    for (Item item : items) {
      int[] x = cell(item, spec, true, true);
      if (x != null) {
        sure[x[0]][Math.max(0, x[1])]++;
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
        String[] parts = codes2.get(b).split("\\|", 2);
        Row row =
            new Row(
                key,
                codes.get(a),
                spec.pair() == null ? null : parts[0],
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
                expected);
        out.add(parts.length == 1 ? row : GroupedEstimator.withThird(row, parts[1]));
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
    return cell(item, spec, confident, false);
  }

  /**
   * The cell with labels below the bar as "cannot tell" ({@code confident}); with {@code sure},
   * only where every label (the kind's included) passes its bar, below-bar labels not mapped.
   */
  private static int[] cell(
      Item item, GroupedEstimator.Spec spec, boolean confident, boolean sure) {
    boolean kindOk =
        spec.kind() == null
            || (spec.kind().equals(item.kindTop()) && (!(confident || sure) || item.kindPasses()));
    List<String> codes = spec.dimension().distributionCodes();
    // a label below the bar counts as "cannot tell" (what the classifier answers below its own
    // threshold)
    int a = codes.indexOf(counted(item, 0, codes, confident || sure));
    int b = -1;
    if (spec.pair() != null) {
      List<String> codes2 = spec.pair().distributionCodes();
      String second = counted(item, 1, codes2, confident || sure);
      if (spec.third() != null) {
        List<String> codes3 = spec.third().distributionCodes();
        second = second + "|" + counted(item, 2, codes3, confident || sure);
      }
      b = spec.cells().indexOf(second);
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
    if (!known(code)) {
      return Double.NaN;
    }
    long known = 0;
    if (single) {
      for (int x = 0; x < codes.size(); x++) {
        known += Codes.NOT_KNOWN.contains(codes.get(x)) ? 0 : count[x][0];
      }
    } else {
      for (int y = 0; y < codes2.size(); y++) {
        known += known(codes2.get(y)) ? count[a][y] : 0;
      }
    }
    return known == 0 ? Double.NaN : count[a][b] / (double) known;
  }

  /** Whether a cell's codes (a triple's {@code second|third}) are all known. */
  private static boolean known(String cell) {
    for (String part : cell.split("\\|")) {
      if (Codes.NOT_KNOWN.contains(part)) {
        return false;
      }
    }
    return true;
  }
}
