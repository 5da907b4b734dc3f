package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.ConfidencePolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The confidence bar of the counting queries: by default (the library's policy) a label below its
 * dimension's bar is not counted, with {@code minConfidence=0} or {@code all} it is, a human-given
 * label always is, and the coverage columns say exactly how many issues in scope have labels that
 * pass.
 *
 * <p>Five bug reports of one release, opened 2024-01-01; "low" is half the default bar of the
 * dimension:
 *
 * <pre>
 * c#1  HANG, COMMUNICATION, CONFIGURATION_ERROR, DISTRIBUTED_TUNING, TRAINING, distributed  all confident, closed
 * c#2  HANG (low), COMMUNICATION, CONFIGURATION_ERROR (low), DISTRIBUTED_TUNING, TRAINING (low), distributed (low)
 * c#3  BUG label low; HANG, COMMUNICATION, CONFIGURATION_ERROR confident
 * c#4  OUT_OF_MEMORY low but human-given; MEMORY, ALLOCATION_STRATEGY_ERROR, CONDITIONAL_LOGIC, INFERENCE, not distributed
 * c#5  symptom UNKNOWN; COMMUNICATION (low)
 * </pre>
 */
class ConfidenceQueriesIT extends QueryITBase {
  private static final ConfidencePolicy DEFAULT = ConfidencePolicy.calibrated();

  private static double low(String dimension) {
    return DEFAULT.bar(dimension) / 2;
  }

  @BeforeEach
  void fiveBugs() {
    graph.release("deepspeed", "0.14.0", "2023-12-01T00:00:00Z", false);
    graph.create(
        issue("o/c#1")
            .release("deepspeed@0.14.0")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .rootCause("CONFIGURATION_ERROR")
            .fixPattern("DISTRIBUTED_TUNING")
            .phase("TRAINING")
            .distributedSpecific(true)
            .closedAt("2024-01-03T00:00:00Z"),
        issue("o/c#2")
            .release("deepspeed@0.14.0")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .rootCause("CONFIGURATION_ERROR")
            .fixPattern("DISTRIBUTED_TUNING")
            .phase("TRAINING")
            .distributedSpecific(true)
            .confidence("symptom", low("symptom"))
            .confidence("rootCause", low("rootCause"))
            .confidence("phase", low("phase"))
            .confidence("distributedSpecific", low("distributedSpecific")),
        issue("o/c#3")
            .release("deepspeed@0.14.0")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .rootCause("CONFIGURATION_ERROR")
            .confidence("kind", low("kind")),
        issue("o/c#4")
            .release("deepspeed@0.14.0")
            .symptom("OUT_OF_MEMORY")
            .stage("MEMORY")
            .rootCause("ALLOCATION_STRATEGY_ERROR")
            .fixPattern("CONDITIONAL_LOGIC")
            .phase("INFERENCE")
            .distributedSpecific(false)
            .confidence("symptom", low("symptom"))
            .humanGiven("symptom"),
        issue("o/c#5")
            .release("deepspeed@0.14.0")
            .stage("COMMUNICATION")
            .confidence("stage", low("stage")));
    graph.create(pr("o/c#101").fixes("o/c#1"), pr("o/c#102").fixes("o/c#2"));
  }

  @Test
  void theMatrixCountsOnlyConfidentStageAndSymptomByDefaultAndEveryLabelWithBarZero() {
    assertEquals(
        List.of(
            row(
                "stage",
                "COMMUNICATION",
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "issues",
                2L,
                "shareOfStage",
                1.0,
                "inScope",
                5L,
                "labelled",
                3L,
                "coverage",
                0.6),
            row(
                "stage",
                "MEMORY",
                "symptomClass",
                "CRASH",
                "symptom",
                "OUT_OF_MEMORY",
                "issues",
                1L,
                "shareOfStage",
                1.0,
                "inScope",
                5L,
                "labelled",
                3L,
                "coverage",
                0.6)),
        run("stage-symptom-matrix"));
    List<Map<String, Object>> all =
        List.of(
            row(
                "stage",
                "COMMUNICATION",
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "issues",
                3L,
                "shareOfStage",
                1.0,
                "inScope",
                5L,
                "labelled",
                4L,
                "coverage",
                0.8),
            row(
                "stage",
                "MEMORY",
                "symptomClass",
                "CRASH",
                "symptom",
                "OUT_OF_MEMORY",
                "issues",
                1L,
                "shareOfStage",
                1.0,
                "inScope",
                5L,
                "labelled",
                4L,
                "coverage",
                0.8));
    assertEquals(all, run("stage-symptom-matrix", "minConfidence", "0"));
    assertEquals(all, run("stage-symptom-matrix", "minConfidence", "all"));
    assertEquals(all, run("stage-symptom-matrix", "minConfidence", "null"));
  }

  @Test
  void aHumanGivenLabelPassesAnyBar() {
    // (category-trends: the estimate module's CategoryTrendsIT)
    assertEquals(List.of(), run("stage-symptom-matrix", "minConfidence", "1"));
  }

  @Test
  void headlineFiguresCountConfidentBugsAndSayHowManyTheyCover() {
    Map<String, Map<String, Object>> byMetric = byMetric(run("headline-summary"));
    assertEquals(
        row(
            "metric",
            "bugs",
            "value",
            4.0,
            "numerator",
            4L,
            "denominator",
            null,
            "description",
            "bug reports in scope",
            "inScope",
            5L,
            "labelled",
            4L,
            "coverage",
            0.8),
        byMetric.get("bugs"));
    assertEquals(List.of(0.5, 1L, 2L, 2L, 0.4), figures(byMetric.get("distributedSpecificShare")));
    assertEquals(List.of(0.5, 1L, 2L, 2L, 0.4), figures(byMetric.get("trainingShare")));
    // Fixing PRs count by the BUG label alone: c#2's PR is in, its symptom's confidence does not
    // matter here.
    assertEquals(List.of(1.0, 2L, 2L, 4L, 0.8), figures(byMetric.get("smallFixShare")));

    Map<String, Map<String, Object>> all =
        byMetric(run("headline-summary", "minConfidence", "all"));
    assertEquals(java.util.Arrays.asList(5.0, 5L, null, 5L, 1.0), figures(all.get("bugs")));
    assertEquals(List.of(0.6667, 2L, 3L, 3L, 0.6), figures(all.get("distributedSpecificShare")));
    assertEquals(List.of(0.6667, 2L, 3L, 3L, 0.6), figures(all.get("trainingShare")));
    assertEquals(List.of(1.0, 2L, 2L, 5L, 1.0), figures(all.get("smallFixShare")));
  }

  @Test
  void topCategoriesRankOnlyConfidentLabels() {
    assertEquals(
        List.of(
            row(
                "rank",
                1L,
                "category",
                "HANG",
                "bugs",
                1L,
                "share",
                0.5,
                "known",
                2L,
                "inScope",
                5L,
                "labelled",
                2L,
                "coverage",
                0.4),
            row(
                "rank",
                2L,
                "category",
                "OUT_OF_MEMORY",
                "bugs",
                1L,
                "share",
                0.5,
                "known",
                2L,
                "inScope",
                5L,
                "labelled",
                2L,
                "coverage",
                0.4)),
        run("headline-top-categories"));
    assertEquals(
        List.of(
            row(
                "rank",
                1L,
                "category",
                "HANG",
                "bugs",
                3L,
                "share",
                0.75,
                "known",
                4L,
                "inScope",
                5L,
                "labelled",
                4L,
                "coverage",
                0.8),
            row(
                "rank",
                2L,
                "category",
                "OUT_OF_MEMORY",
                "bugs",
                1L,
                "share",
                0.25,
                "known",
                4L,
                "inScope",
                5L,
                "labelled",
                4L,
                "coverage",
                0.8)),
        run("headline-top-categories", "minConfidence", "0"));
  }

  @Test
  void releasesAndOpenBugsCountConfidentBugLabels() {
    assertEquals(
        List.of(
            row(
                "framework",
                "deepspeed",
                "release",
                "deepspeed@0.14.0",
                "version",
                "0.14.0",
                "tag",
                "v0.14.0",
                "publishedAt",
                "2023-12-01T00:00:00Z",
                "prerelease",
                false,
                "bugs",
                4L,
                "openBugs",
                3L,
                "inScope",
                5L,
                "labelled",
                4L,
                "coverage",
                0.8)),
        run("new-bugs-per-release"));
    assertEquals(List.of(5L), column(run("new-bugs-per-release", "minConfidence", "0"), "bugs"));
    Map<String, Object> week = run("open-bugs-by-age", "asOf", "2024-01-02").get(0);
    assertEquals(
        List.of(3L, 4L, 3L, 0.75),
        List.of(
            week.get("openBugs"), week.get("inScope"), week.get("labelled"), week.get("coverage")));
    assertEquals(
        4L,
        run("open-bugs-by-age", "asOf", "2024-01-02", "minConfidence", "all")
            .get(0)
            .get("openBugs"));
  }

  @Test
  void theDistributedShareIsOverConfidentLabelsOnly() {
    assertEquals(
        row(
            "scope",
            "overall",
            "framework",
            null,
            "issues",
            5L,
            "distributedSpecific",
            1L,
            "notDistributedSpecific",
            1L,
            "undetermined",
            3L,
            "share",
            0.5,
            "labelled",
            2L,
            "coverage",
            0.4),
        run("distributed-specific-share").get(0));
    assertEquals(
        row(
            "scope",
            "overall",
            "framework",
            null,
            "issues",
            5L,
            "distributedSpecific",
            2L,
            "notDistributedSpecific",
            1L,
            "undetermined",
            2L,
            "share",
            0.6667,
            "labelled",
            3L,
            "coverage",
            0.6),
        run("distributed-specific-share", "minConfidence", "0").get(0));
  }

  @Test
  void rootCausesPathsAndFixEffortNeedEveryCountedLabelConfident() {
    assertEquals(
        List.of(
            List.of("COMMUNICATION", "CONFIGURATION_ERROR", 2L, 3L, 0.6),
            List.of("MEMORY", "ALLOCATION_STRATEGY_ERROR", 1L, 3L, 0.6)),
        run("top-root-causes-per-stage").stream()
            .map(
                r ->
                    List.of(
                        r.get("stage"),
                        r.get("rootCause"),
                        r.get("issues"),
                        r.get("labelled"),
                        r.get("coverage")))
            .toList());
    assertEquals(
        List.of(3L, 1L), column(run("top-root-causes-per-stage", "minConfidence", "0"), "issues"));

    assertEquals(
        List.of(
            List.of("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", 1L, 2L, 0.4),
            List.of(
                "OUT_OF_MEMORY", "ALLOCATION_STRATEGY_ERROR", "CONDITIONAL_LOGIC", 1L, 2L, 0.4)),
        paths(run("symptom-cause-fix-paths")));
    assertEquals(
        List.of(
            List.of("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", 2L, 3L, 0.6),
            List.of(
                "OUT_OF_MEMORY", "ALLOCATION_STRATEGY_ERROR", "CONDITIONAL_LOGIC", 1L, 3L, 0.6)),
        paths(run("symptom-cause-fix-paths", "minConfidence", "0")));

    assertEquals(
        List.of(
            row(
                "category",
                "HANG",
                "bugs",
                1L,
                "closed",
                1L,
                "medianDaysToClose",
                2.0,
                "fixingPrs",
                1L,
                "smallFixes",
                1L,
                "smallFixShare",
                1.0,
                "inScope",
                5L,
                "labelled",
                2L,
                "coverage",
                0.4),
            row(
                "category",
                "OUT_OF_MEMORY",
                "bugs",
                1L,
                "closed",
                0L,
                "medianDaysToClose",
                null,
                "fixingPrs",
                0L,
                "smallFixes",
                0L,
                "smallFixShare",
                null,
                "inScope",
                5L,
                "labelled",
                2L,
                "coverage",
                0.4)),
        run("fix-effort-by-category"));
    assertEquals(
        List.of(List.of("HANG", 3L, 2L), List.of("OUT_OF_MEMORY", 1L, 0L)),
        run("fix-effort-by-category", "minConfidence", "0").stream()
            .map(r -> List.of(r.get("category"), r.get("bugs"), r.get("fixingPrs")))
            .toList());
  }

  @Test
  void rejectsABarThatIsNoNumberNorAll() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("stage-symptom-matrix", "minConfidence", "high"));
    assertTrue(e.getMessage().contains("minConfidence"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> run("stage-symptom-matrix", "minConfidence", "1.5"));
  }

  private static Map<String, Map<String, Object>> byMetric(List<Map<String, Object>> rows) {
    Map<String, Map<String, Object>> m = new java.util.LinkedHashMap<>();
    rows.forEach(r -> m.put((String) r.get("metric"), r));
    return m;
  }

  /** value, numerator, denominator, labelled, coverage of one headline figure. */
  private static List<Object> figures(Map<String, Object> r) {
    return java.util.Arrays.asList(
        r.get("value"),
        r.get("numerator"),
        r.get("denominator"),
        r.get("labelled"),
        r.get("coverage"));
  }

  private static List<List<Object>> paths(List<Map<String, Object>> rows) {
    return rows.stream()
        .map(
            r ->
                List.of(
                    r.get("symptom"),
                    r.get("rootCause"),
                    r.get("fixPattern"),
                    r.get("issues"),
                    r.get("labelled"),
                    r.get("coverage")))
        .toList();
  }
}
