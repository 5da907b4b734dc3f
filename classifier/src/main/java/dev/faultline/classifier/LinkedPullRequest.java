package dev.faultline.classifier;

/**
 * A pull request linked to an issue (e.g. one that says "Fixes #N").
 *
 * @param title the PR title, never null
 * @param body the PR description, never null
 * @param merged whether it was merged
 * @param additions lines added
 * @param deletions lines deleted
 */
public record LinkedPullRequest(
    String title, String body, boolean merged, int additions, int deletions) {
  public LinkedPullRequest {
    title = title == null ? "" : title;
    body = body == null ? "" : body;
  }
}
