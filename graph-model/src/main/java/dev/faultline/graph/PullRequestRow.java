package dev.faultline.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pull request's newest state.
 *
 * @param fixes ids ({@code owner/repo#n}) of the issues its closing keywords name
 */
public record PullRequestRow(
    String id,
    String repo,
    String framework,
    int number,
    String title,
    String url,
    String state,
    boolean merged,
    Long mergedAtMillis,
    long createdAtMillis,
    long updatedAtMillis,
    int additions,
    int deletions,
    int changedFiles,
    List<String> fixes) {

  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("repo", repo);
    m.put("framework", framework);
    m.put("number", number);
    m.put("title", title);
    m.put("url", url);
    m.put("state", state);
    m.put("merged", merged);
    m.put("mergedAt", mergedAtMillis);
    m.put("createdAt", createdAtMillis);
    m.put("updatedAt", updatedAtMillis);
    m.put("additions", additions);
    m.put("deletions", deletions);
    m.put("changedFiles", changedFiles);
    m.put("fixes", fixes == null ? List.of() : fixes);
    return m;
  }
}
