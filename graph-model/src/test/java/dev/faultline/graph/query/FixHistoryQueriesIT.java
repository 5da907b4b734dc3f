package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Fix history in the graph as the pipeline writes it (the real {@link PullRequestWriter}): merged
 * changes with their sizes, FIXES edges whatever the arrival order, a change's own classification,
 * and P1's fix analysis from the query library (fix size per category, fix pattern per symptom, the
 * headline small-fix share).
 */
class FixHistoryQueriesIT extends QueryITBase {
  private static final long MERGED = Instant.parse("2025-02-01T00:00:00Z").toEpochMilli();
  private Driver driver;
  private PullRequestWriter prs;

  @BeforeEach
  void writers(Driver driver) {
    this.driver = driver;
    prs = new PullRequestWriter(driver, SharedNeo4j.DATABASE);
  }

  private static PullRequestRow.Classification fix(
      String symptom, String rootCause, String fixPattern, String stage) {
    return new PullRequestRow.Classification(
        Map.of(
            Dimension.KIND, Kind.BUG,
            Dimension.SYMPTOM, Symptom.valueOf(symptom),
            Dimension.SYMPTOM_CLASS, SymptomClass.HANG,
            Dimension.ROOT_CAUSE, RootCause.valueOf(rootCause),
            Dimension.FIX_PATTERN, FixPattern.valueOf(fixPattern),
            Dimension.STAGE, Stage.valueOf(stage)),
        "rules-test");
  }

  private static PullRequestRow change(
      String id,
      int lines,
      int files,
      List<String> fixes,
      PullRequestRow.Classification c,
      long updatedAt,
      boolean sized) {
    int hash = id.indexOf('#');
    int number = hash > 0 ? Integer.parseInt(id.substring(hash + 1)) : 0;
    return new PullRequestRow(
        id,
        "o/ds",
        "deepspeed",
        number,
        "Change " + id,
        "https://github.com/o/ds",
        "merged",
        true,
        MERGED,
        MERGED,
        updatedAt,
        sized ? lines - lines / 3 : 0,
        sized ? lines / 3 : 0,
        sized ? files : 0,
        fixes,
        sized,
        "git",
        "SQUASH",
        "0123456789abcdef0123456789abcdef01234567",
        "alice",
        c);
  }

  private void history() {
    graph.create(
        issue("o/ds#1")
            .symptom("HANG")
            .rootCause("DISTRIBUTED_COMMUNICATION_ERROR")
            .stage("COMMUNICATION"),
        issue("o/ds#2")
            .symptom("OUT_OF_MEMORY")
            .rootCause("ALLOCATION_STRATEGY_ERROR")
            .fixPattern("CONDITIONAL_LOGIC")
            .stage("MEMORY"),
        issue("o/ds#3").kind("QUESTION").symptom("NONE"));
    prs.write(
        List.of(
            change(
                "o/ds#101",
                6,
                1,
                List.of("o/ds#1"),
                fix(
                    "HANG",
                    "DISTRIBUTED_COMMUNICATION_ERROR",
                    "DISTRIBUTED_TUNING",
                    "COMMUNICATION"),
                MERGED,
                true),
            change("o/ds#102", 50, 3, List.of("o/ds#2"), null, MERGED, true),
            change(
                "o/ds@0123456789abcdef0123456789abcdef01234567",
                2,
                1,
                List.of(),
                fix("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", "INITIALIZATION"),
                MERGED,
                true),
            change("o/ds#104", 2, 1, List.of("o/ds#3"), null, MERGED, true),
            change("o/ds#105", 100, 4, List.of(), null, MERGED, true)));
  }

  /** Some columns of an estimated query's statement rows, sorted by id. */
  private List<List<Object>> items(String query, List<String> columns, String... params) {
    return run(query, params).stream()
        .map(
            r -> {
              List<Object> out = new java.util.ArrayList<>();
              columns.forEach(c -> out.add(r.get(c)));
              return out;
            })
        .sorted(java.util.Comparator.comparing(Object::toString))
        .toList();
  }

  @Test
  void fixSizeGivesItsEstimatorEveryMergedChangeOfKnownSizeCategorisedByItsReportOrItself() {
    history();
    // the estimates and the counts of mode=confident/all: the estimate module's FixQueriesIT.
    // #104 closes a question (its estimate weighs its P(bug)); #105 is unclassified and closes
    // nothing.
    List<String> columns = List.of("id", "kind", "top", "fromIssue", "lines", "small", "files");
    assertEquals(
        List.of(
            List.of("o/ds#101", "BUG", "DISTRIBUTED_COMMUNICATION_ERROR", true, 6L, true, 1L),
            List.of("o/ds#102", "BUG", "ALLOCATION_STRATEGY_ERROR", true, 50L, false, 3L),
            List.of("o/ds#104", "QUESTION", "UNKNOWN", true, 2L, true, 1L),
            List.of(
                "o/ds@0123456789abcdef0123456789abcdef01234567",
                "BUG",
                "CONFIGURATION_ERROR",
                false,
                2L,
                true,
                1L)),
        items("fix-size-by-category", columns));
    assertEquals(
        List.of("COMMUNICATION", "MEMORY", "UNKNOWN", "INITIALIZATION"),
        column(
            items("fix-size-by-category", List.of("id", "top"), "dimension", "stage").stream()
                .map(r -> java.util.Map.of("top", r.get(1)))
                .toList(),
            "top"));
    assertEquals(List.of(), run("fix-size-by-category", "framework", "vllm"));
  }

  @Test
  void fixPatternsGiveTheirEstimatorEachChangeFillingAReportsUnknownPatternFromTheChange() {
    history();
    // #101's report has no fix pattern: the change's own (and its kind distribution, p2Kind)
    List<String> columns = List.of("id", "kind", "top", "top2", "passes2", "fromIssue", "lines");
    assertEquals(
        List.of(
            List.of("o/ds#101", "BUG", "HANG", "DISTRIBUTED_TUNING", true, true, 6L),
            List.of("o/ds#102", "BUG", "OUT_OF_MEMORY", "CONDITIONAL_LOGIC", true, true, 50L),
            List.of("o/ds#104", "QUESTION", "NONE", "UNKNOWN", false, true, 2L),
            List.of(
                "o/ds@0123456789abcdef0123456789abcdef01234567",
                "BUG",
                "HANG",
                "DISTRIBUTED_TUNING",
                true,
                false,
                2L)),
        items("fix-pattern-per-symptom", columns));
  }

  @Test
  void aChangesDistributionsAreWrittenWithItsLabelsAndLeaveWithThem() {
    List<Double> kind = over(Dimension.KIND, "BUG", 0.7, "FEATURE_REQUEST", 0.3);
    List<Double> pattern = over(Dimension.FIX_PATTERN, "DISTRIBUTED_TUNING", 0.6, "UNKNOWN", 0.4);
    PullRequestRow.Classification first =
        new PullRequestRow.Classification(
            Map.of(Dimension.KIND, Kind.BUG, Dimension.FIX_PATTERN, FixPattern.DISTRIBUTED_TUNING),
            "learned-test",
            Map.of(Dimension.KIND, "cv:learned-test", Dimension.FIX_PATTERN, "cv:learned-test"),
            Map.of(Dimension.KIND, kind, Dimension.FIX_PATTERN, pattern));
    prs.write(List.of(change("o/ds#401", 4, 1, List.of(), first, MERGED, true)));
    Map<String, Object> p =
        single(
            "MATCH (p:PullRequest {id: 'o/ds#401'}) RETURN p.kindProbabilities AS kind,"
                + " p.fixPatternProbabilities AS pattern, p.fixPatternCalibration AS marker");
    assertEquals(kind, p.get("kind"));
    assertEquals(pattern, p.get("pattern"));
    assertEquals("cv:learned-test", p.get("marker"));
    // reclassified by a tier that gives the fix pattern no distribution: the old one goes
    PullRequestRow.Classification second =
        new PullRequestRow.Classification(
            Map.of(Dimension.KIND, Kind.BUG, Dimension.FIX_PATTERN, FixPattern.CONDITIONAL_LOGIC),
            "rules-test",
            Map.of(),
            Map.of(Dimension.KIND, over(Dimension.KIND, "BUG", 1.0)));
    prs.write(List.of(change("o/ds#401", 4, 1, List.of(), second, MERGED + 1, true)));
    p =
        single(
            "MATCH (p:PullRequest {id: 'o/ds#401'}) RETURN p.kindProbabilities AS kind,"
                + " p.fixPatternProbabilities AS pattern, p.fixPatternCalibration AS marker");
    assertEquals(over(Dimension.KIND, "BUG", 1.0), p.get("kind"));
    assertEquals(null, p.get("pattern"), "a distribution never outlives its label");
    assertEquals(null, p.get("marker"));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new PullRequestRow.Classification(
                Map.of(Dimension.KIND, Kind.BUG),
                "x",
                Map.of(),
                Map.of(Dimension.KIND, List.of(1.0))),
        "a distribution of another length than the dimension's codes");
  }

  /** A distribution over a dimension's codes from code, probability pairs (the rest 0). */
  private static List<Double> over(Dimension d, Object... codeProbability) {
    Map<String, Double> p = new java.util.HashMap<>();
    for (int i = 0; i < codeProbability.length; i += 2) {
      p.put((String) codeProbability[i], ((Number) codeProbability[i + 1]).doubleValue());
    }
    List<Double> out = new java.util.ArrayList<>();
    d.distributionCodes().forEach(c -> out.add(p.getOrDefault(c, 0.0)));
    return out;
  }

  @Test
  void keepsAFixesEdgeWrittenBeforeItsIssueArrives() {
    prs.write(List.of(change("o/ds#201", 4, 1, List.of("o/ds#9"), null, MERGED, true)));
    assertEquals(
        1L,
        count(
            "MATCH (:PullRequest {id: 'o/ds#201'})-[:FIXES]->(i:Issue {id: 'o/ds#9'}) RETURN count(i)"));
    new IssueWriter(driver, SharedNeo4j.DATABASE)
        .write(List.of(WriterRows.issue("o", "ds", 9, null, MERGED + 1_000)));
    prs.write(List.of(change("o/ds#201", 4, 1, List.of("o/ds#9"), null, MERGED, true)));
    assertEquals(
        1L,
        count(
            "MATCH (:PullRequest {id: 'o/ds#201'})-[:FIXES]->(i:Issue {id: 'o/ds#9', title: 't9'}) RETURN count(i)"));
    assertEquals(1L, count("MATCH (i:Issue {id: 'o/ds#9'}) RETURN count(i)"));
  }

  @Test
  void aLaterRowWithoutSizesKeepsTheSizesAndClassificationTheGraphHas() {
    prs.write(
        List.of(
            change(
                "o/ds#301",
                9,
                2,
                List.of(),
                fix("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", "COMMUNICATION"),
                MERGED,
                true)));
    prs.write(List.of(change("o/ds#301", 9, 2, List.of(), null, MERGED + 60_000, false)));
    Map<String, Object> p =
        single(
            "MATCH (p:PullRequest {id: 'o/ds#301'}) RETURN p.additions AS a, p.deletions AS d, p.changedFiles AS f,"
                + " p.kind AS kind, p.fixPattern AS fixPattern, p.changeKind AS changeKind");
    assertEquals(
        Map.of(
            "a",
            6L,
            "d",
            3L,
            "f",
            2L,
            "kind",
            "BUG",
            "fixPattern",
            "DISTRIBUTED_TUNING",
            "changeKind",
            "SQUASH"),
        p);
  }

  @Test
  void aDirectCommitHasNoNumber() {
    history();
    assertEquals(
        1L,
        count(
            "MATCH (p:PullRequest {id: 'o/ds@0123456789abcdef0123456789abcdef01234567'}) WHERE p.number IS NULL"
                + " RETURN count(p)"));
  }

  @Test
  void aTagFromAClonedHistoryDoesNotOverwriteAGitHubRelease() {
    var releases = new dev.faultline.graph.ReleaseWriter(driver, SharedNeo4j.DATABASE);
    long published = Instant.parse("2025-03-01T12:00:00Z").toEpochMilli();
    long tagged = Instant.parse("2025-03-01T11:40:00Z").toEpochMilli();
    releases.write(
        List.of(
            new dev.faultline.graph.ReleaseRow(
                "deepspeed",
                "o/ds",
                "0.16.4",
                "v0.16.4",
                "https://github.com/o/ds/releases/tag/v0.16.4",
                published,
                false,
                false)));
    releases.write(
        List.of(
            new dev.faultline.graph.ReleaseRow(
                "deepspeed",
                "o/ds",
                "0.16.4",
                "v0.16.4",
                "https://github.com/o/ds/releases/tag/v0.16.4",
                tagged,
                false,
                false,
                "git")));
    assertEquals(
        Map.of("at", published, "source", "github"),
        single(
            "MATCH (r:Release {id: 'deepspeed@0.16.4'}) RETURN r.publishedAt.epochMillis AS at, r.source AS source"));
    // A tag first (fresh install), then the GitHub release: the release's date wins.
    releases.write(
        List.of(
            new dev.faultline.graph.ReleaseRow(
                "deepspeed", "o/ds", "0.16.5", "v0.16.5", null, tagged, false, false, "git")));
    assertEquals(
        Map.of("at", tagged, "source", "git"),
        single(
            "MATCH (r:Release {id: 'deepspeed@0.16.5'}) RETURN r.publishedAt.epochMillis AS at, r.source AS source"));
    releases.write(
        List.of(
            new dev.faultline.graph.ReleaseRow(
                "deepspeed", "o/ds", "0.16.5", "v0.16.5", null, published, false, false)));
    assertEquals(
        Map.of("at", published, "source", "github"),
        single(
            "MATCH (r:Release {id: 'deepspeed@0.16.5'}) RETURN r.publishedAt.epochMillis AS at, r.source AS source"));
  }

  private long count(String statement) {
    return (Long) single(statement).values().iterator().next();
  }

  private Map<String, Object> single(String statement) {
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      return session.executeRead(tx -> tx.run(statement).single().asMap());
    }
  }

  @Test
  void aChangesLabelsKeepTheirVersionAndTheLabelTheyReplaced() {
    PullRequestRow first =
        change(
            "o/ds#777",
            4,
            1,
            List.of(),
            fix("HANG", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", "COMMUNICATION"),
            MERGED,
            true);
    prs.write(List.of(first));
    PullRequestRow.Classification other =
        new PullRequestRow.Classification(
            Map.of(
                Dimension.KIND, Kind.BUG,
                Dimension.SYMPTOM, Symptom.OUT_OF_MEMORY,
                Dimension.STAGE, Stage.COMMUNICATION),
            "learned-test");
    prs.write(List.of(change("o/ds#777", 4, 1, List.of(), other, MERGED, true)));
    Map<String, Object> p;
    try (var s = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      p =
          s.run("MATCH (p:PullRequest {id: 'o/ds#777'}) RETURN properties(p) AS p")
              .single()
              .get("p")
              .asMap();
    }
    assertEquals("OUT_OF_MEMORY", p.get("symptom"));
    assertEquals("learned-test", p.get("symptomVersion"));
    assertEquals("HANG", p.get("symptomPrevious"));
    assertEquals("rules-test", p.get("symptomPreviousVersion"));
    assertEquals(
        "COMMUNICATION", p.get("stagePrevious"), "a new version of the same code is kept too");
    org.junit.jupiter.api.Assertions.assertNotNull(p.get("symptomLabelledAt"));
  }
}
