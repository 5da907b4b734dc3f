package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which events of an issue's life call the encoder (and its tokenizer) in the classify task: the
 * opening and an edit of the text the encoder reads do; a comment past the encoder's window and a
 * label change do not, and their labels are those of a classifier that encodes every time.
 */
class IssueClassificationEncoderCallsTest {

  /** The real encoder, its calls and tokenizer calls counted. */
  static final class Counting implements TextEmbedder {
    final AtomicInteger encodes = new AtomicInteger();
    final AtomicInteger keys = new AtomicInteger();

    @Override
    public float[] embed(String text) {
      encodes.incrementAndGet();
      return MiniLmEmbedder.shared().embed(text);
    }

    @Override
    public Object inputKey(String text) {
      keys.incrementAndGet();
      return MiniLmEmbedder.shared().inputKey(text);
    }

    @Override
    public int dimension() {
      return MiniLmEmbedder.shared().dimension();
    }

    @Override
    public String name() {
      return MiniLmEmbedder.shared().name();
    }
  }

  private static final String BODY =
      String.join(
          "\n",
          java.util.Collections.nCopies(
              12,
              "Every rank blocks in the gradient all-reduce after the optimizer step with bucket"
                  + " size 5e8."));

  private static Counting counting;
  private static IssueClassification cached;

  /** Encodes every text anew: the labels a cache must not change. */
  private static LearnedClassifier uncached;

  @BeforeAll
  static void classifiers() {
    counting = new Counting();
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    cached =
        new IssueClassification(
            new LearnedClassifier(rules, new VectorCache(counting, 64), LearnedModel.bundled()));
    uncached =
        new LearnedClassifier(
            rules, new VectorCache(MiniLmEmbedder.shared(), 0), LearnedModel.bundled());
  }

  private static GitHubEvent issue(String title, String body, List<String> labels, long at) {
    IssueEvent i = new IssueEvent();
    i.id = "a/b#7";
    i.repo = "a/b";
    i.number = 7;
    i.title = title;
    i.body = body;
    i.state = "open";
    i.createdAt = 0;
    i.updatedAt = at;
    i.labels = labels;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    return e;
  }

  private static GitHubEvent comment(long id, long at) {
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.COMMENT;
    e.key = "a/b#7";
    CommentEvent c = new CommentEvent();
    c.commentId = id;
    c.body = "Same here with 8 nodes and NCCL 2.18, it hangs at step " + id;
    c.author = "someone";
    c.createdAt = at;
    c.updatedAt = at;
    e.comment = c;
    return e;
  }

  /** Folds a fact, classifies, and returns {encoder calls, tokenizer calls} it took. */
  private static int[] step(IssueAccumulator acc, GitHubEvent fact, List<String> keys) {
    int encodes = counting.encodes.get();
    int tokenised = counting.keys.get();
    acc.fold(fact);
    ClassifiedIssueEvent e = cached.classify(acc, acc.stateVersion, "d" + acc.stateVersion);
    assertEquals(
        uncached.classify(IssueClassification.textOf(acc), ChangeDetails.NONE),
        e.classification,
        "the labels of a classifier that encodes every time");
    keys.add(e.textVectorKey);
    return new int[] {counting.encodes.get() - encodes, counting.keys.get() - tokenised};
  }

  @Test
  void onlyTheOpeningAndEditsOfTheEncodedTextCallTheEncoder() {
    IssueAccumulator acc = new IssueAccumulator();
    List<String> keys = new java.util.ArrayList<>();
    String title = "Hang in all-reduce after the first step";
    int[] opened = step(acc, issue(title, BODY, List.of(), 10), keys);
    assertEquals(1, opened[0], "a new issue is encoded");

    int[] commented = step(acc, comment(1, 20), keys);
    assertEquals(0, commented[0], "a comment past the window calls no encoder");
    assertEquals(0, commented[1], "nor the tokenizer: the encoder's text is unchanged");
    int[] second = step(acc, comment(2, 30), keys);
    assertEquals(0, second[0] + second[1]);

    int[] labelled = step(acc, issue(title, BODY, List.of("bug", "distributed"), 40), keys);
    assertEquals(0, labelled[0] + labelled[1], "a label change calls neither");
    assertEquals(List.of(keys.get(0), keys.get(0), keys.get(0), keys.get(0)), keys);

    int[] edited = step(acc, issue(title, "On 16 GPUs. " + BODY, List.of("bug"), 50), keys);
    assertEquals(1, edited[0], "an edit of the body's start changes what the encoder reads");
    assertNotEquals(keys.get(0), keys.get(4));
    int[] retitled = step(acc, issue("Hang in NCCL", "On 16 GPUs. " + BODY, List.of(), 60), keys);
    assertEquals(1, retitled[0], "so does a new title");
    int[] tailEdited =
        step(
            acc,
            issue("Hang in NCCL", "On 16 GPUs. " + BODY + "\nEdit: fixed", List.of(), 70),
            keys);
    assertEquals(0, tailEdited[0], "an edit past the window is not encoded");
    assertEquals(keys.get(5), keys.get(6));
  }
}
