package dev.faultline.jobs.classify;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.LinkedPullRequest;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.VectorStore;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Classifies what an {@link IssueAccumulator} knows, as the pipeline's {@link
 * ClassifiedIssueEvent}.
 */
public final class IssueClassification {
  private final DefectClassifier classifier;
  private final VectorStore vectors;

  public IssueClassification(DefectClassifier classifier) {
    this(classifier, VectorStore.NONE);
  }

  /**
   * @param vectors the store the classifier reads text vectors from: a vector it holds is not sent
   *     to the graph again
   */
  public IssueClassification(DefectClassifier classifier, VectorStore vectors) {
    this.classifier = classifier;
    this.vectors = vectors;
  }

  /** The classifier in use. */
  public DefectClassifier classifier() {
    return classifier;
  }

  /** The classifier's input for this issue. */
  public static IssueText textOf(IssueAccumulator acc) {
    IssueEvent i = acc.issue;
    List<Comment> comments =
        acc.comments.stream().map(c -> new Comment(c.author, c.maintainer, c.body)).toList();
    List<LinkedPullRequest> prs =
        acc.fixes.values().stream()
            .sorted(java.util.Comparator.comparing(p -> p.id))
            .map(p -> new LinkedPullRequest(p.title, p.body, p.merged, p.additions, p.deletions))
            .toList();
    return new IssueText(i.repo, i.number, i.title, i.body, i.labels, comments, prs, i.state);
  }

  /**
   * Classifies the issue's newest state. With the learned classifier the event carries the text
   * vector's key, and the vector itself when the key differs from the one the accumulator last sent
   * and the vector did not come from the graph; the accumulator then records the key.
   *
   * @param deliveryId the delivery whose fact caused the classification
   */
  public ClassifiedIssueEvent classify(IssueAccumulator acc, long classifiedAt, String deliveryId) {
    IssueEvent i = acc.issue;
    Classification c;
    String vectorKey = null;
    float[] vector = null;
    if (classifier instanceof LearnedClassifier learned) {
      LearnedClassifier.Keyed k = learned.classifyKeyed(textOf(acc), ChangeDetails.NONE);
      c = k.classification();
      vectorKey = k.vectorKey();
      vector = vectorKey.equals(acc.textVectorKey) || vectors.holds(vectorKey) ? null : k.vector();
      acc.textVectorKey = vectorKey;
    } else {
      c = classifier.classify(textOf(acc));
    }
    ClassifiedIssueEvent e = new ClassifiedIssueEvent();
    e.textVectorKey = vectorKey;
    e.textVector = vector;
    e.issue = i; // the accumulator replaces its issue on change, never alters the one emitted
    e.framework = c.framework().value() != null ? c.framework().value() : i.repo;
    e.stateVersion = acc.stateVersion;
    e.stateChanges = acc.changes;
    e.commentCount =
        i.comments != null ? Math.max(i.comments, acc.comments.size()) : acc.comments.size();
    e.classification = c;
    e.classifiedAt = classifiedAt;
    e.deliveryId = deliveryId;
    // A token of this classification, not a function of the state: a replay of the same state is
    // another classification, whose history is written anew (LabelHistory).
    e.pass = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
    e.fixingPullRequests = new ArrayList<>(fixingPullRequests(acc));
    e.answer = answerOf(acc);
    return e;
  }

  /**
   * The reply a maintainer reading this issue as a similar one looks for first: the newest comment
   * of a maintainer (the repository's owner, a member or a collaborator), else the newest comment
   * by someone other than the reporter, else null. Blank comments do not count.
   */
  public static CommentEvent answerOf(IssueAccumulator acc) {
    CommentEvent other = null;
    String reporter = acc.issue == null ? null : acc.issue.author;
    for (int i = acc.comments.size() - 1; i >= 0; i--) {
      CommentEvent c = acc.comments.get(i);
      if (c.body == null || c.body.isBlank()) {
        continue;
      }
      if (c.maintainer) {
        return c;
      }
      if (other == null && (reporter == null || !reporter.equals(c.author))) {
        other = c;
      }
    }
    return other;
  }

  /** Ids of the pull requests that say they fix the issue. */
  public static List<String> fixingPullRequests(IssueAccumulator acc) {
    return acc.fixes.values().stream().map((PullRequestEvent p) -> p.id).sorted().toList();
  }
}
