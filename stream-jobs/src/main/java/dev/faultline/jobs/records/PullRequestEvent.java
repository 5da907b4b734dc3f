package dev.faultline.jobs.records;

import java.util.ArrayList;
import java.util.List;

/** A pull request's state as one delivery reports it. */
public class PullRequestEvent {
  /** {@code owner/repo#n} */
  public String id;

  public String repo;
  public int number;
  public String title;
  public String body;
  public String url;
  public String state;
  public boolean merged;
  public Long mergedAt;
  public long createdAt;
  public long updatedAt;
  public int additions;
  public int deletions;
  public int changedFiles;

  /** Issues its closing keywords name ({@code owner/repo#n}). */
  public List<String> fixes = new ArrayList<>();

  /**
   * Whether the payload had additions and deletions (a REST listing has not; then the graph keeps
   * what it has).
   */
  public boolean sizeKnown;

  /** {@code git} for changes read from a clone's history, null for GitHub's own payloads. */
  public String source;

  /**
   * For git history: {@code SQUASH}, {@code MERGE} or {@code DIRECT} (a commit pushed without a
   * pull request).
   */
  public String changeKind;

  /** The commit that brought the change to the default branch, when known. */
  public String mergeCommitSha;

  /** The author's login, when known. */
  public String author;

  /** The start of the change's diff (git history only), for classifying the change itself. */
  public String diffSummary;

  public PullRequestEvent() {}
}
