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

  /** A stored text vector: {@code head} then zeros, 384 numbers as the vector index requires. */
  private static List<Double> vector(double... head) {
    List<Double> v = new java.util.ArrayList<>(java.util.Collections.nCopies(384, 0.0));
    for (int k = 0; k < head.length; k++) {
      v.set(k, head[k]);
    }
    return v;
  }

  private static final String BOTH = "o/ds#1";
  private static final String WORDS = "o/ds#2";
  private static final String MEANING = "o/mg#3";
  private static final String UNRELATED = "o/ds#4";
  private static final String LATER = "o/ds#7";

  /**
   * The target and one candidate per case: found by words and meaning, by words alone, by meaning
   * alone (other words, a near vector), unrelated, deleted, transferred, and opened later.
   */
  private void textAndVectorGraph() {
    graph.create(
        issue(TARGET)
            .title("NCCL watchdog timeout during allreduce")
            .body("Training with ZeRO-3 hangs in allreduce, then the watchdog kills the job.")
            .errorLines("RuntimeError: NCCL watchdog timeout")
            .vector(vector(1, 0, 0))
            .createdAt("2024-03-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION"),
        issue(BOTH)
            .title("Watchdog timeout in allreduce with ZeRO-3")
            .body("The NCCL watchdog fires during allreduce and training hangs.")
            .errorLines("RuntimeError: NCCL watchdog timeout")
            .vector(vector(1, 0.05, 0))
            .createdAt("2024-01-01T00:00:00Z")
            .symptom("HANG")
            .stage("COMMUNICATION")
            .answer(
                "maint", true, "2024-01-05T00:00:00Z", "Fixed by raising the timeout; see the PR."),
        issue(WORDS)
            .title("allreduce watchdog timeout message is unclear")
            .body("The NCCL watchdog timeout message should name the rank.")
            .vector(vector(0, 0, 1))
            .createdAt("2024-01-02T00:00:00Z")
            .kind("FEATURE_REQUEST"),
        issue(MEANING)
            .framework("megatron-lm")
            .title("Run stalls forever at step one")
            .body("Eight nodes, nothing printed, processes idle.")
            .vector(vector(0.9, 0.2, 0))
            .createdAt("2024-01-03T00:00:00Z")
            .closedAt("2024-02-01T00:00:00Z")
            .symptom("HANG")
            .answer("someone", false, "2024-01-20T00:00:00Z", "Same here on 16 nodes."),
        issue(UNRELATED)
            .title("Typo in the README")
            .body("Spelling.")
            .vector(vector(0, 1, 0))
            .createdAt("2024-01-04T00:00:00Z"),
        issue("o/ds#5")
            .title("NCCL watchdog timeout during allreduce")
            .body("Training with ZeRO-3 hangs in allreduce, then the watchdog kills the job.")
            .vector(vector(1, 0, 0))
            .createdAt("2024-01-01T00:00:00Z")
            .state("deleted"),
        issue("o/ds#6")
            .title("NCCL watchdog timeout during allreduce")
            .body("Training with ZeRO-3 hangs in allreduce, then the watchdog kills the job.")
            .vector(vector(1, 0, 0))
            .createdAt("2024-01-01T00:00:00Z")
            .transferredTo("o/other#1"),
        issue(LATER)
            .title("allreduce hangs after the NCCL watchdog timeout")
            .vector(vector(0.5, 0.5, 0.5))
            .createdAt("2024-04-01T00:00:00Z"));
    graph.create(
        pr("o/ds#50").fixes(BOTH).lines(12L, 4L).fixPattern("DISTRIBUTED_TUNING"),
        pr("o/ds#49").fixes(BOTH).merged(false),
        pr("o/ds#48").fixes(BOTH).mergedAt("2023-12-01T00:00:00Z"));
  }

  @Test
  void fusesTheFullTextAndVectorRankingsLeavingOutTheIssueItselfDeletedAndTransferredOnes() {
    textAndVectorGraph();
    List<Map<String, Object>> rows = run("similar-issues", "issue", TARGET);
    List<Object> ids = column(rows, "id");
    assertEquals(BOTH, ids.get(0), "found by both indexes: first " + ids);
    assertEquals(1L, rows.get(0).get("textRank"));
    assertEquals(1L, rows.get(0).get("vectorRank"));
    assertTrue(ids.containsAll(List.of(WORDS, MEANING, LATER)), ids.toString());
    for (String left : List.of(TARGET, "o/ds#5", "o/ds#6")) {
      assertTrue(!ids.contains(left), left + " in " + ids);
    }
    Map<String, Object> meaning = rows.get(ids.indexOf(MEANING));
    assertEquals(null, meaning.get("textRank"), "shares no word with the target");
    assertEquals(2L, meaning.get("vectorRank"));
    assertTrue((Double) rows.get(0).get("score") > (Double) meaning.get("score"), rows.toString());
  }

  @Test
  void eachRankingAloneWhenTheOthersWeightIsZero() {
    textAndVectorGraph();
    // the boosts off: each index's own order
    List<Object> words =
        column(
            run(
                "similar-issues",
                "issue",
                TARGET,
                "vectorWeight",
                "0",
                "frameworkBoost",
                "0",
                "symptomBoost",
                "0"),
            "id");
    assertTrue(!words.contains(MEANING) && !words.contains(UNRELATED), words.toString());
    assertTrue(words.containsAll(List.of(BOTH, WORDS)), words.toString());
    List<Object> meaning =
        column(
            run(
                "similar-issues",
                "issue",
                TARGET,
                "textWeight",
                "0",
                "frameworkBoost",
                "0",
                "symptomBoost",
                "0"),
            "id");
    assertEquals(List.of(BOTH, MEANING), meaning.subList(0, 2));
    assertTrue(meaning.contains(UNRELATED), "every stored vector is a candidate " + meaning);
  }

  @Test
  void showsWhatResolvedEachIssueMergedFixesNewestFirst() {
    textAndVectorGraph();
    Map<String, Map<String, Object>> byId = new java.util.HashMap<>();
    run("similar-issues", "issue", TARGET).forEach(r -> byId.put((String) r.get("id"), r));
    Map<String, Object> both = byId.get(BOTH);
    assertEquals("fixed", both.get("resolution"));
    assertEquals(
        List.of("o/ds#50", "o/ds#48", "o/ds#49"),
        ((List<?>) both.get("fixes")).stream().map(f -> ((Map<?, ?>) f).get("id")).toList());
    Map<?, ?> fix = (Map<?, ?>) ((List<?>) both.get("fixes")).get(0);
    assertEquals(16L, fix.get("changedLines"));
    assertEquals("DISTRIBUTED_TUNING", fix.get("fixPattern"));
    assertEquals("Fix o/ds#50", fix.get("title"));
    assertEquals(
        Map.of(
            "author",
            "maint",
            "maintainer",
            true,
            "at",
            "2024-01-05T00:00:00Z",
            "text",
            "Fixed by raising the timeout; see the PR."),
        both.get("answer"));
    assertEquals("RuntimeError: NCCL watchdog timeout", both.get("errorLines"));
    Map<String, Object> meaning = byId.get(MEANING);
    assertEquals(
        "closed", meaning.get("resolution"), "a reply by a non-maintainer answers nothing");
    assertEquals(false, ((Map<?, ?>) meaning.get("answer")).get("maintainer"));
    assertEquals("open", byId.get(WORDS).get("resolution"));
    assertEquals(null, byId.get(WORDS).get("answer"));
    assertEquals(List.of(), byId.get(WORDS).get("fixes"));
  }

  @Test
  void leavesOutLaterIssuesWhenPastOnlyAndCutsAtTheLimit() {
    textAndVectorGraph();
    List<Object> past = column(run("similar-issues", "issue", TARGET, "pastOnly", "true"), "id");
    assertTrue(!past.contains(LATER) && past.contains(BOTH), past.toString());
    List<Object> all = column(run("similar-issues", "issue", TARGET), "id");
    assertEquals(
        all.subList(0, 2), column(run("similar-issues", "issue", TARGET, "limit", "2"), "id"));
  }

  @Test
  void searchesByATextNotFiledYetWithItsVector() {
    textAndVectorGraph();
    List<Map<String, Object>> rows =
        run(
            "similar-issues",
            "title",
            "Allreduce hangs: NCCL watchdog timeout (ZeRO-3)",
            "text",
            "[rank0]: the watchdog kills the job && nothing else? ~ ^ \\ / : \"quoted\" AND OR NOT",
            "errorLines",
            "RuntimeError: NCCL watchdog timeout",
            "vector",
            vector(1, 0, 0).toString());
    List<Object> ids = column(rows, "id");
    assertEquals(
        java.util.Set.of(TARGET, BOTH),
        new java.util.HashSet<>(ids.subList(0, 2)),
        "the filed issue itself is a match");
    List<Object> wordsOnly = column(run("similar-issues", "text", "stalls forever"), "id");
    assertEquals(List.of(MEANING), wordsOnly, "no vector: the full-text index alone");
  }

  @Test
  void frameworkAndLabelsRerankButFilterNothing() {
    textAndVectorGraph();
    List<Object> plain = column(run("similar-issues", "issue", TARGET), "id");
    List<Object> framework =
        column(
            run(
                "similar-issues",
                "title",
                "NCCL watchdog timeout during allreduce",
                "vector",
                vector(1, 0, 0).toString(),
                "framework",
                "megatron-lm",
                "frameworkBoost",
                "1"),
            "id");
    assertEquals(MEANING, framework.get(0), framework.toString());
    List<Object> symptom =
        column(run("similar-issues", "issue", TARGET, "symptomBoost", "1", "limit", "20"), "id");
    assertEquals(List.of(BOTH, MEANING), symptom.subList(0, 2), "the two HANG issues first");
    assertEquals(
        new java.util.HashSet<>(plain), new java.util.HashSet<>(symptom), "nothing filtered");
  }

  @Test
  void findsNothingForAnUnknownIssueOrWithoutAnythingToSearchBy() {
    textAndVectorGraph();
    assertEquals(List.of(), run("similar-issues", "issue", "o/ds#999"));
    assertEquals(List.of(), run("similar-issues"));
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("similar-issues", "text", "x", "vector", "0.1,abc"));
    assertTrue(e.getMessage().contains("comma-separated numbers"), e.getMessage());
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
