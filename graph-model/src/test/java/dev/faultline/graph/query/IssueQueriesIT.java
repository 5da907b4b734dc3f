package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-issue queries: similar past issues with their fixes, and the drill-down. */
class IssueQueriesIT extends QueryITBase {
  private static final String TARGET = "o/ds#10";

  private void targetAndCandidates() {
    graph.release("deepspeed", "0.14.0", "2024-01-01T00:00:00Z", false);
    graph.create(
        issue(TARGET)
            .title("NCCL watchdog timeout during allreduce")
            .createdAt("2024-03-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .rootCause("DISTRIBUTED_COMMUNICATION_ERROR")
            .phase("TRAINING")
            .distributedSpecific(true)
            .labels("nccl", "bug")
            .versions("torch@2.3.0", "deepspeed@0.14.0")
            .release("deepspeed@0.14.0")
            .humanGiven("symptom", "phase")
            .edge("symptom", 1.0, "label: hang", true)
            .edge("stage", 0.7, "allreduce in traceback", false)
            .confidence("kind", 0.9)
            .confidence("rootCause", 0.8)
            .confidence("phase", 0.6)
            .confidence("distributedSpecific", 0.7),
        issue("o/ds#1")
            .title("Watchdog timeout in allreduce (ZeRO-3)")
            .createdAt("2024-01-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .rootCause("DISTRIBUTED_COMMUNICATION_ERROR")
            .labels("bug", "nccl")
            .versions("torch@2.3.0"),
        issue("o/ds#2")
            .title("Hang at startup")
            .createdAt("2024-01-02T00:00:00Z")
            .symptom("HANG")
            .stage("INITIALIZATION")
            .labels("bug"),
        issue("o/mg#3")
            .framework("megatron-lm")
            .title("Crash in allreduce")
            .createdAt("2024-01-03T00:00:00Z")
            .symptom("RUNTIME_CRASH")
            .stage("COMMUNICATION"),
        issue("o/ds#4")
            .title("Another hang")
            .createdAt("2024-04-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION"),
        issue("o/ds#5")
            .title("NCCL allreduce OOM")
            .createdAt("2024-01-01T00:00:00Z")
            .symptom("OUT_OF_MEMORY")
            .stage("MEMORY")
            .labels("nccl"),
        issue("o/ds#6")
            .title("NCCL watchdog timeout")
            .createdAt("2024-01-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .state("deleted"));
    graph.create(
        pr("o/ds#50").fixes("o/ds#1"),
        pr("o/mg#60").fixes("o/mg#3").lines(30L, 0L),
        pr("o/ds#52").fixes(TARGET).lines(1L, 1L),
        pr("o/ds#51").fixes(TARGET).merged(false));
  }

  @Test
  void ranksPastIssuesSharingSymptomOrStageByScoreWithTheirFixes() {
    targetAndCandidates();
    List<Map<String, Object>> rows = run("similar-issues", "issue", TARGET);
    assertEquals(List.of("o/ds#1", "o/ds#2", "o/mg#3"), column(rows, "id"));
    assertEquals(List.of(14L, 5L, 3L), column(rows, "score"));
    assertEquals(
        row(
            "id",
            "o/ds#1",
            "title",
            "Watchdog timeout in allreduce (ZeRO-3)",
            "url",
            "https://github.com/o/ds/issues/1",
            "state",
            "open",
            "framework",
            "deepspeed",
            "symptom",
            "HANG",
            "stage",
            "COMMUNICATION",
            "rootCause",
            "DISTRIBUTED_COMMUNICATION_ERROR",
            "fixPattern",
            "UNKNOWN",
            "createdAt",
            "2024-01-01T00:00:00Z",
            "score",
            14L,
            "sharedLabels",
            List.of("bug", "nccl"),
            "sharedVersions",
            List.of("torch@2.3.0"),
            "sharedTitleWords",
            List.of("watchdog", "timeout", "allreduce"),
            "fixes",
            List.of(
                row(
                    "id",
                    "o/ds#50",
                    "title",
                    "Fix o/ds#50",
                    "url",
                    "https://github.com/o/ds/pull/50",
                    "merged",
                    true,
                    "mergedAt",
                    "2024-01-03T00:00:00Z",
                    "additions",
                    5L,
                    "deletions",
                    3L))),
        rows.get(0));
    assertEquals(List.of(), rows.get(1).get("fixes"));
    assertEquals(List.of("allreduce"), rows.get(2).get("sharedTitleWords"));
  }

  @Test
  void includesLaterIssuesWhenNotPastOnlyAndCutsAtTheLimit() {
    targetAndCandidates();
    assertEquals(
        List.of("o/ds#1", "o/ds#4", "o/ds#2", "o/mg#3"),
        column(run("similar-issues", "issue", TARGET, "pastOnly", "false"), "id"));
    assertEquals(
        List.of("o/ds#1", "o/ds#2"),
        column(run("similar-issues", "issue", TARGET, "limit", "2"), "id"));
  }

  @Test
  void findsNothingForAnUnknownIssueAndRequiresTheId() {
    targetAndCandidates();
    assertEquals(List.of(), run("similar-issues", "issue", "o/ds#999"));
    var e = assertThrows(IllegalArgumentException.class, () -> run("similar-issues"));
    assertTrue(e.getMessage().contains("needs parameter 'issue'"), e.getMessage());
  }

  @Test
  void drillsDownIntoAnIssueWithEveryClassificationLabelVersionReleaseAndFix() {
    targetAndCandidates();
    List<Map<String, Object>> rows = run("issue-drill-down", "issue", TARGET);
    assertEquals(1, rows.size());
    Map<String, Object> expected =
        row(
            "id",
            TARGET,
            "repo",
            "o/ds",
            "number",
            10L,
            "title",
            "NCCL watchdog timeout during allreduce",
            "url",
            "https://github.com/o/ds/issues/10",
            "author",
            "reporter",
            "state",
            "open",
            "framework",
            "deepspeed",
            "frameworkVersion",
            null,
            "createdAt",
            "2024-03-01T00:00:00Z",
            "updatedAt",
            "2024-03-01T00:00:00Z",
            "closedAt",
            null,
            "commentCount",
            2L,
            "transferredTo",
            null,
            "classifierVersion",
            "rules-test",
            "classifiedAt",
            "2024-03-01T00:00:00Z",
            // the fixture writes no provenance: only a person's labels have a known source
            "labelSource",
            null,
            "promptVersion",
            null,
            "classifications",
            List.of(
                classification("kind", "BUG", 0.9, "kind rule for BUG", false, false),
                classification("symptom", "HANG", 1.0, "label: hang", true, true),
                classification("symptomClass", "HANG", null, null, false, false, "human"),
                classification(
                    "rootCause",
                    "DISTRIBUTED_COMMUNICATION_ERROR",
                    0.8,
                    "rule matched DISTRIBUTED_COMMUNICATION_ERROR",
                    false,
                    true),
                classification("fixPattern", "UNKNOWN", null, "no resolution rule", false, false),
                classification(
                    "stage", "COMMUNICATION", 0.7, "allreduce in traceback", false, true),
                classification("phase", "TRAINING", 0.6, "phase rule for TRAINING", true, false),
                classification(
                    "distributedSpecific", "true", 0.7, "distributed rule for true", false, false)),
            "labels",
            List.of("bug", "nccl"),
            "versions",
            List.of("deepspeed@0.14.0", "torch@2.3.0"),
            "release",
            row(
                "id",
                "deepspeed@0.14.0",
                "version",
                "0.14.0",
                "publishedAt",
                "2024-01-01T00:00:00Z"),
            "fixes",
            List.of(
                row(
                    "id",
                    "o/ds#51",
                    "title",
                    "Fix o/ds#51",
                    "url",
                    "https://github.com/o/ds/pull/51",
                    "state",
                    "open",
                    "merged",
                    false,
                    "mergedAt",
                    null,
                    "additions",
                    5L,
                    "deletions",
                    3L,
                    "changedFiles",
                    1L),
                row(
                    "id",
                    "o/ds#52",
                    "title",
                    "Fix o/ds#52",
                    "url",
                    "https://github.com/o/ds/pull/52",
                    "state",
                    "closed",
                    "merged",
                    true,
                    "mergedAt",
                    "2024-01-03T00:00:00Z",
                    "additions",
                    1L,
                    "deletions",
                    1L,
                    "changedFiles",
                    1L)));
    assertEquals(expected, rows.get(0));
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(rows.get(0).keySet()));
  }

  @Test
  void drillsDownIntoNothingForAnUnknownIssue() {
    assertEquals(List.of(), run("issue-drill-down", "issue", "o/ds#404"));
  }

  private static Map<String, Object> classification(
      String dimension,
      String code,
      Double confidence,
      String evidence,
      boolean human,
      boolean fromEdge) {
    return classification(
        dimension, code, confidence, evidence, human, fromEdge, human ? "human" : null);
  }

  /**
   * A drill-down classification whose label came from {@code source} (the symptom class's is its
   * symptom's; null: not recorded): its version is the issue's classifier version, {@code human}
   * for a person's label; the fixture records no time of labelling.
   */
  private static Map<String, Object> classification(
      String dimension,
      String code,
      Double confidence,
      String evidence,
      boolean human,
      boolean fromEdge,
      String source) {
    return row(
        "dimension",
        dimension,
        "code",
        code,
        "confidence",
        confidence,
        "evidence",
        evidence,
        "classifierVersion",
        "rules-test",
        "humanGiven",
        human,
        "fromEdge",
        fromEdge,
        "source",
        source,
        "version",
        "human".equals(source) ? "human" : "rules-test",
        "labelledAt",
        null);
  }
}
