package dev.faultline.jobs.functions;

import dev.faultline.classifier.Frameworks;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.PullRequestClassification;
import dev.faultline.jobs.records.PullRequestEvent;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * A pull request's newest state as its graph row, with its own classification when it is a merged
 * fix.
 */
public final class ClassifyPullRequests extends RichMapFunction<PullRequestEvent, PullRequestRow> {
  private final ClassifierTier tier;
  private transient PullRequestClassification classification;
  private transient Frameworks frameworks;

  public ClassifyPullRequests(ClassifierTier tier) {
    this.tier = tier;
  }

  @Override
  public void open(OpenContext openContext) {
    classification = new PullRequestClassification(tier.classifier());
    frameworks = new Frameworks();
  }

  @Override
  public PullRequestRow map(PullRequestEvent p) {
    return toRow(p, frameworks.ofRepo(p.repo).orElse(p.repo), classification.classify(p));
  }

  public static PullRequestRow toRow(
      PullRequestEvent p, String framework, PullRequestRow.Classification c) {
    return new PullRequestRow(
        p.id,
        p.repo,
        framework,
        p.number,
        p.title,
        p.url,
        p.state,
        p.merged,
        p.mergedAt,
        p.createdAt,
        p.updatedAt,
        p.additions,
        p.deletions,
        p.changedFiles,
        List.copyOf(p.fixes),
        p.sizeKnown,
        p.source,
        p.changeKind,
        p.mergeCommitSha,
        p.author,
        c);
  }
}
