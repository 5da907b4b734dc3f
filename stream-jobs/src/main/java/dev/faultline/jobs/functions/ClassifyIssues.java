package dev.faultline.jobs.functions;

import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.StoredVectors;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.classify.Neo4jVectorStore;
import dev.faultline.jobs.classify.ReplayScope;
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
 * neither classified nor emitted. In a resumed replay ({@link
 * dev.faultline.jobs.classify.ReplayResume}) a {@link GitHubEvent#refold} fact only rebuilds the
 * state while its issue has had no fact new to this attempt (the killed attempt wrote that state);
 * once one arrives, the issue is classified on its whole history, and so is every change after it,
 * refolded or not (an issue's facts may lie in several partitions, read in any interleaving).
 */
public final class ClassifyIssues
    extends KeyedProcessFunction<String, GitHubEvent, ClassifiedIssueEvent> {
  /** Issues untouched this long drop out of state; a later event starts from what it carries. */
  static final Duration STATE_TTL = Duration.ofDays(400);

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ClassifyIssues.class);

  private final ClassifierTier tier;
  private final OutputTag<LlmRequest> llmRequests;
  private final ReplayScope scope;
  private final GraphConfig vectors;
  private final String run;
  private transient ValueState<IssueAccumulator> state;

  /** Set while an issue has had only refolded facts in this attempt. */
  private transient ValueState<Boolean> refolding;

  /** Whether this subtask has seen a refolded fact (else no issue can be refolding). */
  private transient boolean refolds;

  private transient IssueClassification classification;
  private transient Neo4jVectorStore store;

  /**
   * @param tier the offline classifier
   * @param llmRequests side output of each classification with the issue's state, for the
   *     language-model tier to upgrade; null when the tier is off
   * @param scope the issues classified and emitted ({@link ReplayScope#ALL} but in a scoped replay)
   * @param vectors the graph whose stored text vectors the learned classifier reads before it
   *     encodes ({@link Neo4jVectorStore}; a replay of history), else null
   * @param run the pass every classification of a replay's run carries (its token), else null: each
   *     classification draws its own (see {@link dev.faultline.jobs.IssuePipeline.Settings#run})
   */
  public ClassifyIssues(
      ClassifierTier tier,
      OutputTag<LlmRequest> llmRequests,
      ReplayScope scope,
      GraphConfig vectors,
      String run) {
    this.tier = tier;
    this.llmRequests = llmRequests;
    this.scope = scope;
    this.vectors = vectors;
    this.run = run;
  }

  @Override
  public void open(OpenContext openContext) {
    ValueStateDescriptor<IssueAccumulator> descriptor =
        new ValueStateDescriptor<>("issue", IssueAccumulator.class);
    descriptor.enableTimeToLive(StateTtlConfig.newBuilder(STATE_TTL).build());
    state = getRuntimeContext().getState(descriptor);
    ValueStateDescriptor<Boolean> refoldingDescriptor =
        new ValueStateDescriptor<>("refolding", Boolean.class);
    refoldingDescriptor.enableTimeToLive(StateTtlConfig.newBuilder(STATE_TTL).build());
    refolding = getRuntimeContext().getState(refoldingDescriptor);
    DefectClassifier classifier = tier.classifier();
    if (vectors != null && classifier instanceof LearnedClassifier learned) {
      store = new Neo4jVectorStore(vectors);
      classifier = learned.withVectorStore(store);
    }
    classification =
        new IssueClassification(
            classifier, store == null ? dev.faultline.classifier.learned.VectorStore.NONE : store);
  }

  @Override
  public void close() throws Exception {
    if (store != null) {
      if (classification.classifier() instanceof LearnedClassifier l
          && l.embedder() instanceof VectorCache memory
          && memory.inner() instanceof StoredVectors stored) {
        LOG.info(
            "text vectors of this task: {} from memory, {} from the graph, {} encoded",
            memory.hits(),
            stored.found(),
            stored.encoded());
      }
      store.close();
    }
    super.close();
  }

  /**
   * Whether a fact only rebuilds its issue's state: a refolded fact of an issue that has had no
   * fact new to this attempt. A new fact ends that for its issue.
   */
  private boolean held(GitHubEvent fact, boolean first) throws java.io.IOException {
    if (fact.refold) {
      refolds = true;
      if (first || refolding.value() != null) {
        refolding.update(Boolean.TRUE);
        return true;
      }
      return false;
    }
    if (refolds && refolding.value() != null) {
      refolding.clear();
    }
    return false;
  }

  @Override
  public void processElement(GitHubEvent fact, Context ctx, Collector<ClassifiedIssueEvent> out)
      throws Exception {
    IssueAccumulator acc = state.value();
    boolean first = acc == null;
    if (first) {
      acc = new IssueAccumulator();
    }
    boolean changed = acc.fold(fact);
    if (held(fact, first)) {
      if (changed) {
        state.update(acc);
      }
      return;
    }
    if (!changed) {
      return;
    }
    state.update(acc);
    if (acc.issue != null && scope.coversIssue(acc)) {
      String sentKey = acc.textVectorKey;
      ClassifiedIssueEvent event = classification.classify(acc, acc.stateVersion, fact.deliveryId);
      if (run != null) {
        event.pass = run; // one change of each label per run (LabelHistory)
      }
      if (!java.util.Objects.equals(sentKey, acc.textVectorKey)) {
        state.update(acc); // the text vector key this classification sent
      }
      out.collect(event);
      if (llmRequests != null) {
        // The offline labels go out first; the language model's answer, if any, follows as an
        // upgrade.
        ctx.output(llmRequests, new LlmRequest(event, acc));
      }
    }
  }
}
