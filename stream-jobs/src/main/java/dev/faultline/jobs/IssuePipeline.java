package dev.faultline.jobs;

import dev.faultline.classifier.Frameworks;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.jobs.functions.ClassifyIssues;
import dev.faultline.jobs.functions.ClassifyPullRequests;
import dev.faultline.jobs.functions.DecodeAndNormalise;
import dev.faultline.jobs.functions.NewestByVersion;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.records.ReleaseEvent;
import dev.faultline.jobs.records.Rejected;
import dev.faultline.jobs.sink.IssueRows;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The issue pipeline as a function of streams: raw deliveries in; classified issues, pull requests, releases and
 * dead letters out. Sources and sinks are attached by {@link IssuePipelineJob}; tests attach their own.
 */
public final class IssuePipeline {
  /** Side output of records the pipeline could not read. */
  public static final OutputTag<Rejected> REJECTED = new OutputTag<>("rejected", TypeInformation.of(Rejected.class));

  /** Streams the pipeline produces. */
  public record Outputs(
      DataStream<ClassifiedIssueEvent> classified,
      DataStream<IssueRow> issues,
      DataStream<PullRequestRow> pullRequests,
      DataStream<ReleaseRow> releases,
      DataStream<Rejected> rejected) {}

  private IssuePipeline() {}

  public static Outputs apply(DataStream<RawDelivery> deliveries) {
    SingleOutputStreamOperator<GitHubEvent> facts =
        deliveries.process(new DecodeAndNormalise(REJECTED)).uid("normalise").name("decode and normalise");

    DataStream<ClassifiedIssueEvent> classified =
        facts
            .filter(f -> f.type == GitHubEvent.Type.ISSUE || f.type == GitHubEvent.Type.COMMENT || f.type == GitHubEvent.Type.FIX_LINK)
            .uid("issue-facts")
            .name("issue facts")
            // All facts of one issue meet in one task: its state, and re-classification when it changes.
            .keyBy(f -> f.key)
            .process(new ClassifyIssues())
            .uid("classify-issues")
            .name("classify issues");
    DataStream<IssueRow> issues = classified.map(IssueRows::of).uid("issue-rows").name("issue rows");

    DataStream<PullRequestRow> pullRequests =
        facts
            .filter(f -> f.type == GitHubEvent.Type.PULL_REQUEST)
            .uid("pull-request-facts")
            .name("pull request facts")
            .map(f -> f.pullRequest)
            .uid("pull-request-events")
            .keyBy(p -> p.id)
            .process(new NewestByVersion<PullRequestEvent>(p -> p.updatedAt))
            .returns(PullRequestEvent.class)
            .uid("newest-pull-request")
            .name("newest pull request")
            .map(new ClassifyPullRequests())
            .uid("pull-request-rows")
            .name("pull request rows");

    DataStream<ReleaseRow> releases =
        facts
            .filter(f -> f.type == GitHubEvent.Type.RELEASE)
            .uid("release-facts")
            .name("release facts")
            .map(f -> toRow(f.release))
            .uid("release-rows")
            .name("release rows");

    return new Outputs(classified, issues, pullRequests, releases, facts.getSideOutput(REJECTED));
  }

  static PullRequestRow toRow(PullRequestEvent p) {
    return ClassifyPullRequests.toRow(p, frameworkOf(p.repo), null);
  }

  static ReleaseRow toRow(ReleaseEvent r) {
    return new ReleaseRow(
        frameworkOf(r.repo), r.repo, r.version, r.tag, r.url, r.publishedAt, r.prerelease, r.deleted,
        r.source == null ? "github" : r.source);
  }

  static String frameworkOf(String repo) {
    return new Frameworks().ofRepo(repo).orElse(repo);
  }
}
