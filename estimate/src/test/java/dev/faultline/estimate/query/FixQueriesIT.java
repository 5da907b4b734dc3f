package dev.faultline.estimate.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Symptom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fix queries on the grouped estimator (#31), on a real Neo4j with merged changes written by
 * the pipeline's {@link PullRequestWriter}: by default expected counts with 90% intervals from the
 * bug reports' and the changes' own distributions; {@code mode=confident} counts the labels above
 * the bar as these queries did before. Every expected figure is worked out by hand in a comment.
 */
class FixQueriesIT extends EstimatedQueryITBase {
  private static final long MERGED = Instant.parse("2025-02-01T00:00:00Z").toEpochMilli();
  private static final ConfidencePolicy DEFAULT = ConfidencePolicy.calibrated();

  private static double number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).doubleValue();
  }

  private static Map<String, Object> code(List<Map<String, Object>> rows, String code) {
    return rows.stream().filter(r -> code.equals(r.get("code"))).findFirst().orElse(null);
  }

  private static List<Double> over(Dimension d, Map<String, Double> p) {
    List<Double> out = new ArrayList<>();
    d.distributionCodes().forEach(c -> out.add(p.getOrDefault(c, 0.0)));
    return out;
  }

  /** Every row's estimate inside its interval, its share inside the share's, a method named. */
  private static void insideIntervals(List<Map<String, Object>> rows) {
    assertTrue(!rows.isEmpty());
    for (Map<String, Object> r : rows) {
      double e = number(r, "estimate");
      assertTrue(number(r, "estimateLow") <= e && e <= number(r, "estimateHigh"), r.toString());
      if (r.get("share") != null) {
        double s = number(r, "share");
        assertTrue(number(r, "shareLow") <= s && s <= number(r, "shareHigh"), r.toString());
      } else {
        assertTrue(r.get("note") != null, "a missing share says why: " + r);
      }
      assertTrue(String.valueOf(r.get("method")).startsWith("pcc"), r.toString());
    }
  }

  /** The bug reports and pull requests of the graph-model's ClassificationQueriesIT. */
  private void reportsAndFixes() {
    graph.create(
        bug("o/ds#1", "HANG").closedAt("2024-01-11T00:00:00Z"),
        bug("o/ds#2", "HANG").closedAt("2024-01-03T00:00:00Z"),
        bug("o/ds#3", "COMMUNICATION_FAILURE"),
        bug("o/ds#4", "OUT_OF_MEMORY").closedAt("2024-01-05T00:00:00Z"),
        bug("o/ds#5", "OUT_OF_MEMORY"),
        bug("o/mg#6", "HANG").framework("megatron-lm").closedAt("2024-01-07T00:00:00Z"),
        bug("o/ds#7", "HANG").state("deleted"),
        issue("o/ds#8").kind("QUESTION").symptom("NONE").createdAt("2024-01-01T00:00:00Z"));
    graph.create(
        pr("o/ds#101").fixes("o/ds#1", "o/ds#2").lines(5L, 3L),
        pr("o/ds#102").fixes("o/ds#4").lines(40L, 20L),
        pr("o/ds#103").fixes("o/ds#3").lines(1L, 1L).merged(false),
        pr("o/mg#104").fixes("o/mg#6").lines(2L, 2L),
        pr("o/ds#105").fixes("o/ds#1").lines(null, null));
  }

  private static dev.faultline.graph.testing.GraphFixture.Issue bug(String id, String symptom) {
    return issue(id).createdAt("2024-01-01T00:00:00Z").symptom(symptom);
  }

  @Test
  void fixEffortInModeConfidentCountsTheBugReportsAsBefore() {
    reportsAndFixes();
    List<Map<String, Object>> sure = run("fix-effort-by-category", "mode", "confident");
    // (estimate, closed, median days, fixed by a merged change of known size, by one of <= 10
    // lines): HANG #1 (10 days, #101: 8 lines), #2 (2 days, #101), mg#6 (6 days, #104: 4 lines);
    // OUT_OF_MEMORY #4 (4 days, #102: 60 lines), #5 open; COMMUNICATION_FAILURE #3 (#103 unmerged)
    assertEquals(List.of(3.0, 3.0, 6.0, 3.0, 3.0), effort(code(sure, "HANG")));
    assertEquals(List.of(2.0, 1.0, 4.0, 1.0, 0.0), effort(code(sure, "OUT_OF_MEMORY")));
    assertEquals(
        Arrays.asList(1.0, 0.0, null, 0.0, 0.0), effort(code(sure, "COMMUNICATION_FAILURE")));
    assertEquals(3, sure.size(), "known codes with a count only");
    assertEquals("count of labels above the bar", code(sure, "HANG").get("method"));

    List<Map<String, Object>> est = run("fix-effort-by-category");
    insideIntervals(est);
    for (Map<String, Object> r : est) {
      for (String subset : List.of("closed", "fixed", "smallFix")) {
        double e = number(r, subset + "Estimate");
        assertTrue(e <= number(r, "estimate") + 1e-9, r.toString());
        assertTrue(number(r, subset + "Low") <= e && e <= number(r, subset + "High"), r.toString());
      }
    }
  }

  private static List<Double> effort(Map<String, Object> row) {
    return Arrays.asList(
        number(row, "estimate"),
        number(row, "closedEstimate"),
        row.get("medianDaysToClose") == null ? null : number(row, "medianDaysToClose"),
        number(row, "fixedEstimate"),
        number(row, "smallFixEstimate"));
  }

  /**
   * A bug report whose HANG and CONDITIONAL_LOGIC labels are below the bar (P(bug) .9, both codes
   * sure given a bug), fixed by #11 (12 lines); a direct commit classified by itself, half a bug,
   * HANG and CONDITIONAL_LOGIC given a bug (20 lines).
   */
  private void unsureReportAndOwnClassification() {
    graph.create(
        issue("o/ds#1")
            .createdAt("2025-01-01T00:00:00Z")
            .symptom("HANG")
            .fixPattern("CONDITIONAL_LOGIC")
            .confidence("symptom", DEFAULT.bar("symptom") / 2)
            .confidence("fixPattern", DEFAULT.bar("fixPattern") / 2));
    probabilities("o/ds#1", Dimension.KIND, Map.of("BUG", 0.9, "QUESTION", 0.1));
    probabilities("o/ds#1", Dimension.SYMPTOM, Map.of("HANG", 0.9, "NONE", 0.1));
    probabilities(
        "o/ds#1", Dimension.FIX_PATTERN, Map.of("CONDITIONAL_LOGIC", 0.9, "UNKNOWN", 0.1));
    PullRequestRow.Classification own =
        new PullRequestRow.Classification(
            Map.of(
                Dimension.KIND,
                Kind.BUG,
                Dimension.SYMPTOM,
                Symptom.HANG,
                Dimension.FIX_PATTERN,
                FixPattern.CONDITIONAL_LOGIC),
            "learned-test",
            Map.of(
                Dimension.KIND, "cv:learned-test",
                Dimension.SYMPTOM, "cv:learned-test",
                Dimension.FIX_PATTERN, "cv:learned-test"),
            Map.of(
                Dimension.KIND,
                over(Dimension.KIND, Map.of("BUG", 0.5, "FEATURE_REQUEST", 0.5)),
                Dimension.SYMPTOM,
                over(Dimension.SYMPTOM, Map.of("HANG", 0.5, "NONE", 0.5)),
                Dimension.FIX_PATTERN,
                over(Dimension.FIX_PATTERN, Map.of("CONDITIONAL_LOGIC", 0.5, "UNKNOWN", 0.5))));
    new PullRequestWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                change("o/ds#11", 12, List.of("o/ds#1"), null),
                change("o/ds@abc", 20, List.of(), own)));
  }

  private static PullRequestRow change(
      String id, int lines, List<String> fixes, PullRequestRow.Classification c) {
    return new PullRequestRow(
        id,
        "o/ds",
        "deepspeed",
        id.contains("#") ? Integer.parseInt(id.substring(id.indexOf('#') + 1)) : 0,
        "Change " + id,
        "https://github.com/o/ds",
        "merged",
        true,
        MERGED,
        MERGED,
        MERGED,
        lines - lines / 4,
        lines / 4,
        1,
        fixes,
        true,
        "git",
        "SQUASH",
        null,
        "alice",
        c);
  }

  @Test
  void fixPatternsPerSymptomEstimateWhatCountingLabelsMisses() {
    unsureReportAndOwnClassification();
    List<Map<String, Object>> est = run("fix-pattern-per-symptom");
    insideIntervals(est);
    Map<String, Object> cell = code(est, "HANG");
    assertEquals("CONDITIONAL_LOGIC", cell.get("code2"));
    // .9 x 1 x 1 from the report + .5 x 1 x 1 from the change itself
    assertEquals(1.4, number(cell, "estimate"), 1e-9);
    assertEquals(0.9, number(cell, "fromIssueEstimate"), 1e-9);
    // Hazen positions of 12 (weight .9) and 20 (weight .5): .45 / 1.4 and 1.15 / 1.4
    assertEquals(12 + 8 * (0.5 - 0.45 / 1.4) / 0.5, number(cell, "medianLines"), 0.005);
    assertEquals(2L, cell.get("inScope"));
    // counting labels: the report's symptom is below the bar; the change's own classification
    // has no confidence and counts
    List<Map<String, Object>> sure = run("fix-pattern-per-symptom", "mode", "confident");
    assertEquals(1, sure.size(), sure.toString());
    assertEquals(1.0, number(sure.get(0), "estimate"), 1e-9);
    assertNull(sure.get(0).get("estimateLow"));
    assertEquals(20.0, number(sure.get(0), "medianLines"), 1e-9);
  }

  @Test
  void fixSizesPerCategoryEstimateTheFixesAndTheSmallOnes() {
    unsureReportAndOwnClassification();
    List<Map<String, Object>> est =
        run("fix-size-by-category", "dimension", "fixPattern", "maxLines", "15");
    insideIntervals(est);
    Map<String, Object> logic = code(est, "CONDITIONAL_LOGIC");
    assertEquals(1.4, number(logic, "estimate"), 1e-9);
    assertEquals(0.9, number(logic, "smallEstimate"), 1e-9, "12 lines <= 15, 20 not");
    assertNull(code(est, "UNKNOWN"), "unknown codes only with includeUnknown");
    assertEquals(
        List.of(1.0),
        run("fix-size-by-category", "dimension", "fixPattern", "mode", "confident").stream()
            .map(r -> number(r, "estimate"))
            .toList());
    assertEquals(
        List.of(2.0),
        run("fix-size-by-category", "dimension", "fixPattern", "mode", "all").stream()
            .map(r -> number(r, "estimate"))
            .toList(),
        "every top label, as the query counted before #31");
  }
}
