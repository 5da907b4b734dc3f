package dev.faultline.jobs.classify;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Classifies a merged change by itself (its title, description and, for git history, the start of
 * its diff), so fix-pattern and fix-size statistics exist also for fixes that close no issue.
 *
 * <p>A merged change counts as a defect fix when the classifier calls it a bug and the change says
 * it repairs something: it closes an issue, or its title has a fix word ({@link #FIX_CUE}). The
 * classifier answers BUG for any merged pull request that describes no other kind (right for the
 * pull requests that close bug reports, which it was built on), but most of a repository's merged
 * changes are features, docs and chores: on DeepSpeed's history since 2025 it called 662 of 692
 * changes bugs, 249 of whose titles say fix, bug, crash, hang, error, …. The others get no
 * classification.
 *
 * <p>A classification carries every dimension's distribution ({@link Distributions#aligned}, the
 * same as an issue's), written on the PullRequest node as {@code <key>Probabilities} beside its
 * {@code <key>Calibration}, so the fix queries estimate from them (issue #31).
 */
public final class PullRequestClassification {
  /**
   * Characters of the description the classifier reads (as for an issue's linked pull requests).
   */
  static final int MAX_BODY = IssueAccumulator.MAX_TEXT;

  /** Words with which a change's title says it repairs a defect. */
  static final Pattern FIX_CUE =
      Pattern.compile(
          "\\b(fix(e[sd]|ing)?|bug(s|fix)?|hotfix|repair(s|ed)?|crash(es|ed)?|hang(s|ing)?|deadlock|regression"
              + "|broken|incorrect|wrong|error|exception|fail(s|ed|ure|ing)?|leak)\\b",
          Pattern.CASE_INSENSITIVE);

  private final DefectClassifier classifier;

  public PullRequestClassification(DefectClassifier classifier) {
    this.classifier = classifier;
  }

  /** The classifier's input for a merged change: a merged pull request with no thread. */
  public static IssueText textOf(PullRequestEvent p) {
    String body = IssueAccumulator.truncate(p.body == null ? "" : p.body);
    if (p.diffSummary != null && !p.diffSummary.isEmpty()) {
      body = body + "\n\n" + p.diffSummary;
    }
    return new IssueText(
        p.repo, p.number, p.title, body, List.of(), List.of(), List.of(), "merged");
  }

  /**
   * A merged change as the learned layer was trained on them: the description, then its changed
   * files.
   */
  public static IssueText changeTextOf(PullRequestEvent p) {
    StringBuilder body = new StringBuilder(IssueAccumulator.truncate(p.body == null ? "" : p.body));
    ChangeDetails d = ChangeDetails.fromDiff(p.diffSummary);
    if (!d.files().isEmpty()) {
      body.append("\n\nchanged files:");
      d.files()
          .forEach(
              f ->
                  body.append('\n')
                      .append(f.path())
                      .append('+')
                      .append(f.additions())
                      .append('-')
                      .append(f.deletions()));
    }
    return new IssueText(
        p.repo, p.number, p.title, body.toString(), List.of(), List.of(), List.of(), "merged");
  }

  /** The change's classification when it is a merged bug fix, else null. */
  public PullRequestRow.Classification classify(PullRequestEvent p) {
    if (!p.merged || (p.fixes.isEmpty() && (p.title == null || !FIX_CUE.matcher(p.title).find()))) {
      return null;
    }
    Classification c =
        classifier instanceof Classifier
            ? classifier.classify(textOf(p))
            // the learned layer reads a change as it was trained: description and file list as
            // text, the diff apart
            : classifier.classify(changeTextOf(p), ChangeDetails.fromDiff(p.diffSummary));
    if (c.kind().value() != Kind.BUG) {
      return null;
    }
    java.util.Map<Dimension, Object> codes = new java.util.EnumMap<>(Dimension.class);
    java.util.Map<Dimension, String> calibration = new java.util.EnumMap<>(Dimension.class);
    java.util.Map<Dimension, List<Double>> probabilities = new java.util.EnumMap<>(Dimension.class);
    c.labels()
        .forEach(
            (d, l) -> {
              codes.put(d, l.value());
              if (l.calibration() != null) {
                calibration.put(d, l.calibration());
              }
              // the distribution the fix figures estimate from (as an issue's: Distributions)
              probabilities.put(d, Distributions.aligned(d, l));
            });
    return new PullRequestRow.Classification(
        codes, c.classifierVersion(), calibration, probabilities);
  }
}
