package dev.faultline.graph.stats;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code Alert} node with {@code EXAMPLE} edges to a few issues.
 *
 * @param kind {@code SURGE} or {@code NEW_COMBINATION}
 * @param stage the stage a {@code NEW_COMBINATION} pairs the category with, else null
 * @param windowStart epoch millis, inclusive
 * @param windowEnd epoch millis, exclusive
 * @param raisedAt epoch millis of the event time the detector decided at
 * @param withdrawn a revision that takes the alert back (later records showed it is not news)
 * @param moved one sentence per dimension/category the event moved, strongest first (a grouped
 *     alert; empty for a single one)
 */
public record AlertRow(
    String id,
    String framework,
    String dimension,
    String category,
    String stage,
    String kind,
    long windowStart,
    long windowEnd,
    long count,
    double baseline,
    double score,
    String explanation,
    long raisedAt,
    List<String> exampleIssueIds,
    boolean withdrawn,
    List<String> moved) {

  public AlertRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(explanation, "explanation");
    exampleIssueIds = List.copyOf(exampleIssueIds == null ? List.of() : exampleIssueIds);
    moved = List.copyOf(moved == null ? List.of() : moved);
  }

  /** A single (not grouped) alert. */
  public AlertRow(
      String id,
      String framework,
      String dimension,
      String category,
      String stage,
      String kind,
      long windowStart,
      long windowEnd,
      long count,
      double baseline,
      double score,
      String explanation,
      long raisedAt,
      List<String> exampleIssueIds,
      boolean withdrawn) {
    this(
        id,
        framework,
        dimension,
        category,
        stage,
        kind,
        windowStart,
        windowEnd,
        count,
        baseline,
        score,
        explanation,
        raisedAt,
        exampleIssueIds,
        withdrawn,
        List.of());
  }

  /** An alert in force (not withdrawn). */
  public AlertRow(
      String id,
      String framework,
      String dimension,
      String category,
      String stage,
      String kind,
      long windowStart,
      long windowEnd,
      long count,
      double baseline,
      double score,
      String explanation,
      long raisedAt,
      List<String> exampleIssueIds) {
    this(
        id,
        framework,
        dimension,
        category,
        stage,
        kind,
        windowStart,
        windowEnd,
        count,
        baseline,
        score,
        explanation,
        raisedAt,
        exampleIssueIds,
        false);
  }

  /** The row as Cypher parameters ({@code row.*} in {@code stats-alerts.cypher}). */
  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("framework", framework);
    m.put("dimension", dimension);
    m.put("category", category);
    m.put("stage", stage);
    m.put("kind", kind);
    m.put("windowStart", windowStart);
    m.put("windowEnd", windowEnd);
    m.put("count", count);
    m.put("baseline", baseline);
    m.put("score", score);
    m.put("explanation", explanation);
    m.put("raisedAt", raisedAt);
    m.put("exampleIssueIds", exampleIssueIds);
    m.put("withdrawn", withdrawn);
    m.put("moved", moved);
    return m;
  }
}
