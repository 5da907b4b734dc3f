package dev.faultline.estimate.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The views' counting queries converted to the grouped estimator (#31), on a real Neo4j: by default
 * every row is an expected count inside its 90% interval with its method; {@code mode=confident}
 * keeps counting the labels above the bar, as these queries did before.
 */
class ViewQueriesIT extends EstimatedQueryITBase {
  private static final ConfidencePolicy DEFAULT = ConfidencePolicy.calibrated();

  private static double low(String dimension) {
    return DEFAULT.bar(dimension) / 2;
  }

  private static double number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).doubleValue();
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

  private static List<Object> column(List<Map<String, Object>> rows, String column) {
    List<Object> out = new ArrayList<>();
    rows.forEach(r -> out.add(r.get(column)));
    return out;
  }

  @Test
  void topRootCausesPerStageRankExpectedCountsWhereNoRootCauseLabelPassesItsBar() {
    for (int n = 1; n <= 9; n++) {
      String cause = n <= 5 ? "API_MISUSE" : n <= 8 ? "CONFIGURATION_ERROR" : "NUMERICAL_ISSUE";
      graph.create(
          issue("o/r#" + n)
              .stage(n % 2 == 0 ? "COMPUTATION" : "COMMUNICATION")
              .rootCause(cause)
              .confidence("rootCause", low("rootCause")));
    }
    assertEquals(List.of(), run("top-root-causes-per-stage", "mode", "confident"));
    List<Map<String, Object>> rows = run("top-root-causes-per-stage");
    insideIntervals(rows);
    List<Map<String, Object>> communication =
        rows.stream().filter(r -> r.get("code").equals("COMMUNICATION")).toList();
    // COMMUNICATION: issues 1, 3, 5 (API_MISUSE), 7 (CONFIGURATION_ERROR), 9 (NUMERICAL_ISSUE)
    assertEquals("API_MISUSE", communication.get(0).get("code2"));
    assertTrue(communication.size() <= 5, "at most limit per stage");
    for (int i = 0; i < communication.size(); i++) {
      assertEquals((long) i + 1, communication.get(i).get("rank"));
      if (i > 0) {
        assertTrue(
            number(communication.get(i - 1), "estimate")
                >= number(communication.get(i), "estimate"));
      }
    }
    assertEquals(
        1,
        run("top-root-causes-per-stage", "limit", "1").stream()
            .filter(r -> r.get("code").equals("COMMUNICATION"))
            .count());
  }

  @Test
  void stageSymptomCellsAreEstimatesAndConfidentModeCountsLabelsAboveTheBar() {
    graph.create(
        issue("o/m#1").stage("COMPUTATION").symptom("HANG"),
        issue("o/m#2").stage("COMPUTATION").symptom("HANG"),
        issue("o/m#3").stage("COMPUTATION").symptom("HANG").confidence("symptom", low("symptom")),
        issue("o/m#4").stage("COMMUNICATION").symptom("RUNTIME_CRASH"),
        issue("o/m#5").kind("QUESTION").stage("COMMUNICATION").symptom("NONE"));
    List<Map<String, Object>> counted = run("stage-symptom-matrix", "mode", "confident");
    assertEquals(
        List.of(
            List.of("COMMUNICATION", "RUNTIME_CRASH", 1.0), List.of("COMPUTATION", "HANG", 2.0)),
        counted.stream()
            .map(r -> List.of(r.get("code"), r.get("code2"), r.get("estimate")))
            .sorted(java.util.Comparator.comparing(Object::toString))
            .toList());
    for (int n = 1; n <= 5; n++) {
      boolean bug = n < 5;
      probabilities(
          "o/m#" + n,
          Dimension.KIND,
          bug ? Map.of("BUG", 0.95, "QUESTION", 0.05) : Map.of("QUESTION", 1.0));
      probabilities(
          "o/m#" + n,
          Dimension.STAGE,
          n <= 3 ? Map.of("COMPUTATION", 0.9, "MEMORY", 0.1) : Map.of("COMMUNICATION", 1.0));
      probabilities(
          "o/m#" + n,
          Dimension.SYMPTOM,
          !bug
              ? Map.of("NONE", 1.0)
              : n <= 3
                  ? Map.of("HANG", 0.95, "NONE", 0.05)
                  : Map.of("RUNTIME_CRASH", 0.95, "NONE", 0.05));
    }
    List<Map<String, Object>> rows = run("stage-symptom-matrix");
    insideIntervals(rows);
    Map<String, Object> hang =
        rows.stream()
            .filter(r -> r.get("code").equals("COMPUTATION") && r.get("code2").equals("HANG"))
            .findFirst()
            .orElseThrow();
    // three bug reports labelled so (one below the bar): 3 × .95 × .9 expected, not the 2 counted
    assertEquals(3 * 0.95 * 0.9, number(hang, "estimate"), 0.051);
  }

  @Test
  void headlineTopCategoriesRankEstimatesAmongBugReports() {
    for (int n = 1; n <= 7; n++) {
      graph.create(issue("o/h#" + n).symptom(n <= 5 ? "HANG" : "RUNTIME_CRASH"));
    }
    graph.create(issue("o/h#8").symptom("RUNTIME_CRASH").confidence("kind", low("kind")));
    List<Map<String, Object>> rows = run("headline-top-categories", "limit", "2");
    insideIntervals(rows);
    assertEquals(List.of("HANG", "RUNTIME_CRASH"), column(rows, "code"));
    assertEquals(List.of(1L, 2L), column(rows, "rank"));
    assertEquals(
        List.of(5.0, 2.0), column(run("headline-top-categories", "mode", "confident"), "estimate"));
  }

  @Test
  void newBugsPerReleaseListEveryReleaseWithExpectedBugReportsAndOpenOnes() {
    graph.release("deepspeed", "0.1.0", "2024-01-01T00:00:00Z", false);
    graph.release("deepspeed", "0.2.0", "2024-02-01T00:00:00Z", false);
    graph.create(
        issue("o/n#1").release("deepspeed@0.1.0"),
        issue("o/n#2").release("deepspeed@0.1.0").state("closed").closedAt("2024-01-05T00:00:00Z"),
        issue("o/n#3").release("deepspeed@0.1.0").confidence("kind", low("kind")),
        issue("o/n#4").release("deepspeed@0.1.0").kind("QUESTION"));
    for (int n = 1; n <= 4; n++) {
      probabilities(
          "o/n#" + n,
          Dimension.KIND,
          n == 4 ? Map.of("QUESTION", 0.9, "BUG", 0.1) : Map.of("BUG", 0.9, "QUESTION", 0.1));
    }
    List<Map<String, Object>> rows = run("new-bugs-per-release");
    assertEquals(List.of("deepspeed@0.1.0", "deepspeed@0.2.0"), column(rows, "release"));
    Map<String, Object> first = rows.get(0);
    assertEquals(3 * 0.9 + 0.1, number(first, "estimate"), 0.051);
    assertEquals(2 * 0.9 + 0.1, number(first, "openEstimate"), 0.051);
    assertTrue(String.valueOf(first.get("method")).startsWith("pcc"));
    assertTrue(
        number(first, "openLow") <= number(first, "openEstimate")
            && number(first, "openEstimate") <= number(first, "openHigh"));
    assertTrue(number(first, "openEstimate") < number(first, "estimate"));
    assertEquals(4L, first.get("inScope"));
    Map<String, Object> empty = rows.get(1);
    assertEquals(0.0, empty.get("estimate"));
    assertEquals(0L, empty.get("inScope"));
    assertNull(empty.get("share"));
    assertTrue(String.valueOf(empty.get("note")).startsWith("too few to estimate"));
    List<Map<String, Object>> counted = run("new-bugs-per-release", "mode", "confident");
    assertEquals(List.of(2.0, 0.0), column(counted, "estimate"));
    assertEquals(
        List.of(1.0, 0.0),
        column(counted, "openEstimate").subList(0, 2).stream()
            .map(v -> v == null ? 0.0 : v)
            .toList());
  }

  @Test
  void openBugsByAgeListEveryBucket() {
    graph.create(
        issue("o/a#1").createdAt("2024-05-30T00:00:00Z"),
        issue("o/a#2").createdAt("2024-01-01T00:00:00Z"),
        issue("o/a#3").createdAt("2024-05-20T00:00:00Z").kind("QUESTION"));
    List<Map<String, Object>> rows = run("open-bugs-by-age", "asOf", "2024-06-01T00:00:00Z");
    assertEquals(
        List.of("under 1 week", "1-4 weeks", "1-3 months", "3-12 months", "over 1 year"),
        column(rows, "bucket"));
    assertEquals(List.of(1L, 1L, 0L, 1L, 0L), column(rows, "inScope"));
    assertTrue(number(rows.get(0), "estimate") > 0.5);
    assertTrue(number(rows.get(1), "estimate") < 0.5, "a question is hardly a bug report");
    for (Map<String, Object> r : rows) {
      double e = number(r, "estimate");
      assertTrue(number(r, "estimateLow") <= e && e <= number(r, "estimateHigh"), r.toString());
    }
    assertEquals(
        List.of(1.0, 0.0, 0.0, 1.0, 0.0),
        column(
            run("open-bugs-by-age", "asOf", "2024-06-01T00:00:00Z", "mode", "confident"),
            "estimate"));
  }

  @Test
  void distributedSpecificShareIsEstimatedOverallThenPerFramework() {
    for (int n = 1; n <= 6; n++) {
      graph.create(issue("o/d#" + n).distributedSpecific(n <= 4));
    }
    for (int n = 1; n <= 4; n++) {
      graph.create(
          issue("o/g#" + n)
              .framework("megatron-lm")
              .distributedSpecific(n == 1)
              .confidence("distributedSpecific", low("distributedSpecific")));
    }
    List<Map<String, Object>> rows = run("distributed-specific-share");
    insideIntervals(rows);
    assertEquals(List.of("overall", "framework", "framework"), column(rows, "scope"));
    assertEquals(
        java.util.Arrays.asList(null, "deepspeed", "megatron-lm"), column(rows, "framework"));
    assertEquals(10L, rows.get(0).get("inScope"));
    List<Map<String, Object>> counted = run("distributed-specific-share", "mode", "confident");
    assertEquals(List.of(4.0, 4.0, 0.0), column(counted, "estimate"));
  }

  @Test
  void theHeadlineEstimatesBugReportsAndOpenOnesWhereCountingLabelsMissesTheUnsure() {
    graph.create(
        issue("o/h#1"),
        issue("o/h#2").state("closed").closedAt("2024-01-05T00:00:00Z"),
        issue("o/h#3").confidence("kind", low("kind")),
        issue("o/h#4").kind("QUESTION"));
    for (int n = 1; n <= 4; n++) {
      probabilities(
          "o/h#" + n,
          Dimension.KIND,
          n == 4 ? Map.of("QUESTION", 0.8, "BUG", 0.2) : Map.of("BUG", 0.9, "QUESTION", 0.1));
    }
    List<Map<String, Object>> rows = run("headline-summary");
    insideIntervals(rows);
    Map<String, Object> bugs = rows.get(0);
    assertEquals("BUG", bugs.get("code"));
    assertEquals(3 * 0.9 + 0.2, number(bugs, "estimate"), 0.051);
    assertEquals(2 * 0.9 + 0.2, number(bugs, "openEstimate"), 0.051);
    assertEquals(4L, bugs.get("inScope"));
    assertEquals(2L, bugs.get("labelled"), "#3's BUG label is below the bar");
    Map<String, Object> counted = run("headline-summary", "mode", "confident").get(0);
    assertEquals(2.0, counted.get("estimate"));
    assertEquals(1.0, counted.get("openEstimate"));
  }

  @Test
  void theHeadlineClosingFiguresWeighClosedIssuesAndFixingChangesByTheirProbabilityOfABug() {
    // days to close 1 and 2 (questions, P(bug) .2), 3 (a bug report whose label is below the bar),
    // 4, 10, 30 (bug reports), and one open bug report
    String[][] closedAt = {
      {"1", "2024-01-02T00:00:00Z"},
      {"2", "2024-01-03T00:00:00Z"},
      {"3", "2024-01-04T00:00:00Z"},
      {"4", "2024-01-05T00:00:00Z"},
      {"5", "2024-01-11T00:00:00Z"},
      {"6", "2024-01-31T00:00:00Z"}
    };
    for (String[] c : closedAt) {
      int n = Integer.parseInt(c[0]);
      dev.faultline.graph.testing.GraphFixture.Issue i =
          issue("o/c#" + n).createdAt("2024-01-01T00:00:00Z").state("closed").closedAt(c[1]);
      if (n <= 2) {
        i = i.kind("QUESTION");
      }
      if (n == 3) {
        i = i.confidence("kind", low("kind"));
      }
      graph.create(i);
    }
    graph.create(issue("o/c#7").createdAt("2024-01-01T00:00:00Z"));
    for (int n = 1; n <= 7; n++) {
      probabilities(
          "o/c#" + n,
          Dimension.KIND,
          n <= 2 ? Map.of("QUESTION", 0.8, "BUG", 0.2) : Map.of("BUG", 0.9, "QUESTION", 0.1));
    }
    graph.create(
        pr("o/c#101").fixes("o/c#4").lines(5L, 3L),
        pr("o/c#102").fixes("o/c#5", "o/c#1").lines(30L, 20L),
        pr("o/c#103").fixes("o/c#6").lines(2L, 1L),
        pr("o/c#104").fixes("o/c#2").lines(1L, 1L),
        pr("o/c#105").fixes("o/c#3").lines(4L, 4L),
        pr("o/c#106").fixes("o/c#5").lines(1L, 0L).merged(false));
    List<Map<String, Object>> rows = run("headline-closing");
    assertEquals(List.of("medianDaysToClose", "smallFixShare"), column(rows, "metric"));
    Map<String, Object> median = rows.get(0);
    // weights .2, .2, .9, .9, .9, .9 over 1, 2, 3, 4, 10, 30 days: half of 4.0 is first reached at
    // 4
    // (every closed issue's median: 3.5; the confident bug reports': 10; the BUG labels': 7)
    assertEquals(4.0, median.get("estimate"));
    assertTrue(number(median, "low") <= 4 && 4 <= number(median, "high"), median.toString());
    assertEquals(4.0, number(median, "basis"), 0.05);
    assertEquals(3L, median.get("labelled"));
    assertEquals(0.5, median.get("coverage"));
    Map<String, Object> small = rows.get(1);
    // changes weighted .9, 1 - .1 x .8 = .92, .9, .2, .9; all small (<= 10 lines) but #102: 2.9 of
    // 3.82 (the unmerged #106 left out)
    assertEquals(2.9 / 3.82, number(small, "estimate"), 0.005);
    double share = number(small, "estimate");
    assertTrue(number(small, "low") <= share && share <= number(small, "high"), small.toString());
    assertEquals(3L, small.get("labelled"));
    assertEquals(
        1.1 / 3.82, number(run("headline-closing", "maxLines", "4").get(1), "estimate"), 0.005);
    // labels counted: the confident bug reports #4, #5, #6 and the changes fixing them
    List<Map<String, Object>> counted = run("headline-closing", "mode", "confident");
    assertEquals(10.0, counted.get(0).get("estimate"));
    assertNull(counted.get(0).get("low"));
    assertEquals(0.6667, counted.get(1).get("estimate"));
    assertEquals(7.0, run("headline-closing", "mode", "all").get(0).get("estimate"));
    // a scope with no closed bug report says so
    Map<String, Object> none = run("headline-closing", "framework", "vllm").get(0);
    assertNull(none.get("estimate"));
    assertEquals("too few to estimate (≈ 0.0 in the base)", none.get("note"));
  }
}
