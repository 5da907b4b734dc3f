package dev.faultline.jobs.records;

/** A release of a repository. */
public class ReleaseEvent {
  public String repo;
  public String tag;

  /** The tag without a leading {@code v}. */
  public String version;

  public String url;
  public long publishedAt;
  public boolean prerelease;
  public boolean deleted;

  /**
   * {@code git} for a release tag read from a clone, {@code github} for GitHub's release events.
   */
  public String source;

  public ReleaseEvent() {}
}
