package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.sink.IssueRows;
import org.junit.jupiter.api.Test;

/**
 * The reply a similar-issues reader looks for ({@link IssueClassification#answerOf}) and its way to
 * the graph's row ({@link IssueRows}).
 */
class IssueAnswerTest {
  private static final String REPORTER = "reporter";

  private static IssueAccumulator issue() {
    IssueEvent i = new IssueEvent();
    i.id = "a/b#1";
    i.repo = "a/b";
    i.number = 1;
    i.title = "Hang in allreduce";
    i.body = "stuck";
    i.state = "open";
    i.author = REPORTER;
    i.createdAt = 0;
    i.updatedAt = 1;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(e);
    return acc;
  }

  private static void comment(
      IssueAccumulator acc, long id, String author, boolean maintainer, String body) {
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.COMMENT;
    e.key = acc.issue.id;
    e.issue = acc.issue;
    CommentEvent c = new CommentEvent();
    c.commentId = id;
    c.author = author;
    c.maintainer = maintainer;
    c.body = body;
    c.createdAt = 100 * id;
    c.updatedAt = 100 * id;
    e.comment = c;
    acc.fold(e);
  }

  @Test
  void noReplyButTheReportersOwnIsNoAnswer() {
    IssueAccumulator acc = issue();
    assertNull(IssueClassification.answerOf(acc));
    comment(acc, 1, REPORTER, false, "any news?");
    assertNull(IssueClassification.answerOf(acc));
  }

  @Test
  void theNewestReplyOfSomeoneElseWhenNoMaintainerReplied() {
    IssueAccumulator acc = issue();
    comment(acc, 1, "helper", false, "same here");
    comment(acc, 2, "other", false, "try NCCL_P2P_DISABLE=1");
    comment(acc, 3, REPORTER, false, "thanks");
    comment(acc, 4, "late", false, "   ");
    CommentEvent a = IssueClassification.answerOf(acc);
    assertEquals("other", a.author);
    assertEquals("try NCCL_P2P_DISABLE=1", a.body);
  }

  @Test
  void aMaintainersNewestReplyWinsOverNewerRepliesOfOthers() {
    IssueAccumulator acc = issue();
    comment(acc, 1, "maint", true, "first guess");
    comment(acc, 2, "maint", true, "fixed on master; upgrade to 0.14.3");
    comment(acc, 3, "other", false, "works for me now");
    assertEquals("fixed on master; upgrade to 0.14.3", IssueClassification.answerOf(acc).body);
  }

  @Test
  void theAnswerReachesTheGraphsRow() {
    IssueAccumulator acc = issue();
    comment(acc, 2, "maint", true, "fixed on master");
    IssueRow row =
        IssueRows.of(
            new IssueClassification(new Classifier(ClassifierConfig.defaults()))
                .classify(acc, 5L, "d-1"));
    assertEquals(new IssueRow.Answer("maint", true, 200L, "fixed on master"), row.answer());
    assertNull(
        IssueRows.of(
                new IssueClassification(new Classifier(ClassifierConfig.defaults()))
                    .classify(issue(), 5L, "d-2"))
            .answer());
  }
}
