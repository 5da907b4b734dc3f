package dev.faultline.estimate.scope;

import static dev.faultline.estimate.scope.Rows.number;
import static dev.faultline.estimate.scope.Rows.over;
import static dev.faultline.estimate.scope.Rows.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fix queries on the grouped estimator (#31), on statement rows written by hand (no server):
 * every expected count and median below is computed by hand from the rows.
 */
class FixQueriesTest {
  private static final QueryDefinition PATTERNS = query("fix-pattern-per-symptom");
  private static final QueryDefinition SIZES = query("fix-size-by-category");
  private final Grouped grouped = new Grouped();

  /**
   * One merged change: the kind distribution of the node its kind comes from (P(bug), the rest a
   * question), its symptom stored as P(bug and symptom) (NONE the rest), its fix pattern as stored,
   * the kind distribution that fix pattern was written with (null: the same node's).
   */
  private static Map<String, Object> change(
      String id,
      double bug,
      String symptom,
      Map<String, Double> fixPattern,
      Double fixPatternBug,
      boolean passes2,
      boolean fromIssue,
      long lines) {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("kind", bug > 0.5 ? "BUG" : "QUESTION");
    m.put("kindP", over(Dimension.KIND, Map.of("BUG", bug, "QUESTION", 1 - bug)));
    m.put("kindCalibration", "cv:test");
    m.put("kindPasses", true);
    m.put("humanGiven", List.of());
    m.put("top", symptom);
    m.put("p", over(Dimension.SYMPTOM, Map.of(symptom, bug, "NONE", 1 - bug)));
    m.put("calibration", "cv:test");
    m.put("passes", true);
    String top2 =
        fixPattern.entrySet().stream()
            .filter(e -> !e.getKey().equals("UNKNOWN"))
            .max(Map.Entry.comparingByValue())
            .orElseThrow()
            .getKey();
    m.put("top2", top2);
    m.put("p2", over(Dimension.FIX_PATTERN, fixPattern));
    m.put("calibration2", "cv:test");
    m.put("passes2", passes2);
    m.put(
        "p2Kind",
        fixPatternBug == null
            ? null
            : over(Dimension.KIND, Map.of("BUG", fixPatternBug, "QUESTION", 1 - fixPatternBug)));
    m.put("fromIssue", fromIssue);
    m.put("lines", lines);
    m.put("small", lines <= 10);
    m.put("files", 1L);
    m.put("sample", null);
    return m;
  }

  private static List<Map<String, Object>> changes() {
    return List.of(
        // a sure bug report's fix, its pattern split evenly and below the bar
        change(
            "o/r#1",
            1.0,
            "HANG",
            Map.of("DISTRIBUTED_TUNING", 0.5, "CONDITIONAL_LOGIC", 0.5),
            null,
            false,
            true,
            10),
        // a change of its own classification, half a bug: P(CONDITIONAL_LOGIC | bug) = .5 / .5
        change(
            "o/r@abc",
            0.5,
            "HANG",
            Map.of("CONDITIONAL_LOGIC", 0.5, "UNKNOWN", 0.5),
            null,
            true,
            false,
            30),
        // a sure bug report's fix whose pattern is the change's own, written with the change's
        // P(bug) = .4: P(CONDITIONAL_LOGIC | bug) = .4 / .4
        change(
            "o/r#3",
            1.0,
            "OUT_OF_MEMORY",
            Map.of("CONDITIONAL_LOGIC", 0.4, "UNKNOWN", 0.6),
            0.4,
            true,
            true,
            4));
  }

  private static Map<String, Object> cell(
      List<Map<String, Object>> rows, String code, String code2) {
    return rows.stream()
        .filter(r -> r.get("code").equals(code) && r.get("code2").equals(code2))
        .findFirst()
        .orElse(null);
  }

  private List<Map<String, Object>> patterns(String mode) {
    Map<String, Object> p = new HashMap<>();
    p.put("mode", mode);
    p.put("includeUnknown", false);
    p.put("limit", 100L);
    return grouped.estimate(PATTERNS, changes(), p);
  }

  @Test
  void fixPatternsPerSymptomAreExpectedCountsOfEveryChangeWeighedByItsProbabilities() {
    List<Map<String, Object>> est = patterns("estimate");
    Map<String, Object> hangLogic = cell(est, "HANG", "CONDITIONAL_LOGIC");
    // change 1: 1 x 1 x .5; change 2: .5 x 1 x 1
    assertEquals(1.0, number(hangLogic, "estimate"), 1e-9);
    assertEquals(0.5, number(cell(est, "HANG", "DISTRIBUTED_TUNING"), "estimate"), 1e-9);
    // the change's own fix pattern divided by the change's P(bug), not the report's
    assertEquals(1.0, number(cell(est, "OUT_OF_MEMORY", "CONDITIONAL_LOGIC"), "estimate"), 1e-9);
    // of HANG x CONDITIONAL_LOGIC, change 1 (.5) is categorised by the report it fixes
    assertEquals(0.5, number(hangLogic, "fromIssueEstimate"), 1e-9);
    // weighted median of 10 (weight .5) and 30 (weight .5): midway
    assertEquals(20.0, number(hangLogic, "medianLines"), 1e-9);
    assertEquals(10.0, number(cell(est, "HANG", "DISTRIBUTED_TUNING"), "medianLines"), 1e-9);
    for (Map<String, Object> r : est) {
      double e = number(r, "estimate");
      assertTrue(number(r, "estimateLow") <= e && e <= number(r, "estimateHigh"), r.toString());
      assertTrue(String.valueOf(r.get("method")).startsWith("pcc"), r.toString());
    }
    assertEquals(3L, hangLogic.get("inScope"));
    assertEquals(2.5, number(hangLogic, "expectedInScope"), 1e-9);
  }

  @Test
  void modeConfidentCountsTheLabelsAboveTheBarAsBefore() {
    List<Map<String, Object>> sure = patterns("confident");
    // change 1's pattern is below the bar (UNKNOWN, left out); change 2 is labelled a question
    assertNull(cell(sure, "HANG", "CONDITIONAL_LOGIC"));
    assertNull(cell(sure, "HANG", "DISTRIBUTED_TUNING"));
    Map<String, Object> oom = cell(sure, "OUT_OF_MEMORY", "CONDITIONAL_LOGIC");
    assertEquals(1.0, number(oom, "estimate"), 1e-9);
    assertNull(oom.get("estimateLow"));
    assertEquals("count of labels above the bar", oom.get("method"));
    assertEquals(4.0, number(oom, "medianLines"), 1e-9);
  }

  @Test
  void fixSizesPerCategoryEstimateTheSmallFixesBesideTheFixes() {
    Map<String, Object> p = new HashMap<>();
    p.put("dimension", "symptom");
    p.put("mode", "estimate");
    p.put("includeUnknown", false);
    List<Map<String, Object>> est = grouped.estimate(SIZES, changes(), p);
    Map<String, Object> hang = Rows.row(est, "HANG");
    assertEquals(1.5, number(hang, "estimate"), 1e-9);
    // change 1 (10 lines, small, weight 1) and change 2 (30 lines, weight .5)
    assertEquals(1.0, number(hang, "smallEstimate"), 1e-9);
    assertEquals(1.0, number(hang, "fromIssueEstimate"), 1e-9);
    // Hazen positions of 10 (weight 1) and 30 (weight .5): 1/3 and 5/6; the median at 1/2
    assertEquals(
        10 + 20 * (0.5 - 1.0 / 3) / (5.0 / 6 - 1.0 / 3), number(hang, "medianLines"), 0.005);
    assertEquals(1.0, number(hang, "medianFiles"), 1e-9);
    assertEquals(1.0, number(Rows.row(est, "OUT_OF_MEMORY"), "estimate"), 1e-9);
  }

  /** An issue for the paths: P(bug), HANG given a bug, root causes and fix patterns as stored. */
  private static Map<String, Object> path(
      String id, double bug, Map<String, Double> rootCause, Map<String, Double> fixPattern) {
    Map<String, Object> m = change(id, bug, "HANG", fixPattern, null, true, false, 1);
    m.put("top2", "CONFIGURATION_ERROR");
    m.put("p2", over(Dimension.ROOT_CAUSE, rootCause));
    m.put("calibration2", "cv:test");
    m.put("passes2", true);
    m.put("top3", "DISTRIBUTED_TUNING");
    m.put("p3", over(Dimension.FIX_PATTERN, fixPattern));
    m.put("calibration3", "cv:test");
    m.put("passes3", true);
    return m;
  }

  @Test
  void pathsAreExpectedCountsOfTriplesWithSharesAmongTheSymptomsPaths() {
    List<Map<String, Object>> items = new java.util.ArrayList<>();
    for (int copy = 0; copy < 4; copy++) {
      items.addAll(pathItems(copy));
    }
    Map<String, Object> p = new HashMap<>();
    p.put("mode", "estimate");
    p.put("minIssues", 0.05);
    p.put("limit", 50L);
    QueryDefinition paths = query("symptom-cause-fix-paths");
    List<Map<String, Object>> est = grouped.estimate(paths, items, p);
    // HANG / CONFIGURATION_ERROR / DISTRIBUTED_TUNING: 4 x (.5 + .5); HANG / API_MISUSE / ...: 4 x
    // .5
    assertEquals(2, est.size(), est.toString());
    Map<String, Object> first =
        est.get(0).get("code2").equals("CONFIGURATION_ERROR") ? est.get(0) : est.get(1);
    Map<String, Object> other = first == est.get(0) ? est.get(1) : est.get(0);
    assertEquals("DISTRIBUTED_TUNING", first.get("code3"));
    assertEquals(4.0, number(first, "estimate"), 1e-9);
    assertEquals(2.0, number(other, "estimate"), 1e-9);
    assertEquals(4.0 / 6, number(first, "share"), 1e-4);
    assertEquals(1L, first.get("rank"));
    for (Map<String, Object> r : est) {
      assertTrue(number(r, "estimateLow") <= number(r, "estimate"), r.toString());
      assertTrue(number(r, "estimate") <= number(r, "estimateHigh"), r.toString());
      assertTrue(number(r, "shareLow") <= number(r, "share"), r.toString());
      assertTrue(number(r, "share") <= number(r, "shareHigh"), r.toString());
    }
    p.put("mode", "confident");
    List<Map<String, Object>> sure = grouped.estimate(paths, items, p);
    // only the sure bugs are labelled bugs; their labels are the top ones
    assertEquals(1, sure.size(), sure.toString());
    assertEquals(
        List.of("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", 4.0),
        List.of(
            sure.get(0).get("code"),
            sure.get(0).get("code2"),
            sure.get(0).get("code3"),
            sure.get(0).get("estimate")));
  }

  private static List<Map<String, Object>> pathItems(int copy) {
    return List.of(
        // a sure bug: CONFIGURATION_ERROR or API_MISUSE evenly, DISTRIBUTED_TUNING
        path(
            "o/r#1" + copy,
            1.0,
            Map.of("CONFIGURATION_ERROR", 0.5, "API_MISUSE", 0.5),
            Map.of("DISTRIBUTED_TUNING", 1.0)),
        // half a bug (labelled a question): both codes sure given a bug (stored .5 / P(bug) .5)
        path(
            "o/r#2" + copy,
            0.5,
            Map.of("CONFIGURATION_ERROR", 0.5, "UNKNOWN", 0.5),
            Map.of("DISTRIBUTED_TUNING", 0.5, "UNKNOWN", 0.5)));
  }
}
