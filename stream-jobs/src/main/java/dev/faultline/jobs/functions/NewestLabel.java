package dev.faultline.jobs.functions;

import dev.faultline.graph.LabelSource;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.sink.IssueRows;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by issue id, where the offline classifications and the language model's upgrades meet:
 * forwards a classification unless one of a newer issue state, or of the same state from a
 * higher-ranked tier, went before it. So an upgrade that answers an issue's older state after its
 * newer state was classified is dropped (the newer state's own upgrade follows), and the graph and
 * the classified topic see, per issue, states in order and for one state the offline labels before
 * the model's. Ties pass (an exact redelivery is idempotent downstream).
 */
public final class NewestLabel
    extends KeyedProcessFunction<String, ClassifiedIssueEvent, ClassifiedIssueEvent> {
  private transient ValueState<long[]> newest;

  /** Whether (version, rank) may follow (seenVersion, seenRank). */
  public static boolean follows(long version, int rank, long seenVersion, int seenRank) {
    return version > seenVersion || (version == seenVersion && rank >= seenRank);
  }

  @Override
  public void open(OpenContext openContext) {
    ValueStateDescriptor<long[]> d =
        new ValueStateDescriptor<>(
            "newest-label", PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
    d.enableTimeToLive(StateTtlConfig.newBuilder(ClassifyIssues.STATE_TTL).build());
    newest = getRuntimeContext().getState(d);
  }

  @Override
  public void processElement(
      ClassifiedIssueEvent e, Context ctx, Collector<ClassifiedIssueEvent> out) throws Exception {
    long version = e.stateVersion;
    int rank =
        e.classification == null
            ? 0
            : LabelSource.rankOf(IssueRows.labelSource(e.classification.provenance()));
    long[] seen = newest.value();
    if (seen != null && !follows(version, rank, seen[0], (int) seen[1])) {
      return;
    }
    newest.update(new long[] {version, rank});
    out.collect(e);
  }
}
