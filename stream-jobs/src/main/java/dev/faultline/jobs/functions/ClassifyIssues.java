package dev.faultline.jobs.functions;

import dev.faultline.jobs.ReplayScope;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.llm.LlmRequest;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.GitHubEvent;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by issue id: folds issue, comment and fix-link facts into the issue's state and
 * re-classifies whenever what the classifier sees changed. A fact that changes nothing (a
 * redelivery, an older state) emits nothing. In a scoped replay ({@code faultline reclassify
 * --framework/--since/--until}) an issue out of the {@link ReplayScope} keeps its state but is
 * neither classified nor emitted.
 */
public final class ClassifyIssues
    extends KeyedProcessFunction<String, GitHubEvent, ClassifiedIssueEvent> {
  /** Issues untouched this long drop out of state; a later event starts from what it carries. */
  static final Duration STATE_TTL = Duration.ofDays(400);

  private final ClassifierTier tier;
  private final OutputTag<LlmRequest> llmRequests;
  private final ReplayScope scope;
  private transient ValueState<IssueAccumulator> state;
  private transient IssueClassification classification;

  /** With the tier chosen by the environment ({@link ClassifierTier#fromEnvironment()}). */
  public ClassifyIssues() {
    this(ClassifierTier.fromEnvironment());
  }

  public ClassifyIssues(ClassifierTier tier) {
    this(tier, null);
  }

  /**
   * @param llmRequests side output of each classification with the issue's state, for the
   *     language-model tier to upgrade; null when the tier is off
   */
  public ClassifyIssues(ClassifierTier tier, OutputTag<LlmRequest> llmRequests) {
    this(tier, llmRequests, ReplayScope.ALL);
  }

  /**
   * @param scope the issues classified and emitted ({@link ReplayScope#ALL} but in a scoped replay)
   */
  public ClassifyIssues(ClassifierTier tier, OutputTag<LlmRequest> llmRequests, ReplayScope scope) {
    this.tier = tier;
    this.llmRequests = llmRequests;
    this.scope = scope;
  }

  @Override
  public void open(OpenContext openContext) {
    ValueStateDescriptor<IssueAccumulator> descriptor =
        new ValueStateDescriptor<>("issue", IssueAccumulator.class);
    descriptor.enableTimeToLive(StateTtlConfig.newBuilder(STATE_TTL).build());
    state = getRuntimeContext().getState(descriptor);
    classification = new IssueClassification(tier.classifier());
  }

  @Override
  public void processElement(GitHubEvent fact, Context ctx, Collector<ClassifiedIssueEvent> out)
      throws Exception {
    IssueAccumulator acc = state.value();
    if (acc == null) {
      acc = new IssueAccumulator();
    }
    boolean changed = acc.fold(fact);
    if (!changed) {
      return;
    }
    state.update(acc);
    if (acc.issue != null && scope.coversIssue(acc)) {
      ClassifiedIssueEvent event = classification.classify(acc, acc.stateVersion, fact.deliveryId);
      out.collect(event);
      if (llmRequests != null) {
        // The offline labels go out first; the language model's answer, if any, follows as an
        // upgrade.
        ctx.output(llmRequests, new LlmRequest(event, acc));
      }
    }
  }
}
