package dev.faultline.graph;

import java.util.HashMap;
import java.util.Map;

/**
 * A release of a framework.
 *
 * @param version as written, without a leading {@code v}
 * @param source {@code git} for a release tag read from a clone (its date is the tag's), {@code
 *     github} for a GitHub release (its date is the publication's), which a later tag row does not
 *     overwrite
 */
public record ReleaseRow(
    String framework,
    String repo,
    String version,
    String tag,
    String url,
    long publishedAtMillis,
    boolean prerelease,
    boolean deleted,
    String source) {

  /** A GitHub release. */
  public ReleaseRow(
      String framework,
      String repo,
      String version,
      String tag,
      String url,
      long publishedAtMillis,
      boolean prerelease,
      boolean deleted) {
    this(framework, repo, version, tag, url, publishedAtMillis, prerelease, deleted, "github");
  }

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
    m.put("source", source);
    return m;
  }
}
