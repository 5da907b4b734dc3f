package dev.faultline.graph.testing;

import dev.faultline.schemas.taxonomy.RootCauseGroup;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Builds small known graphs for the query tests, following {@code graph-model/README.md}: issues
 * with their classification properties and, for known values only, the classification edges with
 * confidence, evidence, classifier version and human-given flag; labels, reported versions,
 * releases, fixing PRs and alerts. All writes are {@code UNWIND $rows} batches (the benchmark uses
 * the same statements for its synthetic graph).
 */
public final class GraphFixture {
  public static final Taxonomy TAXONOMY = Taxonomy.load();

  public static final String WRITE_ISSUES =
      """
      UNWIND $rows AS row
      MERGE (f:Framework {name: row.framework})
      MERGE (r:Repository {fullName: row.repo})
      MERGE (r)-[:OF]->(f)
      MERGE (i:Issue {id: row.id})
      SET i += row.props
      MERGE (i)-[:IN_REPO]->(r)
      WITH i, row
      CALL (i, row) {
        UNWIND row.labels AS name
        MERGE (l:Label {name: name})
        MERGE (i)-[:HAS_LABEL]->(l)
      }
      CALL (i, row) {
        UNWIND row.versions AS vid
        MERGE (v:Version {id: vid})
          ON CREATE SET v.component = split(vid, '@')[0], v.version = split(vid, '@')[1]
        MERGE (i)-[:REPORTS]->(v)
      }
      CALL (i, row) {
        UNWIND CASE WHEN row.release IS NULL THEN [] ELSE [row.release] END AS rid
        MATCH (rel:Release {id: rid})
        MERGE (i)-[:FILED_AGAINST]->(rel)
      }
      CALL (i, row) {
        UNWIND CASE WHEN row.symptom IS NULL THEN [] ELSE [row.symptom] END AS e
        MERGE (s:Symptom {code: e.code})
        MERGE (sc:SymptomClass {code: e.symptomClass})
        MERGE (s)-[:IS_A]->(sc)
        MERGE (i)-[r:HAS_SYMPTOM]->(s)
        SET r = e.props
      }
      CALL (i, row) {
        UNWIND CASE WHEN row.rootCause IS NULL THEN [] ELSE [row.rootCause] END AS e
        MERGE (n:RootCause {code: e.code})
          ON CREATE SET n.group = e.group
        MERGE (i)-[r:CAUSED_BY]->(n)
        SET r = e.props
      }
      CALL (i, row) {
        UNWIND CASE WHEN row.fixPattern IS NULL THEN [] ELSE [row.fixPattern] END AS e
        MERGE (n:FixPattern {code: e.code})
        MERGE (i)-[r:RESOLVED_BY]->(n)
        SET r = e.props
      }
      CALL (i, row) {
        UNWIND CASE WHEN row.stage IS NULL THEN [] ELSE [row.stage] END AS e
        MERGE (n:Stage {code: e.code})
        MERGE (i)-[r:IN_STAGE]->(n)
        SET r = e.props
      }
      """;

  public static final String WRITE_RELEASES =
      """
      UNWIND $rows AS row
      MERGE (f:Framework {name: row.framework})
      MERGE (rel:Release {id: row.id})
      SET rel += row.props
      MERGE (rel)-[:OF]->(f)
      """;

  public static final String WRITE_PULL_REQUESTS =
      """
      UNWIND $rows AS row
      MERGE (pr:PullRequest {id: row.id})
      SET pr += row.props
      MERGE (r:Repository {fullName: row.repo})
      MERGE (pr)-[:IN_REPO]->(r)
      WITH pr, row
      UNWIND row.fixes AS issueId
      MATCH (i:Issue {id: issueId})
      MERGE (pr)-[:FIXES]->(i)
      """;

  public static final String WRITE_ALERTS =
      """
      UNWIND $rows AS row
      MERGE (a:Alert {id: row.id})
      SET a += row.props
      WITH a, row
      UNWIND row.examples AS issueId
      MATCH (i:Issue {id: issueId})
      MERGE (a)-[:EXAMPLE]->(i)
      """;

  private final Driver driver;
  private final String database;

  public GraphFixture(Driver driver, String database) {
    this.driver = driver;
    this.database = database;
  }

  /** Deletes every node and relationship. */
  public void clear() {
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(tx -> tx.run("MATCH (n) DETACH DELETE n").consume());
    }
  }

  /** Runs one {@code UNWIND $rows} statement in a write transaction. */
  public void write(String statement, List<Map<String, Object>> rows) {
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(tx -> tx.run(statement, Map.of("rows", rows)).consume());
    }
  }

  public void create(Issue... issues) {
    write(WRITE_ISSUES, Arrays.stream(issues).map(Issue::toRow).toList());
  }

  public void create(PullRequest... prs) {
    write(WRITE_PULL_REQUESTS, Arrays.stream(prs).map(PullRequest::toRow).toList());
  }

  /** A release {@code framework@version}, published at {@code publishedAt} (ISO instant). */
  public void release(String framework, String version, String publishedAt, boolean prerelease) {
    write(WRITE_RELEASES, List.of(releaseRow(framework, version, at(publishedAt), prerelease)));
  }

  public static Map<String, Object> releaseRow(
      String framework, String version, ZonedDateTime publishedAt, boolean pre) {
    Map<String, Object> props = new HashMap<>();
    props.put("framework", framework);
    props.put("version", version);
    props.put("tag", "v" + version);
    props.put("publishedAt", publishedAt);
    props.put("prerelease", pre);
    return Map.of("id", framework + "@" + version, "framework", framework, "props", props);
  }

  /**
   * An alert with the given properties (times as ISO strings become DATETIME) and example issues.
   */
  public void alert(String id, Map<String, Object> props, List<String> examples) {
    Map<String, Object> converted = new HashMap<>();
    props.forEach(
        (k, v) ->
            converted.put(k, k.endsWith("At") || k.startsWith("window") ? at((String) v) : v));
    converted.put("id", id);
    write(WRITE_ALERTS, List.of(Map.of("id", id, "props", converted, "examples", examples)));
  }

  public static ZonedDateTime at(String iso) {
    return iso == null ? null : ZonedDateTime.parse(iso);
  }

  public static Issue issue(String id) {
    return new Issue(id);
  }

  public static PullRequest pr(String id) {
    return new PullRequest(id);
  }

  /**
   * An issue as the graph stores it; a BUG, open, of deepspeed, opened 2024-01-01, unclassified by
   * default. Every label's confidence is {@link #CONFIDENT} unless set ({@link #confidence}, {@link
   * #edge}): above any bar the library's default policy can have, so the tests of counts are not
   * tests of the bar.
   */
  public static final class Issue {
    /** The default confidence of every label. */
    public static final double CONFIDENT = 0.99;

    private final String id;
    private String framework = "deepspeed";
    private String title;
    private String state = "open";
    private ZonedDateTime createdAt = at("2024-01-01T00:00:00Z");
    private ZonedDateTime closedAt;
    private String kind = "BUG";
    private String symptom = "UNKNOWN";
    private String rootCause = "UNKNOWN";
    private String fixPattern = "UNKNOWN";
    private String stage = "UNKNOWN";
    private String phase = "UNKNOWN";
    private Boolean distributedSpecific;
    private List<String> labels = List.of();
    private List<String> versions = List.of();
    private List<String> humanGiven = List.of();
    private String release;
    private String transferredTo;
    private final Map<String, Map<String, Object>> edgeProps = new HashMap<>();
    private final Map<String, Double> confidence = new HashMap<>();

    private String body;
    private String errorLines;
    private List<Double> vector;
    private Map<String, Object> answer;

    private Issue(String id) {
      this.id = id;
      this.title = "Issue " + id;
      this.body = "Body of " + id;
    }

    public Issue body(String v) {
      body = v;
      return this;
    }

    public Issue errorLines(String v) {
      errorLines = v;
      return this;
    }

    /** The stored text vector (384 numbers, as the vector index requires). */
    public Issue vector(List<Double> v) {
      vector = v;
      return this;
    }

    /** The reply stored as answerText, answerAuthor, answerByMaintainer and answerAt. */
    public Issue answer(String author, boolean maintainer, String at, String text) {
      answer = new HashMap<>();
      answer.put("answerAuthor", author);
      answer.put("answerByMaintainer", maintainer);
      answer.put("answerAt", at(at));
      answer.put("answerText", text);
      return this;
    }

    public Issue framework(String v) {
      framework = v;
      return this;
    }

    public Issue title(String v) {
      title = v;
      return this;
    }

    public Issue state(String v) {
      state = v;
      return this;
    }

    public Issue createdAt(String v) {
      createdAt = at(v);
      return this;
    }

    public Issue createdAt(ZonedDateTime v) {
      createdAt = v;
      return this;
    }

    public Issue closedAt(String v) {
      return closedAt(at(v));
    }

    public Issue closedAt(ZonedDateTime v) {
      closedAt = v;
      state = "closed";
      return this;
    }

    public Issue kind(String v) {
      kind = v;
      return this;
    }

    public Issue symptom(String v) {
      symptom = v;
      return this;
    }

    public Issue rootCause(String v) {
      rootCause = v;
      return this;
    }

    public Issue fixPattern(String v) {
      fixPattern = v;
      return this;
    }

    public Issue stage(String v) {
      stage = v;
      return this;
    }

    public Issue phase(String v) {
      phase = v;
      return this;
    }

    public Issue distributedSpecific(Boolean v) {
      distributedSpecific = v;
      return this;
    }

    public Issue labels(String... v) {
      labels = List.of(v);
      return this;
    }

    public Issue versions(String... v) {
      versions = List.of(v);
      return this;
    }

    public Issue humanGiven(String... v) {
      humanGiven = List.of(v);
      return this;
    }

    public Issue release(String v) {
      release = v;
      return this;
    }

    public Issue transferredTo(String v) {
      transferredTo = v;
      return this;
    }

    /**
     * The confidence of one label: of the node ({@code kind}, {@code phase}, {@code
     * distributedSpecific}) or of an edge ({@code symptom}, {@code rootCause}, {@code fixPattern},
     * {@code stage}; evidence as by default).
     */
    public Issue confidence(String dimension, double value) {
      confidence.put(dimension, value);
      return this;
    }

    /**
     * Confidence, evidence and human-given flag of one classification edge ({@code symptom}, {@code
     * stage}, ...).
     */
    public Issue edge(String dimension, double confidence, String evidence, boolean human) {
      Map<String, Object> p = new HashMap<>();
      p.put("confidence", confidence);
      p.put("evidence", evidence);
      p.put("classifierVersion", "rules-test");
      p.put("humanGiven", human);
      edgeProps.put(dimension, p);
      return this;
    }

    private static boolean known(String code) {
      return code != null && !code.equals("UNKNOWN") && !code.equals("NONE");
    }

    private Map<String, Object> edge(String dimension, String code) {
      if (!known(code)) {
        return null;
      }
      Map<String, Object> e = new HashMap<>();
      e.put("code", code);
      e.put(
          "props",
          edgeProps.getOrDefault(
              dimension,
              Map.of(
                  "confidence",
                  confidence.getOrDefault(dimension, CONFIDENT),
                  "evidence",
                  "rule matched " + code,
                  "classifierVersion",
                  "rules-test",
                  "humanGiven",
                  humanGiven.contains(dimension))));
      return e;
    }

    public String symptomClass() {
      return known(symptom) ? TAXONOMY.symptomClassOf(symptom).orElseThrow() : symptom;
    }

    public Map<String, Object> toRow() {
      int hash = id.indexOf('#');
      String repo = id.substring(0, hash);
      Map<String, Object> props = new LinkedHashMap<>();
      props.put("repo", repo);
      props.put("number", Long.parseLong(id.substring(hash + 1)));
      props.put("title", title);
      props.put("body", body);
      props.put("errorLines", errorLines);
      props.put("textVector", vector);
      if (answer != null) {
        props.putAll(answer);
      }
      props.put("url", "https://github.com/" + repo + "/issues/" + id.substring(hash + 1));
      props.put("author", "reporter");
      props.put("state", state);
      props.put("createdAt", createdAt);
      props.put("updatedAt", closedAt != null ? closedAt : createdAt);
      props.put("closedAt", closedAt);
      props.put("commentCount", 2L);
      props.put("framework", framework);
      props.put("kind", kind);
      props.put("symptom", symptom);
      props.put("symptomClass", symptomClass());
      props.put("rootCause", rootCause);
      props.put("fixPattern", fixPattern);
      props.put("stage", stage);
      props.put("phase", phase);
      props.put("distributedSpecific", distributedSpecific);
      props.put("classifierVersion", "rules-test");
      props.put("classifiedAt", createdAt);
      props.put("humanGiven", humanGiven);
      props.put("kindConfidence", confidence.getOrDefault("kind", CONFIDENT));
      props.put("phaseConfidence", confidence.getOrDefault("phase", CONFIDENT));
      props.put(
          "distributedSpecificConfidence",
          distributedSpecific == null
              ? null
              : confidence.getOrDefault("distributedSpecific", CONFIDENT));
      // evidence of the dimensions without an edge, as IssueRow writes it
      props.put("kindEvidence", "kind rule for " + kind);
      props.put("phaseEvidence", "phase rule for " + phase);
      props.put("distributedSpecificEvidence", "distributed rule for " + distributedSpecific);
      props.put("symptomEvidence", known(symptom) ? null : "no symptom rule");
      props.put("rootCauseEvidence", known(rootCause) ? null : "no diagnosis rule");
      props.put("fixPatternEvidence", known(fixPattern) ? null : "no resolution rule");
      props.put("stageEvidence", known(stage) ? null : "no stage rule");
      props.put("transferredTo", transferredTo);

      Map<String, Object> row = new HashMap<>();
      row.put("id", id);
      row.put("repo", repo);
      row.put("framework", framework);
      row.put("props", props);
      row.put("labels", labels);
      row.put("versions", versions);
      row.put("release", release);
      Map<String, Object> symptomEdge = edge("symptom", symptom);
      if (symptomEdge != null) {
        symptomEdge.put("symptomClass", symptomClass());
      }
      row.put("symptom", symptomEdge);
      Map<String, Object> causeEdge = edge("rootCause", rootCause);
      if (causeEdge != null) {
        causeEdge.put(
            "group", TAXONOMY.rootCauseGroup(rootCause).map(RootCauseGroup::name).orElseThrow());
      }
      row.put("rootCause", causeEdge);
      row.put("fixPattern", edge("fixPattern", fixPattern));
      row.put("stage", edge("stage", stage));
      // the edge dimensions' confidences on the issue too, as IssueRow writes them (the queries'
      // confidence bar reads them there)
      for (String dimension : List.of("symptom", "rootCause", "fixPattern", "stage")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> e = (Map<String, Object>) row.get(dimension);
        Object c =
            e == null ? confidence.get(dimension) : ((Map<?, ?>) e.get("props")).get("confidence");
        props.put(dimension + "Confidence", c);
      }
      return row;
    }
  }

  /** A pull request; merged, 5 + 3 lines, created 2024-01-02, fixing nothing by default. */
  public static final class PullRequest {
    private final String id;
    private boolean merged = true;
    private Long additions = 5L;
    private Long deletions = 3L;
    private List<String> fixes = List.of();
    private String fixPattern;
    private String mergedAt = "2024-01-03T00:00:00Z";

    private PullRequest(String id) {
      this.id = id;
    }

    /** The change's own fix pattern (a merged bug fix the classifier labelled). */
    public PullRequest fixPattern(String v) {
      fixPattern = v;
      return this;
    }

    public PullRequest mergedAt(String v) {
      mergedAt = v;
      return this;
    }

    public PullRequest merged(boolean v) {
      merged = v;
      return this;
    }

    public PullRequest lines(Long add, Long del) {
      additions = add;
      deletions = del;
      return this;
    }

    public PullRequest fixes(String... issueIds) {
      fixes = List.of(issueIds);
      return this;
    }

    public Map<String, Object> toRow() {
      int hash = id.indexOf('#');
      String repo = id.substring(0, hash);
      Map<String, Object> props = new HashMap<>();
      props.put("repo", repo);
      props.put("number", Long.parseLong(id.substring(hash + 1)));
      props.put("title", "Fix " + id);
      props.put("url", "https://github.com/" + repo + "/pull/" + id.substring(hash + 1));
      props.put("state", merged ? "closed" : "open");
      props.put("merged", merged);
      props.put("mergedAt", merged ? at(mergedAt) : null);
      props.put("fixPattern", fixPattern);
      props.put("createdAt", at("2024-01-02T00:00:00Z"));
      props.put("updatedAt", at("2024-01-03T00:00:00Z"));
      props.put("additions", additions);
      props.put("deletions", deletions);
      props.put("changedFiles", 1L);
      return Map.of("id", id, "repo", repo, "props", props, "fixes", new ArrayList<>(fixes));
    }
  }
}
