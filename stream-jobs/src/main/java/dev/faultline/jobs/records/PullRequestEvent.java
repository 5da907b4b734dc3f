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

  public PullRequestEvent() {}
}
