package dev.faultline.classifier;

import java.util.List;
import java.util.Objects;

/**
 * What the pipeline knows of an issue (or of a pull request: then {@code state} is {@code "merged"}
 * or the item's own description is its body). All text fields are non-null after construction;
 * lists are immutable.
 *
 * @param repo {@code owner/name}
 * @param number issue or PR number
 * @param title the title
 * @param body the opening post
 * @param labels GitHub labels as set by people
 * @param comments the thread's comments, oldest first
 * @param pullRequests linked pull requests
 * @param state {@code open}, {@code closed} or {@code merged}
 */
public record IssueText(
    String repo,
    int number,
    String title,
    String body,
    List<String> labels,
    List<Comment> comments,
    List<LinkedPullRequest> pullRequests,
    String state) {

  public IssueText {
    repo = repo == null ? "" : repo;
    title = title == null ? "" : title;
    body = body == null ? "" : body;
    labels = labels == null ? List.of() : labels.stream().filter(Objects::nonNull).toList();
    comments = comments == null ? List.of() : comments.stream().filter(Objects::nonNull).toList();
    pullRequests =
        pullRequests == null ? List.of() : pullRequests.stream().filter(Objects::nonNull).toList();
    state = state == null ? "" : state;
  }

  /** A minimal issue: no labels, comments or pull requests. */
  public static IssueText of(String repo, int number, String title, String body) {
    return new IssueText(repo, number, title, body, List.of(), List.of(), List.of(), "open");
  }

  /** Whether this item is itself a merged pull request rather than an issue. */
  public boolean isMergedPullRequest() {
    return "merged".equalsIgnoreCase(state);
  }
}
