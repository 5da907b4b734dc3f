package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.testing.GraphFixture;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stage, symptom, root-cause and fix-pattern aggregates over a graph of eight issues and five PRs.
 */
class ClassificationQueriesIT extends QueryITBase {

  @BeforeEach
  void eightIssues() {
    graph.create(
        bug(
                "o/ds#1",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .closedAt("2024-01-11T00:00:00Z"),
        bug(
                "o/ds#2",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .closedAt("2024-01-03T00:00:00Z"),
        bug(
            "o/ds#3",
            "COMMUNICATION_FAILURE",
            "COMMUNICATION",
            "CONFIGURATION_ERROR",
            "PARAMETER_HANDLING",
            true),
        bug(
                "o/ds#4",
                "OUT_OF_MEMORY",
                "MEMORY",
                "ALLOCATION_STRATEGY_ERROR",
                "CONDITIONAL_LOGIC",
                false)
            .closedAt("2024-01-05T00:00:00Z"),
        bug("o/ds#5", "OUT_OF_MEMORY", "MEMORY", "UNKNOWN", "UNKNOWN", null),
        bug("o/mg#6", "HANG", "INITIALIZATION", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", true)
            .framework("megatron-lm")
            .closedAt("2024-01-07T00:00:00Z"),
        bug(
                "o/ds#7",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .state("deleted"),
        issue("o/ds#8").kind("QUESTION").symptom("NONE").createdAt("2024-01-01T00:00:00Z"));
    graph.create(
        pr("o/ds#101").fixes("o/ds#1", "o/ds#2").lines(5L, 3L),
        pr("o/ds#102").fixes("o/ds#4").lines(40L, 20L),
        pr("o/ds#103").fixes("o/ds#3").lines(1L, 1L).merged(false),
        pr("o/mg#104").fixes("o/mg#6").lines(2L, 2L),
        pr("o/ds#105").fixes("o/ds#1").lines(null, null));
  }

  private static GraphFixture.Issue bug(
      String id,
      String symptom,
      String stage,
      String rootCause,
      String fixPattern,
      Boolean distributed) {
    return issue(id)
        .createdAt("2024-01-01T00:00:00Z")
        .symptom(symptom)
        .stage(stage)
        .rootCause(rootCause)
        .fixPattern(fixPattern)
        .distributedSpecific(distributed);
  }

  /** (id, top, top2) of an estimated pair query's statement rows, by id. */
  private List<List<Object>> pairs(String query, String... params) {
    return run(query, params).stream()
        .map(r -> List.of(r.get("id"), r.get("top"), r.get("top2")))
        .sorted(java.util.Comparator.comparing(Object::toString))
        .toList();
  }

  @Test
  void theMatrixGivesItsEstimatorEveryIssueOfAnyKindWithItsStageAndSymptom() {
    // the estimates and the counts of mode=confident: the estimate module's ViewQueriesIT
    assertEquals(
        List.of(
            List.of("o/ds#1", "COMMUNICATION", "HANG"),
            List.of("o/ds#2", "COMMUNICATION", "HANG"),
            List.of("o/ds#3", "COMMUNICATION", "COMMUNICATION_FAILURE"),
            List.of("o/ds#4", "MEMORY", "OUT_OF_MEMORY"),
            List.of("o/ds#5", "MEMORY", "OUT_OF_MEMORY"),
            List.of("o/ds#8", "UNKNOWN", "NONE"),
            List.of("o/mg#6", "INITIALIZATION", "HANG")),
        pairs("stage-symptom-matrix"));
  }

  @Test
  void restrictsTheMatrixToOneFrameworkAndDateRange() {
    assertEquals(
        List.of(List.of("o/mg#6", "INITIALIZATION", "HANG")),
        pairs("stage-symptom-matrix", "framework", "megatron-lm"));
    assertEquals(List.of(), pairs("stage-symptom-matrix", "from", "2024-02-01"));
  }

  @Test
  void rootCausesPerStageGiveTheirEstimatorEveryIssueWithItsStageAndRootCause() {
    // the ranking by expected count and the limit: the estimate module's ViewQueriesIT
    List<List<Object>> rows = pairs("top-root-causes-per-stage");
    assertEquals(7, rows.size(), "every issue but the deleted one");
    assertEquals(
        List.of("o/ds#1", "COMMUNICATION", "DISTRIBUTED_COMMUNICATION_ERROR"), rows.get(0));
    assertEquals(List.of("o/ds#5", "MEMORY", "UNKNOWN"), rows.get(4));
  }

  @Test
  void pathsGiveTheirEstimatorEveryIssueWithItsSymptomRootCauseAndFixPattern() {
    // the estimates and the counts of mode=confident: the estimate module's FixQueriesTest
    List<List<Object>> rows =
        run("symptom-cause-fix-paths").stream()
            .map(r -> List.of(r.get("id"), r.get("top"), r.get("top2"), r.get("top3")))
            .sorted(java.util.Comparator.comparing(Object::toString))
            .toList();
    assertEquals(7, rows.size(), "every issue but the deleted one");
    assertEquals(
        List.of("o/ds#1", "HANG", "DISTRIBUTED_COMMUNICATION_ERROR", "DISTRIBUTED_TUNING"),
        rows.get(0));
    assertEquals(
        List.of("o/mg#6", "HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING"), rows.get(6));
    assertEquals(
        List.of(),
        run("symptom-cause-fix-paths", "from", "2024-02-01"),
        "the filters restrict the issues");
  }

  @Test
  void theDistributedShareGivesItsEstimatorEveryIssueOverallThenInItsFramework() {
    // the estimates and the counts of mode=confident: the estimate module's ViewQueriesIT
    List<Map<String, Object>> rows = run("distributed-specific-share");
    assertEquals(14, rows.size(), "seven issues, each overall and in its framework");
    assertEquals(
        List.of("overall", "framework"), column(rows, "scope").stream().distinct().toList());
    assertEquals(
        java.util.Arrays.asList(null, "deepspeed", "megatron-lm"),
        column(rows, "framework").stream().distinct().toList());
    Map<String, Object> first = rows.get(0);
    assertEquals("o/ds#1", first.get("id"));
    assertEquals("true", first.get("top"));
    assertEquals(
        List.of("o/mg#6"),
        rows.stream()
            .filter(r -> "megatron-lm".equals(r.get("framework")))
            .map(r -> r.get("id"))
            .toList());
  }

  /** The columns of fix-effort-by-category's statement rows a test reads, by id. */
  private List<List<Object>> effort(String... params) {
    return run("fix-effort-by-category", params).stream()
        .map(
            r ->
                java.util.Arrays.asList(
                    r.get("id"),
                    r.get("kind"),
                    r.get("top"),
                    r.get("closed"),
                    r.get("days"),
                    r.get("fixed"),
                    r.get("smallFix")))
        .sorted(java.util.Comparator.comparing(Object::toString))
        .toList();
  }

  @Test
  void fixEffortGivesItsEstimatorEveryIssueWithItsDaysToCloseAndWhetherASmallMergedChangeFixesIt() {
    // the estimates and the counts of mode=confident: the estimate module's FixQueriesIT. #101
    // (8 lines) fixes #1 and #2, #102 (60) #4, #103 (not merged) #3, #104 (4) mg#6, #105 (no size)
    // #1
    assertEquals(
        List.of(
            java.util.Arrays.asList("o/ds#1", "BUG", "HANG", true, 10.0, true, true),
            java.util.Arrays.asList("o/ds#2", "BUG", "HANG", true, 2.0, true, true),
            java.util.Arrays.asList(
                "o/ds#3", "BUG", "COMMUNICATION_FAILURE", false, null, false, false),
            java.util.Arrays.asList("o/ds#4", "BUG", "OUT_OF_MEMORY", true, 4.0, true, false),
            java.util.Arrays.asList("o/ds#5", "BUG", "OUT_OF_MEMORY", false, null, false, false),
            java.util.Arrays.asList("o/ds#8", "QUESTION", "NONE", false, null, false, false),
            java.util.Arrays.asList("o/mg#6", "BUG", "HANG", true, 6.0, true, true)),
        effort());
  }

  @Test
  void fixEffortPerStageForOneFrameworkWithAnotherLineLimit() {
    List<List<Object>> rows =
        effort("dimension", "stage", "framework", "deepspeed", "maxLines", "100");
    assertEquals(6, rows.size(), "deepspeed's issues but the deleted one");
    assertEquals(
        java.util.Arrays.asList("o/ds#4", "BUG", "MEMORY", true, 4.0, true, true),
        rows.get(3),
        "60 lines is small with maxLines 100");
  }
}
