package dev.faultline.stats.functions;

import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ComboObservation;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.IssueHistorySerializer;
import dev.faultline.stats.records.ReleaseDelta;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by issue id: keeps the issue's classified records and emits the count deltas each new
 * record causes ({@link IssueContributions}); release deltas and category × stage observations go
 * to side outputs. The history lives under a TTL (refreshed on every write), so issues that stop
 * changing are eventually forgotten. No timers.
 */
public final class IssueContributionFunction
    extends KeyedProcessFunction<String, ClassifiedEvent, ContributionDelta> {
  public static final OutputTag<ReleaseDelta> RELEASE_DELTAS =
      new OutputTag<>("release-deltas", TypeInformation.of(ReleaseDelta.class));
  public static final OutputTag<ComboObservation> COMBINATIONS =
      new OutputTag<>("combinations", TypeInformation.of(ComboObservation.class));

  /**
   * The state holding the issue's records, written by {@link IssueHistorySerializer} (earlier
   * builds: Flink's POJO array serializer, which restores and is migrated).
   */
  public static final String HISTORY = "history";

  private final Duration stateTtl;
  private transient ValueState<ClassifiedEvent[]> history;

  public IssueContributionFunction(Duration stateTtl) {
    this.stateTtl = stateTtl;
  }

  @Override
  public void open(OpenContext openContext) {
    ValueStateDescriptor<ClassifiedEvent[]> d =
        new ValueStateDescriptor<>(HISTORY, IssueHistorySerializer.INSTANCE);
    d.enableTimeToLive(
        StateTtlConfig.newBuilder(stateTtl)
            .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
            .build());
    history = getRuntimeContext().getState(d);
  }

  @Override
  public void processElement(ClassifiedEvent event, Context ctx, Collector<ContributionDelta> out)
      throws Exception {
    ClassifiedEvent[] before = history.value();
    IssueContributions.Change change = IssueContributions.fold(before, event);
    if (!change.historyChanged(before)) {
      return; // a redelivery: nothing to count, nothing to write
    }
    history.update(change.history());
    for (ContributionDelta d : change.deltas()) {
      out.collect(d);
    }
    for (ReleaseDelta r : change.releaseDeltas()) {
      ctx.output(RELEASE_DELTAS, r);
    }
    for (ComboObservation c : change.combinations()) {
      ctx.output(COMBINATIONS, c);
    }
  }
}
