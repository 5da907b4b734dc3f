package dev.faultline.estimate.scope;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Statement rows written by hand for the estimators' tests (no server). */
final class Rows {
  private Rows() {}

  static QueryDefinition query(String name) {
    return QueryLibrary.loadDefinitions().stream()
        .filter(d -> d.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /** A distribution over a dimension's codes from code → probability. */
  static List<Double> over(Dimension d, Map<String, Double> p) {
    List<Double> out = new ArrayList<>();
    for (String code : d.distributionCodes()) {
      out.add(p.getOrDefault(code, 0.0));
    }
    return out;
  }

  /**
   * An item for a one-dimension query: its distribution over the dimension (calibrated out of
   * fold), its probability of being a bug report (the rest a question), its top code and whether
   * that passes the bar.
   */
  static Map<String, Object> item(
      Dimension d, Map<String, Double> p, double bug, String top, boolean passes) {
    Map<String, Object> m = new HashMap<>();
    m.put("top", top);
    m.put("p", over(d, p));
    m.put("calibration", "cv:test");
    m.put("passes", passes);
    m.put("kind", bug >= 0.5 ? "BUG" : "QUESTION");
    m.put("kindP", over(Dimension.KIND, Map.of("BUG", bug, "QUESTION", 1 - bug)));
    m.put("kindCalibration", "cv:test");
    m.put("kindPasses", true);
    m.put("humanGiven", List.of());
    m.put("sample", null);
    return m;
  }

  static Map<String, Object> params(String dimension, String kind, String mode) {
    Map<String, Object> m = new HashMap<>();
    m.put("dimension", dimension);
    m.put("kind", kind);
    m.put("mode", mode);
    return m;
  }

  static Map<String, Object> row(List<Map<String, Object>> rows, String code) {
    return rows.stream().filter(r -> r.get("code").equals(code)).findFirst().orElseThrow();
  }

  static double number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).doubleValue();
  }
}
