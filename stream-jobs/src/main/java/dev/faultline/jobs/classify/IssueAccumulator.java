package dev.faultline.jobs.classify;

import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the pipeline knows of one issue: its newest state, its comments and the pull requests
 * that say they fix it. Plain Java (kept as Flink keyed state by {@code ClassifyIssues}). Folding
 * is idempotent and order-tolerant: the newest issue state wins by {@code updated_at}, comments are
 * keyed by id, fixing PRs by PR id, so a replayed or reordered fact changes nothing it should not.
 */
public class IssueAccumulator {
  /** Comments kept per issue: the classifier reads the start of a thread and its latest turns. */
  public static final int MAX_COMMENTS = 40;

  /** Characters kept of a comment or PR body: enough for a diagnosis, bounded state. */
  public static final int MAX_TEXT = 8_000;

  public IssueEvent issue;
  public List<CommentEvent> comments = new ArrayList<>();
  public Map<String, PullRequestEvent> fixes = new HashMap<>();

  /** The newest event time folded in (issue, comment or PR). */
  public long stateVersion;

  /**
   * How many folds changed the state: with {@link #stateVersion}, the order of this issue's states
   * in one job. A late fact with an older time (a fix-link read after a newer comment) changes the
   * state without advancing its version; it advances this count.
   */
  public long changes;

  /**
   * The key of the text vector last sent to the graph for this issue ({@link
   * dev.faultline.jobs.records.ClassifiedIssueEvent#textVectorKey}), else null.
   */
  public String textVectorKey;

  public IssueAccumulator() {}

  /** Folds one fact in; returns whether what the classifier sees changed. */
  public boolean fold(GitHubEvent fact) {
    boolean changed = false;
    if (fact.issue != null) {
      changed |= foldIssue(fact.issue);
    }
    if (fact.type == GitHubEvent.Type.COMMENT && fact.comment != null) {
      changed |= foldComment(fact.comment);
    }
    if (fact.type == GitHubEvent.Type.FIX_LINK && fact.pullRequest != null) {
      changed |= foldFix(fact.pullRequest);
    }
    if (changed) {
      changes++;
    }
    return changed;
  }

  private boolean foldIssue(IssueEvent next) {
    if (issue != null && next.updatedAt < issue.updatedAt) {
      return false;
    }
    boolean changed = issue == null || !sameContent(issue, next);
    if (issue != null && next.comments == null) {
      next.comments = issue.comments;
    }
    if (issue != null
        && next.transferredTo == null
        && issue.transferredTo != null
        && !"transferred".equals(next.state)) {
      // A later event of the old issue would not undo a transfer; keep the pointer.
      next.transferredTo = issue.transferredTo;
      next.state = issue.state;
    }
    next.body = truncate(next.body);
    issue = next;
    stateVersion = Math.max(stateVersion, next.updatedAt);
    return changed;
  }

  private static boolean sameContent(IssueEvent a, IssueEvent b) {
    return Objects.equals(a.title, b.title)
        && Objects.equals(truncate(a.body), truncate(b.body))
        && Objects.equals(a.state, b.state)
        && Objects.equals(a.labels, b.labels)
        && Objects.equals(a.closedAt, b.closedAt)
        && Objects.equals(a.transferredTo, b.transferredTo)
        && (b.comments == null || Objects.equals(a.comments, b.comments))
        && a.updatedAt == b.updatedAt;
  }

  private boolean foldComment(CommentEvent next) {
    for (int i = 0; i < comments.size(); i++) {
      CommentEvent old = comments.get(i);
      if (old.commentId != next.commentId) {
        continue;
      }
      if (next.deleted) {
        comments.remove(i);
        return true;
      }
      if (next.updatedAt <= old.updatedAt) {
        return false;
      }
      next.body = truncate(next.body);
      comments.set(i, next);
      stateVersion = Math.max(stateVersion, next.updatedAt);
      return true;
    }
    if (next.deleted) {
      return false;
    }
    next.body = truncate(next.body);
    comments.add(next);
    comments.sort(
        Comparator.comparingLong((CommentEvent c) -> c.createdAt)
            .thenComparingLong(c -> c.commentId));
    if (comments.size() > MAX_COMMENTS) {
      // Keep the first turns (the reporter's follow-ups) and the newest ones (diagnosis,
      // resolution).
      comments.remove(MAX_COMMENTS / 4);
    }
    stateVersion = Math.max(stateVersion, next.updatedAt);
    return true;
  }

  private boolean foldFix(PullRequestEvent pr) {
    PullRequestEvent old = fixes.get(pr.id);
    if (old != null && pr.updatedAt <= old.updatedAt) {
      return false;
    }
    pr.body = truncate(pr.body);
    fixes.put(pr.id, pr);
    stateVersion = Math.max(stateVersion, pr.updatedAt);
    return old == null
        || old.merged != pr.merged
        || !Objects.equals(old.title, pr.title)
        || !Objects.equals(old.body, pr.body)
        || old.additions != pr.additions
        || old.deletions != pr.deletions;
  }

  static String truncate(String text) {
    return text == null || text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
  }
}
