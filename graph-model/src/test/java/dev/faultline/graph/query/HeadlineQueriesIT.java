package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.testing.GraphFixture;
import java.util.Arrays;
import java.util.List;
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
  void recomputesTheHeadlineFiguresOverBugReports() {
    assertEquals(
        List.of(
            row(
                "metric",
                "bugs",
                "value",
                5.0,
                "numerator",
                5L,
                "denominator",
                null,
                "description",
                "bug reports in scope"),
            row(
                "metric",
                "distributedSpecificShare",
                "value",
                0.75,
                "numerator",
                3L,
                "denominator",
                4L,
                "description",
                "distributed-specific bugs / bugs where it is known"),
            row(
                "metric",
                "smallFixShare",
                "value",
                0.6667,
                "numerator",
                2L,
                "denominator",
                3L,
                "description",
                "merged fixes with additions + deletions <= maxLines / merged fixes of known size (PRs that close a bug report, and merged changes classified as bug fixes)"),
            row(
                "metric",
                "trainingShare",
                "value",
                0.5,
                "numerator",
                2L,
                "denominator",
                4L,
                "description",
                "TRAINING bugs / bugs with a known phase"),
            row(
                "metric",
                "inferenceShare",
                "value",
                0.25,
                "numerator",
                1L,
                "denominator",
                4L,
                "description",
                "INFERENCE bugs / bugs with a known phase"),
            row(
                "metric",
                "bothShare",
                "value",
                0.25,
                "numerator",
                1L,
                "denominator",
                4L,
                "description",
                "bugs of both phases / bugs with a known phase"),
            row(
                "metric",
                "medianDaysToClose",
                "value",
                3.0,
                "numerator",
                null,
                "denominator",
                4L,
                "description",
                "median days from opening to closing over closed bugs")),
        counts("headline-summary"));
  }

  @Test
  void recomputesTheHeadlineFiguresForOneFrameworkAndLineLimit() {
    assertEquals(
        Arrays.asList(1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0),
        column(counts("headline-summary", "framework", "megatron-lm"), "value"));
    assertEquals(1.0, counts("headline-summary", "maxLines", "50").get(2).get("value"));
  }

  @Test
  void leavesSharesUndefinedWhenNothingIsKnown() {
    assertEquals(
        Arrays.asList(0.0, null, null, null, null, null, null),
        column(counts("headline-summary", "framework", "vllm"), "value"));
  }

  @Test
  void ranksTopSymptomsWithSharesOfKnownValues() {
    assertEquals(
        List.of(
            row("rank", 1L, "category", "HANG", "bugs", 3L, "share", 0.6, "known", 5L),
            row("rank", 2L, "category", "INCORRECT_OUTPUT", "bugs", 1L, "share", 0.2, "known", 5L),
            row("rank", 3L, "category", "OUT_OF_MEMORY", "bugs", 1L, "share", 0.2, "known", 5L)),
        counts("headline-top-categories"));
  }

  @Test
  void ranksTopRootCausesLeavingOutUnknownUpToTheLimit() {
    assertEquals(
        List.of(
            row(
                "rank",
                1L,
                "category",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "bugs",
                2L,
                "share",
                0.5,
                "known",
                4L),
            row(
                "rank",
                2L,
                "category",
                "ALLOCATION_STRATEGY_ERROR",
                "bugs",
                1L,
                "share",
                0.25,
                "known",
                4L)),
        counts("headline-top-categories", "dimension", "rootCause", "limit", "2"));
  }
}
