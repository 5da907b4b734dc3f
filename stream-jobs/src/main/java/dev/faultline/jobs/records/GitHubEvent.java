package dev.faultline.jobs.records;

/**
 * One normalised fact from a delivery, keyed by what it is about. A union: exactly one of {@link
 * #issue} (with {@link #comment} for comment events), {@link #pullRequest} or {@link #release} is
 * set, as {@link #type} says.
 */
public class GitHubEvent {
  /** What kind of fact this is. */
  public enum Type {
    /** An issue's state (issues events). */
    ISSUE,
    /** A comment on an issue, with the issue's state as the comment delivery reports it. */
    COMMENT,
    /** A pull request that says it fixes the issue {@link #key}. */
    FIX_LINK,
    /** A pull request's own state. */
    PULL_REQUEST,
    /** A release. */
    RELEASE
  }

  public Type type;

  /**
   * Issue id for ISSUE, COMMENT and FIX_LINK; PR id for PULL_REQUEST; {@code owner/repo} for
   * RELEASE.
   */
  public String key;

  public String deliveryId;
  public String event;
  public String action;
  public IssueEvent issue;
  public CommentEvent comment;
  public PullRequestEvent pullRequest;
  public ReleaseEvent release;

  /**
   * From a delivery a killed attempt of this replay already handled ({@link
   * dev.faultline.jobs.classify.ReplayResume}): folded into its issue's state, not classified or
   * written again unless the issue changed since in this attempt.
   */
  public boolean refold;

  public GitHubEvent() {}

  @Override
  public String toString() {
    return "GitHubEvent{"
        + type
        + " "
        + key
        + " "
        + event
        + "/"
        + action
        + " delivery="
        + deliveryId
        + "}";
  }
}
