package dev.faultline.jobs;

import dev.faultline.classifier.Frameworks;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.functions.ClassifyIssues;
import dev.faultline.jobs.functions.ClassifyPullRequests;
import dev.faultline.jobs.functions.DecodeAndNormalise;
import dev.faultline.jobs.functions.NewestByVersion;
import dev.faultline.jobs.functions.NewestLabel;
import dev.faultline.jobs.functions.UpgradeWithLlm;
import dev.faultline.jobs.llm.AnswerStore;
import dev.faultline.jobs.llm.LlmRequest;
import dev.faultline.jobs.llm.LlmSettings;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.records.Rejected;
import dev.faultline.jobs.records.ReleaseEvent;
import dev.faultline.jobs.sink.IssueRows;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The issue pipeline as a function of streams: raw deliveries in; classified issues, pull requests,
 * releases and dead letters out. Sources and sinks are attached by {@link IssuePipelineJob}; tests
 * attach their own.
 */
public final class IssuePipeline {
  /** Side output of records the pipeline could not read. */
  public static final OutputTag<Rejected> REJECTED =
      new OutputTag<>("rejected", TypeInformation.of(Rejected.class));

  /** Streams the pipeline produces. */
  public record Outputs(
      DataStream<ClassifiedIssueEvent> classified,
      DataStream<IssueRow> issues,
      DataStream<PullRequestRow> pullRequests,
      DataStream<ReleaseRow> releases,
      DataStream<Rejected> rejected) {}

  private IssuePipeline() {}

  /** Side output of classifications for the language-model tier to upgrade. */
  public static final OutputTag<LlmRequest> LLM_REQUESTS =
      new OutputTag<>("llm-requests", TypeInformation.of(LlmRequest.class));

  /** The pipeline with the offline classifier alone. */
  public static Outputs apply(DataStream<RawDelivery> deliveries) {
    return apply(deliveries, LlmSettings.OFF, null);
  }

  /**
   * The pipeline; with the language-model tier on ({@code llm} enabled), every classification is
   * emitted at once and followed by its upgrade when the model's answer arrives (Flink async I/O,
   * {@link UpgradeWithLlm}): both meet, keyed by issue, in {@link NewestLabel}, so downstream sees
   * an issue's states in order and for one state the offline labels before the model's.
   *
   * @param answers where answers are kept (the compacted topic in the job); unused when the tier is
   *     off
   */
  public static Outputs apply(
      DataStream<RawDelivery> deliveries, LlmSettings llm, AnswerStore.Factory answers) {
    return apply(deliveries, llm, answers, ReplayScope.ALL);
  }

  /**
   * As {@link #apply(DataStream, LlmSettings, AnswerStore.Factory)}, classifying and emitting only
   * the issues and pull requests in {@code scope} (a scoped replay; releases: those of its
   * framework). Every delivery is still read and folded into its issue's state: the scope is
   * decided on that state (framework, creation time), before classification.
   */
  public static Outputs apply(
      DataStream<RawDelivery> deliveries,
      LlmSettings llm,
      AnswerStore.Factory answers,
      ReplayScope scope) {
    return apply(deliveries, llm, answers, scope, null);
  }

  /**
   * As {@link #apply(DataStream, LlmSettings, AnswerStore.Factory, ReplayScope)}; with {@code
   * vectors}, the learned classifier looks each text vector up in that graph before it encodes (a
   * replay of history, whose texts the live pipeline encoded and stored before).
   */
  public static Outputs apply(
      DataStream<RawDelivery> deliveries,
      LlmSettings llm,
      AnswerStore.Factory answers,
      ReplayScope scope,
      dev.faultline.graph.GraphConfig vectors) {
    return apply(deliveries, llm, answers, scope, vectors, ReplayResume.NONE);
  }

  /**
   * As {@link #apply(DataStream, LlmSettings, AnswerStore.Factory, ReplayScope,
   * dev.faultline.graph.GraphConfig)}, resuming a killed replay: the deliveries {@code resume} says
   * were handled are folded into their issues' state again, and neither classified nor written
   * (pull requests and releases of those deliveries are not written again either).
   */
  public static Outputs apply(
      DataStream<RawDelivery> deliveries,
      LlmSettings llm,
      AnswerStore.Factory answers,
      ReplayScope scope,
      dev.faultline.graph.GraphConfig vectors,
      ReplayResume resume) {
    SingleOutputStreamOperator<GitHubEvent> facts =
        deliveries
            .process(new DecodeAndNormalise(REJECTED, resume))
            .uid("normalise")
            .name("decode and normalise");

    SingleOutputStreamOperator<ClassifiedIssueEvent> offline =
        facts
            .filter(
                f ->
                    f.type == GitHubEvent.Type.ISSUE
                        || f.type == GitHubEvent.Type.COMMENT
                        || f.type == GitHubEvent.Type.FIX_LINK)
            .uid("issue-facts")
            .name("issue facts")
            // All facts of one issue meet in one task: its state, and re-classification when it
            // changes.
            .keyBy(f -> f.key)
            .process(
                new ClassifyIssues(
                    ClassifierTier.fromEnvironment(),
                    llm.enabled() ? LLM_REQUESTS : null,
                    scope,
                    vectors))
            .uid("classify-issues")
            .name("classify issues");
    DataStream<ClassifiedIssueEvent> classified = offline;
    if (llm.enabled()) {
      DataStream<ClassifiedIssueEvent> upgrades =
          AsyncDataStream.unorderedWait(
                  offline.getSideOutput(LLM_REQUESTS),
                  new UpgradeWithLlm(llm, answers),
                  llm.asyncTimeout().toMillis(),
                  TimeUnit.MILLISECONDS,
                  llm.capacity())
              .uid("llm-upgrade")
              .name("upgrade with the language model");
      classified =
          offline
              .union(upgrades)
              .keyBy(e -> e.issue.id)
              .process(new NewestLabel())
              .uid("newest-label")
              .name("newest label");
    }
    DataStream<IssueRow> issues =
        classified.map(IssueRows::of).uid("issue-rows").name("issue rows");

    DataStream<PullRequestEvent> newestPullRequests =
        facts
            .filter(f -> f.type == GitHubEvent.Type.PULL_REQUEST && !f.refold)
            .uid("pull-request-facts")
            .name("pull request facts")
            .map(f -> f.pullRequest)
            .uid("pull-request-events")
            .keyBy(p -> p.id)
            .process(new NewestByVersion<PullRequestEvent>(p -> p.updatedAt))
            .returns(PullRequestEvent.class)
            .uid("newest-pull-request")
            .name("newest pull request");
    if (!scope.isAll()) {
      newestPullRequests =
          newestPullRequests
              .filter(p -> scope.coversPullRequest(p))
              .uid("pull-requests-in-scope")
              .name("pull requests in scope");
    }
    DataStream<PullRequestRow> pullRequests =
        newestPullRequests
            .map(new ClassifyPullRequests())
            .uid("pull-request-rows")
            .name("pull request rows");

    DataStream<ReleaseRow> releases =
        facts
            .filter(
                f ->
                    f.type == GitHubEvent.Type.RELEASE
                        && !f.refold
                        && (scope.framework() == null
                            || scope.framework().equals(frameworkOf(f.release.repo))))
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
        frameworkOf(r.repo),
        r.repo,
        r.version,
        r.tag,
        r.url,
        r.publishedAt,
        r.prerelease,
        r.deleted,
        r.source == null ? "github" : r.source);
  }

  static String frameworkOf(String repo) {
    return new Frameworks().ofRepo(repo).orElse(repo);
  }
}
