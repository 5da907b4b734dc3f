package dev.faultline.infra.relabel;

import dev.faultline.graph.CypherResources;
import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.taxonomy.Dimension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.SessionConfig;

/**
 * The graph's labels of a relabelling's scope, read for its report: the snapshot before and after
 * ({@link #snapshot}), the "before" rebuilt from the label history ({@link #snapshotAsOf}), and the
 * pull requests in scope. One driver for the whole run; each read in a read transaction function
 * (retried by the driver on transient errors), its Cypher in graph-model's {@code read/} files.
 */
public final class LabelSnapshots implements AutoCloseable {
  private static final String SNAPSHOT = CypherResources.load("read/label-snapshot.cypher");
  private static final String PULL_REQUESTS =
      CypherResources.load("read/pull-requests-in-scope.cypher");

  /**
   * The issue properties a snapshot reads beside url, framework and classifier version: every
   * dimension's code, version, time and previous label ({@code $properties}).
   */
  static final List<String> PROPERTIES =
      Arrays.stream(Dimension.values())
          .flatMap(
              d ->
                  Stream.of(
                      d.property(),
                      d.versionProperty(),
                      d.labelledAtProperty(),
                      d.previousProperty(),
                      d.previousVersionProperty(),
                      d.previousAtProperty()))
          .distinct()
          .toList();

  private final Driver driver;
  private final SessionConfig session;

  /** Reads {@code graph} (the caller closes this). */
  public LabelSnapshots(GraphConfig graph) {
    this.driver = graph.openDriver();
    this.session = SessionConfig.forDatabase(graph.database());
  }

  /** The labels of the issues in scope, as the graph holds them now (by URL). */
  public List<RelabelReport.Labels> snapshot(Reclassify.Scope scope) {
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (Map<String, Object> props : issueProperties(scope)) {
      Map<String, String> codes = new HashMap<>();
      Object version = props.get("classifierVersion");
      if (version != null) {
        codes.put(Reclassify.CLASSIFIER_VERSION, version.toString());
      }
      // Neo4j stores no null: an absent property is "null" (distributed-specific: cannot tell; any
      // other dimension: no label).
      for (Dimension d : Dimension.values()) {
        Object v = props.get(d.property());
        codes.put(d.key(), v == null ? "null" : v.toString());
      }
      out.add(
          new RelabelReport.Labels(
              (String) props.get("url"), (String) props.get("framework"), codes));
    }
    return out;
  }

  /**
   * The labels the issues in scope had just before {@code asOf}, rebuilt from the graph's label
   * history alone ({@link Dimension#labelledAtProperty()}, {@link Dimension#previousProperty()}): a
   * label given at or after {@code asOf} stands for the one it replaced, an earlier one for itself.
   * Covers the labelled dimensions ({@link Dimension#LABELLED}) and the classifier version; an
   * issue none of whose labels existed before {@code asOf} is left out. The graph keeps one
   * previous label per dimension, so the rebuild equals the snapshot taken at {@code asOf} unless a
   * label changed twice since then (a live delivery changed the issue during the run, say).
   */
  public List<RelabelReport.Labels> snapshotAsOf(Reclassify.Scope scope, Instant asOf) {
    java.time.ZonedDateTime t = asOf.atZone(java.time.ZoneOffset.UTC);
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (Map<String, Object> props : issueProperties(scope)) {
      Map<String, String> codes = new HashMap<>();
      String version = null;
      for (Dimension d : Dimension.LABELLED) {
        Object at = props.get(d.labelledAtProperty());
        boolean givenSince = at instanceof java.time.ZonedDateTime z && !z.isBefore(t);
        Object code = givenSince ? props.get(d.previousProperty()) : props.get(d.property());
        Object v =
            givenSince ? props.get(d.previousVersionProperty()) : props.get(d.versionProperty());
        if (givenSince && v == null) {
          continue; // no label before: given for the first time since asOf
        }
        codes.put(d.key(), code == null ? "null" : code.toString());
        if (version == null && v != null && !"human".equals(v)) {
          version = v.toString();
        }
      }
      if (codes.isEmpty()) {
        continue;
      }
      if (version != null) {
        codes.put(Reclassify.CLASSIFIER_VERSION, version);
      }
      out.add(
          new RelabelReport.Labels(
              (String) props.get("url"), (String) props.get("framework"), codes));
    }
    return out;
  }

  /**
   * The labels of the issues in scope as the graph holds them now, restricted to what {@link
   * #snapshotAsOf} can rebuild (the labelled dimensions and the classifier version).
   */
  public List<RelabelReport.Labels> labelledNow(Reclassify.Scope scope) {
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (RelabelReport.Labels l : snapshot(scope)) {
      Map<String, String> codes = new HashMap<>();
      l.codes()
          .forEach(
              (k, v) -> {
                if (k.equals(Reclassify.CLASSIFIER_VERSION)
                    || Dimension.ofKey(k).map(Dimension::labelled).orElse(false)) {
                  codes.put(k, v);
                }
              });
      out.add(new RelabelReport.Labels(l.id(), l.framework(), codes));
    }
    return out;
  }

  /** Each issue's url, framework, classifier version and {@link #PROPERTIES}, by url. */
  private List<Map<String, Object>> issueProperties(Reclassify.Scope scope) {
    Map<String, Object> p = scopeParameters(scope);
    p.put("properties", PROPERTIES);
    try (var s = driver.session(session)) {
      return s.executeRead(tx -> tx.run(SNAPSHOT, p).list(LabelSnapshots::properties));
    }
  }

  private static Map<String, Object> properties(Record r) {
    Map<String, Object> props = new HashMap<>();
    props.put("url", r.get("url").asObject());
    props.put("framework", r.get("framework").asObject());
    props.put("classifierVersion", r.get("classifierVersion").asObject());
    List<Object> values = r.get("values").asList();
    for (int k = 0; k < PROPERTIES.size(); k++) {
      props.put(PROPERTIES.get(k), values.get(k));
    }
    return props;
  }

  /**
   * The pull requests in scope the graph holds (by their repository's framework and creation time),
   * and how many of them are merged (those the classifier labels).
   */
  public long[] pullRequestsInScope(Reclassify.Scope scope) {
    Map<String, Object> p = scopeParameters(scope);
    try (var s = driver.session(session)) {
      return s.executeRead(
          tx -> {
            Record r = tx.run(PULL_REQUESTS, p).single();
            return new long[] {r.get("n").asLong(), r.get("merged").asLong()};
          });
    }
  }

  private static Map<String, Object> scopeParameters(Reclassify.Scope scope) {
    Map<String, Object> p = new HashMap<>();
    p.put("framework", scope.framework());
    p.put("since", scope.since() == null ? null : scope.since().toString());
    p.put("until", scope.until() == null ? null : scope.until().toString());
    return p;
  }

  @Override
  public void close() {
    driver.close();
  }
}
