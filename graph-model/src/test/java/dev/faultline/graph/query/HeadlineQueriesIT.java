package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.testing.GraphFixture;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The seeds' headline figures and tables recomputed from a graph of six issues and four PRs. */
class HeadlineQueriesIT extends QueryITBase {

  @BeforeEach
  void sixIssues() {
    graph.create(
        bug("o/ds#1", "HANG", "DISTRIBUTED_COMMUNICATION_ERROR", true, "TRAINING")
            .closedAt("2024-01-03T00:00:00Z"),
        bug("o/ds#2", "HANG", "CONFIGURATION_ERROR", true, "INFERENCE")
            .closedAt("2024-01-05T00:00:00Z"),
        bug("o/ds#3", "OUT_OF_MEMORY", "ALLOCATION_STRATEGY_ERROR", false, "TRAINING"),
        bug("o/ds#4", "INCORRECT_OUTPUT", "UNKNOWN", null, "UNKNOWN")
            .closedAt("2024-01-11T00:00:00Z"),
        bug("o/mg#5", "HANG", "DISTRIBUTED_COMMUNICATION_ERROR", true, "BOTH")
            .framework("megatron-lm")
            .closedAt("2024-01-02T00:00:00Z"),
        issue("o/ds#6")
            .kind("QUESTION")
            .symptom("NONE")
            .phase("TRAINING")
            .distributedSpecific(true));
    graph.create(
        pr("o/ds#101").fixes("o/ds#1").lines(5L, 3L),
        pr("o/ds#102").fixes("o/ds#2", "o/ds#3").lines(30L, 20L),
        pr("o/mg#103").fixes("o/mg#5").lines(2L, 2L),
        pr("o/ds#104").fixes("o/ds#4").lines(1L, 0L).merged(false));
  }

  private static GraphFixture.Issue bug(
      String id, String symptom, String rootCause, Boolean distributed, String phase) {
    return issue(id)
        .createdAt("2024-01-01T00:00:00Z")
        .symptom(symptom)
        .rootCause(rootCause)
        .distributedSpecific(distributed)
        .phase(phase);
  }

  @Test
  void theHeadlineGivesItsEstimatorEveryIssueOfTheScopeWithWhetherItIsOpen() {
    // the estimates and mode=confident: the estimate module's ViewQueriesIT
    List<Map<String, Object>> rows = run("headline-summary");
    assertEquals(
        List.of("o/ds#1", "o/ds#2", "o/ds#3", "o/ds#4", "o/ds#6", "o/mg#5"),
        column(rows, "id").stream().map(String::valueOf).sorted().toList());
    assertEquals(
        List.of("o/ds#3", "o/ds#6"),
        rows.stream()
            .filter(r -> Boolean.TRUE.equals(r.get("open")))
            .map(r -> String.valueOf(r.get("id")))
            .sorted()
            .toList());
    assertEquals(
        List.of("o/mg#5"), column(run("headline-summary", "framework", "megatron-lm"), "id"));
    assertEquals(List.of(), run("headline-summary", "framework", "vllm"));
  }

  @Test
  void topCategoriesGiveTheirEstimatorEveryIssueWithItsCodeOfTheDimension() {
    // the ranking by expected count, the limit and mode=confident: the estimate module's
    // ViewQueriesIT
    List<Map<String, Object>> rows = run("headline-top-categories");
    assertEquals(
        column(run("headline-top-categories", "dimension", "rootCause"), "id"),
        column(rows, "id"),
        "the same issues whatever the dimension");
    assertTrue(column(rows, "top").contains("HANG"));
    assertTrue(
        column(run("headline-top-categories", "dimension", "rootCause"), "top")
            .contains("DISTRIBUTED_COMMUNICATION_ERROR"));
  }

  @Test
  void theClosingFiguresGetEveryIssueWithItsDaysToCloseAndTheMergedChangesFixingIt() {
    // the weighted median and share: the estimate module's ViewQueriesIT
    Map<String, Map<String, Object>> byId = new java.util.TreeMap<>();
    run("headline-closing").forEach(r -> byId.put(String.valueOf(r.get("id")), r));
    assertEquals(
        List.of("o/ds#1", "o/ds#2", "o/ds#3", "o/ds#4", "o/ds#6", "o/mg#5"),
        List.copyOf(byId.keySet()));
    assertEquals(2.0, ((Number) byId.get("o/ds#1").get("daysToClose")).doubleValue(), 1e-9);
    assertEquals(10.0, ((Number) byId.get("o/ds#4").get("daysToClose")).doubleValue(), 1e-9);
    assertEquals(null, byId.get("o/ds#3").get("daysToClose"), "open");
    assertEquals(List.of(Map.of("id", "o/ds#101", "lines", 8L)), byId.get("o/ds#1").get("fixes"));
    // one change fixing two issues is listed with each; an unmerged one with none
    assertEquals(List.of(Map.of("id", "o/ds#102", "lines", 50L)), byId.get("o/ds#3").get("fixes"));
    assertEquals(List.of(), byId.get("o/ds#4").get("fixes"));
    assertEquals(
        List.of("o/mg#5"), column(run("headline-closing", "framework", "megatron-lm"), "id"));
  }
}
