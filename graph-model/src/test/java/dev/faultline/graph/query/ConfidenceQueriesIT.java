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

  /**
   * Statement rows (of an estimated query) of a bug report whose BUG label, label and (for a pair)
   * second label pass the bar with known codes: what mode=confident counts and labelled sums.
   */
  private static long passing(List<Map<String, Object>> rows, boolean pair) {
    return rows.stream()
        .filter(
            r ->
                "BUG".equals(r.get("kind"))
                    && Boolean.TRUE.equals(r.get("kindPasses"))
                    && Boolean.TRUE.equals(r.get("passes"))
                    && known(r.get("top"))
                    && (!pair || (Boolean.TRUE.equals(r.get("passes2")) && known(r.get("top2")))))
        .count();
  }

  private static boolean known(Object code) {
    return code != null && !List.of("UNKNOWN", "NONE", "null").contains(String.valueOf(code));
  }

  @Test
  void theMatrixStatementSaysWhichLabelsPassTheBarByDefaultAndEveryLabelWithBarZero() {
    // the counts of mode=confident from these columns: the estimate module's ViewQueriesIT. c#2's
    // symptom and c#3's BUG label are below the bar; c#4's symptom is a person's
    assertEquals(2, passing(run("stage-symptom-matrix"), true));
    for (String bar : List.of("0", "all", "null")) {
      assertEquals(4, passing(run("stage-symptom-matrix", "minConfidence", bar), true), bar);
    }
  }

  @Test
  void aHumanGivenLabelPassesAnyBar() {
    // (category-trends: the estimate module's CategoryTrendsIT)
    assertEquals(0, passing(run("stage-symptom-matrix", "minConfidence", "1"), true));
  }

  @Test
  void theHeadlineSaysWhichBugLabelsPassTheBar() {
    assertEquals(4, passing(run("headline-summary"), false));
    assertEquals(5, passing(run("headline-summary", "minConfidence", "all"), false));
  }

  @Test
  void topCategoriesReleasesOpenBugsAndTheDistributedShareSayWhichLabelsPassTheBar() {
    assertEquals(2, passing(run("headline-top-categories"), false));
    assertEquals(4, passing(run("headline-top-categories", "minConfidence", "0"), false));
    assertEquals(4, passing(run("new-bugs-per-release"), false));
    assertEquals(5, passing(run("new-bugs-per-release", "minConfidence", "0"), false));
    List<Map<String, Object>> week =
        run("open-bugs-by-age", "asOf", "2024-01-02").stream()
            .filter(r -> r.get("bucket").equals("under 1 week") && r.get("id") != null)
            .toList();
    assertEquals(4, week.size());
    assertEquals(3, passing(week, false));
    List<Map<String, Object>> overall =
        run("distributed-specific-share").stream()
            .filter(r -> r.get("scope").equals("overall"))
            .toList();
    assertEquals(5, overall.size());
    assertEquals(2, passing(overall, false));
    assertEquals(
        3,
        passing(
            run("distributed-specific-share", "minConfidence", "0").stream()
                .filter(r -> r.get("scope").equals("overall"))
                .toList(),
            false));
  }

  @Test
  void rootCausesPathsAndFixEffortNeedEveryCountedLabelConfident() {
    assertEquals(2, passing(run("top-root-causes-per-stage"), true));
    assertEquals(4, passing(run("top-root-causes-per-stage", "minConfidence", "0"), true));

    // symptom-cause-fix-paths counts (mode=confident) a bug report whose three labels pass: c#1
    // and c#4 (a person's symptom); with bar 0 c#2 too (c#3 has no fix pattern)
    assertEquals(2, paths(run("symptom-cause-fix-paths")));
    assertEquals(3, paths(run("symptom-cause-fix-paths", "minConfidence", "0")));

    // fix-effort-by-category's counts of mode=confident from these columns: the estimate module's
    // FixQueriesIT. c#2's symptom and c#3's BUG label are below the bar; c#4's symptom is a
    // person's
    assertEquals(2, passing(run("fix-effort-by-category"), false));
    assertEquals(4, passing(run("fix-effort-by-category", "minConfidence", "0"), false));
    assertEquals(5, run("fix-effort-by-category").size(), "every issue goes to the estimator");
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

  /** Statement rows of symptom-cause-fix-paths whose BUG label and three labels pass, known. */
  private static long paths(List<Map<String, Object>> rows) {
    return rows.stream()
        .filter(r -> Boolean.TRUE.equals(r.get("passes3")) && known(r.get("top3")))
        .filter(r -> passing(List.of(r), true) == 1)
        .count();
  }
}
