package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stage × symptom table from per-issue distributions written by hand (no server). */
class CategoryPairsTest {
  private final CategoryPairs pairs = new CategoryPairs();

  private static List<Double> over(Dimension d, Map<String, Double> p) {
    List<Double> out = new ArrayList<>();
    for (String code : d.distributionCodes()) {
      out.add(p.getOrDefault(code, 0.0));
    }
    return out;
  }

  private static Map<String, Object> item(
      Map<String, Double> stage, Map<String, Double> symptom, double bug, boolean passes) {
    Map<String, Object> m = new HashMap<>();
    m.put("rowTop", stage.keySet().stream().sorted().findFirst().orElseThrow());
    m.put("rowP", over(Dimension.STAGE, stage));
    m.put("columnTop", symptom.keySet().stream().sorted().findFirst().orElseThrow());
    m.put("columnP", over(Dimension.SYMPTOM, symptom));
    m.put("topKind", bug >= 0.5 ? "BUG" : "QUESTION");
    m.put("kindP", over(Dimension.KIND, Map.of("BUG", bug, "QUESTION", 1 - bug)));
    m.put("passes", passes);
    m.put("kindPasses", true);
    return m;
  }

  private static Map<String, Object> cell(List<Map<String, Object>> rows, String r, String c) {
    return rows.stream()
        .filter(x -> x.get("row").equals(r) && x.get("column").equals(c))
        .findFirst()
        .orElse(null);
  }

  private static Map<String, Object> params(String mode) {
    return Map.of("rows", "stage", "columns", "symptom", "kind", "BUG", "mode", mode);
  }

  @Test
  void aCellSumsTheKindTimesBothCodesGivenTheKind() {
    List<Map<String, Object>> items =
        List.of(
            // a sure bug: COMMUNICATION x HANG
            item(Map.of("COMMUNICATION", 1.0), Map.of("HANG", 1.0), 1.0, true),
            // 80% a bug; its symptom's NONE (0.2) is the not-a-bug mass: given a bug, HANG 0.5 /
            // 0.8
            item(
                Map.of("COMMUNICATION", 0.5, "MEMORY", 0.5),
                Map.of("HANG", 0.5, "OUT_OF_MEMORY", 0.3, "NONE", 0.2),
                0.8,
                false));
    List<Map<String, Object>> est = pairs.estimate(items, params("estimate"));
    // 1 + 0.8 × 0.5 × 0.625 = 1.25
    assertEquals(1.3, (Double) cell(est, "COMMUNICATION", "HANG").get("estimate"), 1e-9);
    // 0.8 × 0.5 × 0.375 = 0.15
    assertEquals(0.2, (Double) cell(est, "MEMORY", "OUT_OF_MEMORY").get("estimate"), 1e-9);
    assertNull(cell(est, "COMMUNICATION", "NONE"), "NONE is no category");
    assertTrue(
        ((String) cell(est, "MEMORY", "HANG").get("method")).contains("product of marginals"));
    assertEquals(1L, cell(est, "COMMUNICATION", "HANG").get("labelled"));

    List<Map<String, Object>> sure = pairs.estimate(items, params("confident"));
    assertEquals(1, sure.size());
    assertEquals(1.0, (Double) cell(sure, "COMMUNICATION", "HANG").get("estimate"), 1e-9);
    List<Map<String, Object>> all = pairs.estimate(items, params("all"));
    assertEquals(2.0, (Double) cell(all, "COMMUNICATION", "HANG").get("estimate"), 1e-9);
  }

  @Test
  void rowsHaveExactlyTheQuerysDeclaredColumns() {
    QueryDefinition q =
        QueryLibrary.loadDefinitions().stream()
            .filter(d -> d.name().equals("category-pairs"))
            .findFirst()
            .orElseThrow();
    List<Map<String, Object>> rows =
        pairs.estimate(
            List.of(item(Map.of("MEMORY", 1.0), Map.of("OUT_OF_MEMORY", 1.0), 1.0, true)),
            params("estimate"));
    assertEquals(q.columnNames(), List.copyOf(rows.get(0).keySet()));
  }
}
