package dev.faultline.jobs;

import dev.faultline.classifier.Frameworks;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.ReplayResume;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.Rejected;
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
import dev.faultline.jobs.records.ReleaseEvent;
import dev.faultline.jobs.sink.IssueRows;
import java.util.Objects;
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

  /**
   * What the pipeline's functions need beyond the deliveries ({@link JobConfig#pipelineSettings} in
   * the job).
   *
   * @param tier the offline classifier
   * @param llm the language-model tier ({@link LlmSettings#OFF}: off)
   * @param answers where the language-model tier's answers are kept (the compacted topic in the
   *     job); null when the tier is off
   * @param scope the issues and pull requests classified and emitted ({@link ReplayScope#ALL} but
   *     in a scoped replay)
   * @param storedVectors the graph whose stored text vectors the learned classifier looks up before
   *     it encodes (a replay of history, whose texts the live pipeline encoded and stored before);
   *     null: encode every text
   * @param resume where a killed attempt of this replay got to: the deliveries it handled are
   *     folded into their issues' state again, and neither classified nor written (pull requests
   *     and releases of those deliveries are not written again either); {@link ReplayResume#NONE}
   *     live and in a first attempt
   * @param run the token of a bounded replay's run (its consumer group, which a resumed attempt
   *     keeps): every classification of the run carries it as its {@code pass}, so the label
   *     history writes the run as one change of each label, whatever intermediate states reach the
   *     graph and whether the run was killed and resumed ({@link
   *     dev.faultline.graph.LabelHistory}); null live, where each classification draws its own
   */
  public record Settings(
      ClassifierTier tier,
      LlmSettings llm,
      AnswerStore.Factory answers,
      ReplayScope scope,
      GraphConfig storedVectors,
      ReplayResume resume,
      String run) {
    public Settings {
      Objects.requireNonNull(tier, "tier");
      Objects.requireNonNull(scope, "scope");
      llm = llm == null ? LlmSettings.OFF : llm;
      resume = resume == null ? ReplayResume.NONE : resume;
    }

    /** The offline classifier {@code tier} alone, every issue, every text encoded. */
    public static Settings offline(ClassifierTier tier) {
      return new Settings(
          tier, LlmSettings.OFF, null, ReplayScope.ALL, null, ReplayResume.NONE, null);
    }
  }

  /**
   * The pipeline. With the language-model tier on ({@code llm} enabled), every classification is
   * emitted at once and followed by its upgrade when the model's answer arrives (Flink async I/O,
   * {@link UpgradeWithLlm}): both meet, keyed by issue, in {@link NewestLabel}, so downstream sees
   * an issue's states in order and for one state the offline labels before the model's. In a scoped
   * replay only the issues and pull requests in scope are classified and emitted (releases: those
   * of its framework); every delivery is still read and folded into its issue's state: the scope is
   * decided on that state (framework, creation time), before classification.
   */
  public static Outputs apply(DataStream<RawDelivery> deliveries, Settings settings) {
    SingleOutputStreamOperator<GitHubEvent> facts =
        deliveries
            .process(new DecodeAndNormalise(REJECTED, settings.resume()))
            .uid("normalise")
            .name("decode and normalise");
    DataStream<ClassifiedIssueEvent> classified = classifiedIssues(facts, settings);
    DataStream<IssueRow> issues =
        classified.map(IssueRows::of).uid("issue-rows").name("issue rows");
    return new Outputs(
        classified,
        issues,
        pullRequests(facts, settings),
        releases(facts, settings.scope()),
        facts.getSideOutput(REJECTED));
  }

  /**
   * Issue, comment and fix-link facts folded into each issue's state and classified whenever it
   * changes; with the language-model tier on, each classification followed by its upgrade.
   */
  private static DataStream<ClassifiedIssueEvent> classifiedIssues(
      DataStream<GitHubEvent> facts, Settings settings) {
    LlmSettings llm = settings.llm();
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
                    settings.tier(),
                    llm.enabled() ? LLM_REQUESTS : null,
                    settings.scope(),
                    settings.storedVectors(),
                    settings.run()))
            .uid("classify-issues")
            .name("classify issues");
    if (!llm.enabled()) {
      return offline;
    }
    DataStream<ClassifiedIssueEvent> upgrades =
        AsyncDataStream.unorderedWait(
                offline.getSideOutput(LLM_REQUESTS),
                new UpgradeWithLlm(llm, settings.answers()),
                llm.asyncTimeout().toMillis(),
                TimeUnit.MILLISECONDS,
                llm.capacity())
            .uid("llm-upgrade")
            .name("upgrade with the language model");
    return offline
        .union(upgrades)
        .keyBy(e -> e.issue.id)
        .process(new NewestLabel())
        .uid("newest-label")
        .name("newest label");
  }

  /** Each pull request's newest state (of the scope) as its graph row, classified when merged. */
  private static DataStream<PullRequestRow> pullRequests(
      DataStream<GitHubEvent> facts, Settings settings) {
    ReplayScope scope = settings.scope();
    DataStream<PullRequestEvent> newest =
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
      newest =
          newest
              .filter(p -> scope.coversPullRequest(p))
              .uid("pull-requests-in-scope")
              .name("pull requests in scope");
    }
    return newest
        .map(new ClassifyPullRequests(settings.tier()))
        .uid("pull-request-rows")
        .name("pull request rows");
  }

  /** Releases (of the scope's framework) as graph rows. */
  private static DataStream<ReleaseRow> releases(DataStream<GitHubEvent> facts, ReplayScope scope) {
    return facts
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
