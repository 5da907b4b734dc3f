package dev.faultline.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One issue's latest state as the graph stores it. Plain values only, so it maps to Cypher parameters directly.
 *
 * @param id {@code owner/repo#n}
 * @param updatedAtMillis GitHub's {@code updated_at}; a row older than what the graph holds changes nothing
 */
public record IssueRow(
    String id,
    String repo,
    String framework,
    int number,
    String title,
    String body,
    String state,
    String url,
    String author,
    List<String> labels,
    long createdAtMillis,
    long updatedAtMillis,
    Long closedAtMillis) {

  /** The Cypher parameter map of this row. */
  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("repo", repo);
    m.put("framework", framework);
    m.put("number", number);
    m.put("title", title);
    m.put("body", body);
    m.put("state", state);
    m.put("url", url);
    m.put("author", author);
    m.put("labels", labels == null ? List.of() : labels);
    m.put("createdAt", createdAtMillis);
    m.put("updatedAt", updatedAtMillis);
    m.put("closedAt", closedAtMillis);
    return m;
  }
}
