package dev.faultline.ingest.backfill.git;

import java.time.Instant;
import java.util.List;

/**
 * One change that reached the default branch, as git history records it: a squash-merged pull
 * request ({@code Title (#123)}), a merge commit of one ({@code Merge pull request #123 from …}),
 * or a direct commit.
 *
 * @param sha the commit on the default branch (the squash commit, the merge commit, or the commit
 *     itself)
 * @param number the pull request's number; null for a direct commit
 * @param title the pull request's title (without the {@code (#123)} suffix of a squash merge)
 * @param body the rest of the message, empty when there is none
 * @param authorName the author's name as git records it
 * @param authorLogin the author's GitHub login when the history tells it (a noreply address, the
 *     branch owner of a merge commit), else null
 * @param authoredAt when the change was authored
 * @param mergedAt when it reached the default branch (the committer date of {@code sha})
 * @param files the first {@link ChangeDiffer#MAX_FILES} files changed, in path order
 * @param changedFiles all files changed (binary ones included)
 * @param additions lines added over all files (binary files count 0)
 * @param deletions lines deleted over all files
 * @param closingReferences issue ids ({@code owner/repo#n}) its message closes with GitHub's
 *     keywords
 * @param diffSummary the start of a one-line-context diff, at most {@link
 *     ChangeDiffer#SUMMARY_CHARS} chars
 * @param unreadableFiles files whose content is not in the clone (a partial clone): counted as
 *     changed, 0/0
 * @param leniencyDecoded true when the message was not valid in its declared encoding (UTF-8 by
 *     default) and was decoded leniently (malformed bytes replaced)
 */
public record MergedChange(
    String sha,
    Kind kind,
    Integer number,
    String title,
    String body,
    String authorName,
    String authorLogin,
    Instant authoredAt,
    Instant mergedAt,
    List<FileChange> files,
    int changedFiles,
    int additions,
    int deletions,
    List<String> closingReferences,
    String diffSummary,
    int unreadableFiles,
    boolean leniencyDecoded) {

  /** How the change reached the default branch. */
  public enum Kind {
    /**
     * A pull request squash-merged (or rebased) into one commit whose title ends with {@code (#n)}.
     */
    SQUASH,
    /** A merge commit of a pull request ({@code Merge pull request #n from …}). */
    MERGE,
    /** Any other commit of the first-parent history, pushed directly (keyed by its sha). */
    DIRECT
  }

  /** One file of a change; a binary file counts as changed with 0 added and 0 deleted lines. */
  public record FileChange(
      String path, Status status, int additions, int deletions, boolean binary) {}

  /** What happened to a file, in the words of GitHub's pull request files API. */
  public enum Status {
    ADDED,
    MODIFIED,
    REMOVED,
    RENAMED;

    public String apiName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
