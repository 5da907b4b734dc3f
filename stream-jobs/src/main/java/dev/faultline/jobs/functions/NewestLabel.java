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
 * the model's. States are ordered by their version (the newest event time) and then by the issue's
 * count of state changes ({@link ClassifiedIssueEvent#stateChanges}): a late fact with an older
 * time makes a newer state of the same version, whose upgrade an older state's late upgrade does
 * not overtake. Ties pass (an exact redelivery is idempotent downstream).
 */
public final class NewestLabel
    extends KeyedProcessFunction<String, ClassifiedIssueEvent, ClassifiedIssueEvent> {
  private transient ValueState<long[]> newest;

  /** Whether (version, rank) may follow (seenVersion, seenRank), of one count of changes. */
  public static boolean follows(long version, int rank, long seenVersion, int seenRank) {
    return follows(version, 0, rank, seenVersion, 0, seenRank);
  }

  /** Whether (version, changes, rank) may follow (seenVersion, seenChanges, seenRank). */
  public static boolean follows(
      long version, long changes, int rank, long seenVersion, long seenChanges, int seenRank) {
    if (version != seenVersion) {
      return version > seenVersion;
    }
    return changes > seenChanges || (changes == seenChanges && rank >= seenRank);
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
    // {version, rank} as kept before the count of changes: the count is not compared
    long changes = seen != null && seen.length < 3 ? 0 : e.stateChanges;
    if (seen != null
        && !follows(
            version, changes, rank, seen[0], seen.length < 3 ? 0 : seen[2], (int) seen[1])) {
      return;
    }
    newest.update(new long[] {version, rank, e.stateChanges});
    out.collect(e);
  }
}
