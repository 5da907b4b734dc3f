package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class IssueAccumulatorTest {
  private static GitHubEvent issue(String title, long updatedAt) {
    IssueEvent i = new IssueEvent();
    i.id = "a/b#1";
    i.repo = "a/b";
    i.number = 1;
    i.title = title;
    i.state = "open";
    i.createdAt = 0;
    i.updatedAt = updatedAt;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    return e;
  }

  private static GitHubEvent comment(long id, long at, boolean deleted) {
    GitHubEvent e = issue("t", at);
    e.type = GitHubEvent.Type.COMMENT;
    CommentEvent c = new CommentEvent();
    c.commentId = id;
    c.body = "comment " + id;
    c.createdAt = at;
    c.updatedAt = at;
    c.deleted = deleted;
    e.comment = c;
    return e;
  }

  @Test
  void newestIssueStateWinsWhateverTheArrivalOrder() {
    IssueAccumulator acc = new IssueAccumulator();
    assertTrue(acc.fold(issue("new title", 20)));
    assertFalse(acc.fold(issue("old title", 10)), "an older state changes nothing");
    assertEquals("new title", acc.issue.title);
    assertFalse(acc.fold(issue("new title", 20)), "a redelivery changes nothing");
  }

  @Test
  void commentsAreKeyedByIdSoRedeliveriesAndDeletionsCountRight() {
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("t", 1));
    assertTrue(acc.fold(comment(5, 10, false)));
    assertFalse(acc.fold(comment(5, 10, false)));
    assertTrue(acc.fold(comment(6, 11, false)));
    assertTrue(acc.fold(comment(5, 12, true)));
    assertEquals(List.of(6L), acc.comments.stream().map(c -> c.commentId).toList());
  }

  @Test
  void keepsAtMostMaxCommentsWithTheFirstAndNewestTurns() {
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("t", 1));
    for (int i = 0; i < IssueAccumulator.MAX_COMMENTS + 10; i++) {
      acc.fold(comment(i, 100 + i, false));
    }
    assertEquals(IssueAccumulator.MAX_COMMENTS, acc.comments.size());
    assertEquals(0L, acc.comments.get(0).commentId);
    assertEquals(
        IssueAccumulator.MAX_COMMENTS + 9L, acc.comments.get(acc.comments.size() - 1).commentId);
  }

  @Test
  void aFixingPullRequestChangesTheIssueOnlyWhenItsStateChanges() {
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("t", 1));
    PullRequestEvent pr = new PullRequestEvent();
    pr.id = "a/b#2";
    pr.title = "fix";
    pr.updatedAt = 50;
    GitHubEvent link = new GitHubEvent();
    link.type = GitHubEvent.Type.FIX_LINK;
    link.key = "a/b#1";
    link.pullRequest = pr;
    assertTrue(acc.fold(link));
    assertFalse(acc.fold(link));
    assertEquals(50, acc.stateVersion);
  }

  @Test
  void aLateFactWithAnOlderTimeKeepsTheVersionAndCountsAsAChange() {
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("t", 1));
    acc.fold(comment(5, 30, false));
    assertEquals(30, acc.stateVersion);
    long changes = acc.changes;
    PullRequestEvent pr = new PullRequestEvent();
    pr.id = "a/b#2";
    pr.title = "fix";
    pr.updatedAt = 20; // older than the comment, read after it
    GitHubEvent link = new GitHubEvent();
    link.type = GitHubEvent.Type.FIX_LINK;
    link.key = "a/b#1";
    link.pullRequest = pr;
    assertTrue(acc.fold(link));
    assertEquals(30, acc.stateVersion, "the version is the newest time");
    assertEquals(changes + 1, acc.changes, "a newer state of the same version");
    assertFalse(acc.fold(link));
    assertEquals(changes + 1, acc.changes, "a redelivery changes nothing");
  }
}
