package dev.faultline.jobs.classify;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.IssueText;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.schemas.taxonomy.Kind;
import java.util.List;

/**
 * Classifies a merged change by itself (its title, description and, for git history, the start of its diff), so
 * fix-pattern and fix-size statistics exist also for fixes that close no issue. Only merged changes the classifier
 * calls a bug fix get a classification; the others get none.
 */
public final class PullRequestClassification {
  /** Characters of the description the classifier reads (as for an issue's linked pull requests). */
  static final int MAX_BODY = IssueAccumulator.MAX_TEXT;

  private final Classifier classifier;

  public PullRequestClassification(Classifier classifier) {
    this.classifier = classifier;
  }

  /** The classifier's input for a merged change: a merged pull request with no thread. */
  public static IssueText textOf(PullRequestEvent p) {
    String body = IssueAccumulator.truncate(p.body == null ? "" : p.body);
    if (p.diffSummary != null && !p.diffSummary.isEmpty()) {
      body = body + "\n\n" + p.diffSummary;
    }
    return new IssueText(p.repo, p.number, p.title, body, List.of(), List.of(), List.of(), "merged");
  }

  /** The change's classification when it is a merged bug fix, else null. */
  public PullRequestRow.Classification classify(PullRequestEvent p) {
    if (!p.merged) {
      return null;
    }
    Classification c = classifier.classify(textOf(p));
    if (c.kind().value() != Kind.BUG) {
      return null;
    }
    return new PullRequestRow.Classification(
        c.kind().value().name(),
        c.symptom().value().name(),
        c.symptomClass().value().name(),
        c.rootCause().value().name(),
        c.fixPattern().value().name(),
        c.stage().value().name(),
        c.classifierVersion());
  }
}
