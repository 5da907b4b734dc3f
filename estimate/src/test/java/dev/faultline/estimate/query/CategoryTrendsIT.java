package dev.faultline.estimate.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code category-trends} on a real Neo4j (rows by period, then in the dimension's code order): by
 * default every period and code is an estimate with an interval; {@code mode=confident} keeps
 * counting the labels above the bar as the query did before estimates (the tests of those counts
 * moved here from graph-model with it).
 */
class CategoryTrendsIT extends EstimatedQueryITBase {
  private static final ConfidencePolicy DEFAULT = ConfidencePolicy.calibrated();

  private static double low(String dimension) {
    return DEFAULT.bar(dimension) / 2;
  }

  private void symptomsOverTime() {
    graph.create(
        issue("o/ds#1").createdAt("2024-01-03T10:00:00Z").symptom("HANG").distributedSpecific(true),
        issue("o/ds#2").createdAt("2024-01-20T10:00:00Z").symptom("HANG").distributedSpecific(true),
        issue("o/ds#3")
            .createdAt("2024-01-25T10:00:00Z")
            .symptom("OUT_OF_MEMORY")
            .distributedSpecific(false),
        issue("o/ds#4").createdAt("2024-02-05T10:00:00Z").symptom("HANG"),
        issue("o/ds#5").createdAt("2024-02-06T10:00:00Z"),
        issue("o/ds#6").createdAt("2024-02-07T10:00:00Z").kind("QUESTION").symptom("NONE"),
        issue("o/mg#1").framework("megatron-lm").createdAt("2024-02-08T10:00:00Z").symptom("HANG"));
  }

  /** (period, code, estimate) of each row. */
  private List<List<Object>> counts(String... params) {
    List<List<Object>> out = new ArrayList<>();
    for (Map<String, Object> r : run("category-trends", params)) {
      out.add(List.of(r.get("period"), r.get("code"), r.get("estimate")));
    }
    return out;
  }

  private static List<Object> cell(String period, String code, double count) {
    return List.of(period, code, count);
  }

  @Test
  void confidentModeCountsKnownSymptomsOfBugsPerMonth() {
    symptomsOverTime();
    assertEquals(
        List.of(
            cell("2024-01-01", "OUT_OF_MEMORY", 1),
            cell("2024-01-01", "HANG", 2),
            cell("2024-02-01", "HANG", 2)),
        counts("mode", "confident"));
    assertEquals(
        List.of(
            cell("2024-01-01", "HANG", 1),
            cell("2024-01-15", "HANG", 1),
            cell("2024-01-22", "OUT_OF_MEMORY", 1),
            cell("2024-02-05", "HANG", 1),
            cell("2024-02-05", "UNKNOWN", 1)),
        counts(
            "mode",
            "confident",
            "bucket",
            "week",
            "framework",
            "deepspeed",
            "includeUnknown",
            "true"));
    assertEquals(
        List.of(cell("2024-01-01", "true", 2), cell("2024-01-01", "false", 1)),
        counts("mode", "confident", "dimension", "distributedSpecific"));
    assertEquals(
        List.of(cell("2024-02-01", "BUG", 2), cell("2024-02-01", "QUESTION", 1)),
        counts(
            "mode",
            "confident",
            "dimension",
            "kind",
            "kind",
            "null",
            "from",
            "2024-02-06",
            "to",
            "2024-02-09"));
    for (Map<String, Object> r : run("category-trends", "mode", "confident")) {
      assertNull(r.get("estimateLow"), "a count of labels has no interval");
      assertEquals("count of labels above the bar", r.get("method"));
    }
  }

  @Test
  void confidentModeLeavesOutLowConfidenceLabelsAndCountsThemAsUnknownWhenAsked() {
    graph.create(
        issue("o/c#1").symptom("HANG"),
        issue("o/c#2").symptom("HANG").confidence("symptom", low("symptom")),
        issue("o/c#3").symptom("HANG").confidence("kind", low("kind")),
        issue("o/c#4")
            .symptom("OUT_OF_MEMORY")
            .confidence("symptom", low("symptom"))
            .humanGiven("symptom"),
        issue("o/c#5"));
    assertEquals(
        List.of(cell("2024-01-01", "OUT_OF_MEMORY", 1), cell("2024-01-01", "HANG", 1)),
        counts("mode", "confident"));
    assertEquals(
        List.of(cell("2024-01-01", "OUT_OF_MEMORY", 1), cell("2024-01-01", "HANG", 3)),
        counts("mode", "confident", "minConfidence", "0"));
    // c#2's symptom below the bar is UNKNOWN, like c#5's; c#3 is not confidently a bug
    assertEquals(
        List.of(
            cell("2024-01-01", "OUT_OF_MEMORY", 1),
            cell("2024-01-01", "HANG", 1),
            cell("2024-01-01", "UNKNOWN", 2)),
        counts("mode", "confident", "includeUnknown", "true"));
    // a person's label passes any bar
    assertEquals(
        List.of(cell("2024-01-01", "OUT_OF_MEMORY", 1)),
        counts("mode", "confident", "kind", "null", "minConfidence", "1"));
    Map<String, Object> first = run("category-trends", "mode", "confident").get(0);
    assertEquals(5L, first.get("inScope"));
    assertEquals(0.4, first.get("coverage"));
  }

  /** Writes calibrated distributions onto the fixture's issues: {@code id -> (kindP, symptomP)}. */
  private void distributions(Map<String, List<List<Double>>> byId) {
    List<Map<String, Object>> rows = new ArrayList<>();
    byId.forEach(
        (id, p) -> {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("id", id);
          row.put("kind", p.get(0));
          row.put("symptom", p.get(1));
          rows.add(row);
        });
    graph.write(
        """
        UNWIND $rows AS row MATCH (i:Issue {id: row.id})
        SET i.kindProbabilities = row.kind, i.symptomProbabilities = row.symptom,
            i.kindCalibration = 'cv:test', i.symptomCalibration = 'cv:test'
        """,
        rows);
  }

  private static List<Double> over(Dimension d, Map<String, Double> p) {
    List<Double> out = new ArrayList<>();
    d.distributionCodes().forEach(c -> out.add(p.getOrDefault(c, 0.0)));
    return out;
  }

  @Test
  void everyPeriodAndCodeIsAnEstimateInsideItsIntervalZeroCellsIncluded() {
    List<String> ids = new ArrayList<>();
    Map<String, List<List<Double>>> p = new LinkedHashMap<>();
    for (int n = 1; n <= 12; n++) {
      String id = "o/e#" + n;
      ids.add(id);
      graph.create(
          issue(id)
              .createdAt(n <= 8 ? "2024-01-1" + (n % 9) + "T00:00:00Z" : "2024-02-02T00:00:00Z"));
      double bug = n % 4 == 0 ? 0.3 : 0.9;
      p.put(
          id,
          List.of(
              over(Dimension.KIND, Map.of("BUG", bug, "QUESTION", 1 - bug)),
              over(
                  Dimension.SYMPTOM,
                  Map.of("HANG", bug * 0.7, "OUT_OF_MEMORY", bug * 0.3, "NONE", 1 - bug))));
    }
    distributions(p);
    List<Map<String, Object>> rows = run("category-trends");
    int known =
        (int)
            Dimension.SYMPTOM.distributionCodes().stream()
                .filter(c -> !List.of("UNKNOWN", "NONE").contains(c))
                .count();
    assertEquals(2 * known, rows.size(), "every known code of both months, zeros included");
    for (Map<String, Object> r : rows) {
      double e = (Double) r.get("estimate");
      assertTrue(
          (Double) r.get("estimateLow") <= e && e <= (Double) r.get("estimateHigh"), r.toString());
      if (r.get("share") != null) {
        double s = (Double) r.get("share");
        assertTrue(
            (Double) r.get("shareLow") <= s && s <= (Double) r.get("shareHigh"), r.toString());
      } else {
        assertTrue(String.valueOf(r.get("note")).startsWith("too few to estimate"), r.toString());
      }
      assertTrue(((String) r.get("method")).startsWith("pcc"), r.toString());
    }
    Map<String, Object> januaryHang =
        rows.stream()
            .filter(r -> r.get("period").equals("2024-01-01") && r.get("code").equals("HANG"))
            .findFirst()
            .orElseThrow();
    // eight issues: six 90% bugs, two 30%; 70% of each bug's symptom is HANG
    assertEquals(0.7 * (6 * 0.9 + 2 * 0.3), (Double) januaryHang.get("estimate"), 0.051);
    assertEquals(0.7, (Double) januaryHang.get("share"), 1e-4);
    assertEquals(8L, januaryHang.get("inScope"));
    assertTrue(((String) januaryHang.get("basis")).startsWith("pcc over ≈ 6.0 bug reports"));
    Map<String, Object> februaryHang =
        rows.stream()
            .filter(r -> r.get("period").equals("2024-02-01") && r.get("code").equals("HANG"))
            .findFirst()
            .orElseThrow();
    // four issues, ≈ 3.0 bug reports: a share, but a wide one
    assertTrue(
        (Double) februaryHang.get("shareHigh") - (Double) februaryHang.get("shareLow") > 0.3);
  }
}
