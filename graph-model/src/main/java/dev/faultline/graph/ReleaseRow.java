package dev.faultline.graph;

import java.util.HashMap;
import java.util.Map;

/**
 * A release of a framework.
 *
 * @param version as written, without a leading {@code v}
 */
public record ReleaseRow(
    String framework, String repo, String version, String tag, String url, long publishedAtMillis, boolean prerelease, boolean deleted) {

  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("framework", framework);
    m.put("repo", repo);
    m.put("version", version);
    m.put("tag", tag);
    m.put("url", url);
    m.put("publishedAt", publishedAtMillis);
    m.put("prerelease", prerelease);
    m.put("deleted", deleted);
    return m;
  }
}
