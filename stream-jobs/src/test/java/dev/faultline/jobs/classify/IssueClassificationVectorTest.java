package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.sink.IssueRows;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text vector goes to the graph once per encoded text of an issue, not with every comment. */
class IssueClassificationVectorTest {

  private static final String BODY =
      String.join(
          "\n",
          java.util.Collections.nCopies(
              12,
              "Every rank blocks in the gradient all-reduce after the optimizer step with bucket size 5e8."));

  private static GitHubEvent issue(String title, long updatedAt) {
    IssueEvent i = new IssueEvent();
    i.id = "a/b#1";
    i.repo = "a/b";
    i.number = 1;
    i.title = title;
    i.body = BODY;
    i.state = "open";
    i.createdAt = 0;
    i.updatedAt = updatedAt;
    i.labels = List.of();
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    return e;
  }

  private static GitHubEvent comment(GitHubEvent issue, long id, long at) {
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.COMMENT;
    e.key = issue.key;
    CommentEvent c = new CommentEvent();
    c.commentId = id;
    c.body = "Same here with 8 nodes, comment " + id;
    c.createdAt = at;
    c.updatedAt = at;
    e.comment = c;
    return e;
  }

  @Test
  void theVectorIsSentWhenItsKeyIsNewToTheIssueAndNotWithACommentThatKeepsIt() {
    IssueClassification c = new IssueClassification(LearnedClassifier.shared());
    IssueAccumulator acc = new IssueAccumulator();
    GitHubEvent opened = issue("Hang in all-reduce after the first step", 10);
    acc.fold(opened);
    ClassifiedIssueEvent first = c.classify(acc, acc.stateVersion, "d1");
    assertNotNull(first.textVectorKey);
    assertNotNull(first.textVector, "a new issue sends its vector");
    assertEquals(384, first.textVector.length);
    Map<String, Object> row = IssueRows.of(first).toParameters();
    assertEquals(first.textVectorKey, row.get("textVectorKey"));
    assertEquals(384, ((List<?>) row.get("textVector")).size());

    acc.fold(comment(opened, 7, 20));
    ClassifiedIssueEvent commented = c.classify(acc, acc.stateVersion, "d2");
    assertEquals(first.textVectorKey, commented.textVectorKey, "the comment is past the window");
    assertNull(commented.textVector, "the comment does not resend the vector");
    Map<String, Object> commentRow = IssueRows.of(commented).toParameters();
    assertNull(commentRow.get("textVector"));
    assertNull(commentRow.get("textVectorKey"), "nothing to write: the graph keeps its pair");

    acc.fold(issue("Hang in reduce-scatter after the first step", 30));
    ClassifiedIssueEvent edited = c.classify(acc, acc.stateVersion, "d3");
    assertNotEquals(first.textVectorKey, edited.textVectorKey);
    assertNotNull(edited.textVector, "an edited title is a new text: its vector is sent");
    assertArrayEquals(
        LearnedClassifier.shared()
            .classifyKeyed(
                IssueClassification.textOf(acc), dev.faultline.classifier.ChangeDetails.NONE)
            .vector(),
        edited.textVector);
  }

  @Test
  void aVectorTheGraphGaveIsNotSentBack() {
    dev.faultline.classifier.learned.VectorStore graph =
        new dev.faultline.classifier.learned.VectorStore() {
          @Override
          public float[] find(String key) {
            return null;
          }

          @Override
          public boolean holds(String key) {
            return true;
          }
        };
    IssueClassification c = new IssueClassification(LearnedClassifier.shared(), graph);
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("Hang in all-reduce after the first step", 10));
    ClassifiedIssueEvent e = c.classify(acc, acc.stateVersion, "d1");
    assertNotNull(e.textVectorKey);
    assertNull(e.textVector, "the graph holds it already");
  }

  @Test
  void theRulesTierSendsNoVector() {
    IssueClassification c = new IssueClassification(new Classifier(ClassifierConfig.defaults()));
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(issue("Hang in all-reduce after the first step", 10));
    ClassifiedIssueEvent e = c.classify(acc, acc.stateVersion, "d1");
    assertNull(e.textVectorKey);
    assertNull(e.textVector);
    IssueRow r = IssueRows.of(e);
    assertNull(r.textVector());
  }
}
