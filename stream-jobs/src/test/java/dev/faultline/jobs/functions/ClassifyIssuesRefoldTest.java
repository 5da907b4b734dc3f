package dev.faultline.jobs.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A resumed replay's refolded facts in Flink's operator test harness: they rebuild an issue's state
 * without a classification until a fact new to the attempt arrives; from then on every change is
 * classified on the whole state, refolded or not.
 */
class ClassifyIssuesRefoldTest {
  private KeyedOneInputStreamOperatorTestHarness<String, GitHubEvent, ClassifiedIssueEvent> harness;

  @BeforeEach
  void open() throws Exception {
    harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(
                new ClassifyIssues(ClassifierTier.RULES, null, ReplayScope.ALL, null, null)),
            f -> f.key,
            Types.STRING);
    harness.open();
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  private static IssueEvent issue(int n, long updatedAt) {
    IssueEvent i = new IssueEvent();
    i.id = "acme/trainer#" + n;
    i.repo = "acme/trainer";
    i.number = n;
    i.title = "Job stops on 2 nodes";
    i.body = "Details in the comments.";
    i.state = "open";
    i.author = "reporter";
    i.createdAt = 1_000;
    i.updatedAt = updatedAt;
    return i;
  }

  private static GitHubEvent opened(int n, boolean refold) {
    GitHubEvent f = new GitHubEvent();
    f.type = GitHubEvent.Type.ISSUE;
    f.key = "acme/trainer#" + n;
    f.deliveryId = "d-open-" + n;
    f.issue = issue(n, 1_000);
    f.refold = refold;
    return f;
  }

  private static GitHubEvent comment(int n, long at, String body, boolean refold) {
    GitHubEvent f = new GitHubEvent();
    f.type = GitHubEvent.Type.COMMENT;
    f.key = "acme/trainer#" + n;
    f.deliveryId = "d-comment-" + n + "-" + at;
    f.issue = issue(n, at);
    CommentEvent c = new CommentEvent();
    c.commentId = at;
    c.body = body;
    c.author = "maintainer";
    c.maintainer = true;
    c.createdAt = at;
    c.updatedAt = at;
    f.comment = c;
    f.refold = refold;
    return f;
  }

  private static GitHubEvent fix(int n, long at, boolean refold) {
    GitHubEvent f = new GitHubEvent();
    f.type = GitHubEvent.Type.FIX_LINK;
    f.key = "acme/trainer#" + n;
    f.deliveryId = "d-fix-" + n;
    PullRequestEvent pr = new PullRequestEvent();
    pr.id = "acme/trainer#" + (100 + n);
    pr.repo = "acme/trainer";
    pr.number = 100 + n;
    pr.title = "Synchronise the stream before all_reduce";
    pr.body = "Fixes #" + n;
    pr.merged = true;
    pr.createdAt = at;
    pr.updatedAt = at;
    f.pullRequest = pr;
    f.refold = refold;
    return f;
  }

  private List<ClassifiedIssueEvent> out() {
    return harness.extractOutputValues();
  }

  @Test
  void refoldedFactsRebuildTheStateUntilANewFactThenEveryChangeIsClassified() throws Exception {
    harness.processElement(opened(1, true), 0);
    harness.processElement(comment(1, 2_000, "Every rank hangs in all_reduce.", true), 0);
    assertTrue(out().isEmpty(), "a killed attempt wrote these states");
    assertEquals(2, harness.numKeyedStateEntries(), "the issue's state and its refolding mark");

    harness.processElement(comment(1, 3_000, "Same here.", false), 0);
    assertEquals(1, out().size(), "a new fact: classified");
    ClassifiedIssueEvent first = out().get(0);
    assertEquals(3_000, first.stateVersion);
    assertEquals(2, first.commentCount, "on the whole history, the refolded comment included");
    assertEquals(1, harness.numKeyedStateEntries(), "the mark is gone with the new fact");

    // the issue's fix sits in another partition, still being refolded: now it counts
    harness.processElement(fix(1, 4_000, true), 0);
    assertEquals(2, out().size());
    assertEquals(List.of("acme/trainer#101"), out().get(1).fixingPullRequests);
  }

  @Test
  void anIssueWithOnlyRefoldedFactsIsNeverClassifiedAndTheLivePipelineKeepsNoMark()
      throws Exception {
    harness.processElement(opened(3, false), 0);
    harness.processElement(comment(3, 2_000, "Every rank hangs.", false), 0);
    assertEquals(2, out().size(), "no refolded fact: every change classified, as ever");
    assertEquals(1, harness.numKeyedStateEntries(), "and no mark kept");
    harness.processElement(opened(2, true), 0);
    harness.processElement(fix(2, 5_000, true), 0);
    assertEquals(2, out().size(), "only refolded facts: nothing new to classify");
    assertEquals(3, harness.numKeyedStateEntries());
  }
}
