package dev.faultline.estimate.scope;

import dev.faultline.estimate.group.Row;
import dev.faultline.graph.query.QueryDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimated rows as a query's declared columns: counts to 1 decimal, shares to 4, a missing number
 * (no interval for a count of labels, no share where there are too few) as null.
 */
final class Output {
  private Output() {}

  static List<Map<String, Object>> rows(
      QueryDefinition query,
      List<String> groupColumns,
      List<Row> rows,
      Map<Row, Integer> ranks,
      Map<List<Object>, Double> coverage) {
    List<String> columns = query.columnNames();
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      Map<String, Object> all = new LinkedHashMap<>();
      for (int g = 0; g < groupColumns.size(); g++) {
        all.put(groupColumns.get(g), r.group().get(g));
      }
      all.put("code", r.code());
      all.put("code2", r.code2());
      all.put("code3", r.code3());
      all.put("rank", ranks.get(r) == null ? null : (long) ranks.get(r));
      all.put("estimate", round(r.estimate(), 1));
      all.put("estimateLow", round(r.estimateLow(), 1));
      all.put("estimateHigh", round(r.estimateHigh(), 1));
      all.put("share", round(r.share(), 4));
      all.put("shareLow", round(r.shareLow(), 4));
      all.put("shareHigh", round(r.shareHigh(), 4));
      all.put("method", r.method());
      all.put("basis", r.basis());
      all.put("note", r.note());
      all.put("labelled", r.labelled());
      all.put("sampleSize", (long) r.sampleSize());
      all.put("inScope", (long) r.items());
      all.put("expectedInScope", round(r.expected(), 1));
      all.put("coverage", coverage.get(r.group()));
      Map<String, Object> row = new LinkedHashMap<>();
      for (String c : columns) {
        row.put(c, all.get(c));
      }
      out.add(row);
    }
    return out;
  }

  /** Rounded outward-safe: a point and its interval rounded alike keep their order. */
  static Double round(double v, int decimals) {
    if (!Double.isFinite(v)) {
      return null;
    }
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }
}
