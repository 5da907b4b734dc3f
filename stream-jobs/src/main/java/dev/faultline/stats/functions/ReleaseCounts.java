package dev.faultline.stats.functions;

import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ReleaseDelta;
import dev.faultline.stats.records.StatKey;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by framework × release × dimension × category: the running count of issues reporting the
 * release, emitted on every change. Release counts are cumulative (no event-time window), so
 * arrival order does not matter. A count back at zero clears its state; the rest lives under a TTL
 * refreshed on write.
 */
public final class ReleaseCounts extends KeyedProcessFunction<StatKey, ReleaseDelta, CategoryStat> {
  private final Duration stateTtl;
  private transient ValueState<Long> count;

  public ReleaseCounts(Duration stateTtl) {
    this.stateTtl = stateTtl;
  }

  @Override
  public void open(OpenContext openContext) {
    ValueStateDescriptor<Long> d = new ValueStateDescriptor<>("release-count", Types.LONG);
    d.enableTimeToLive(
        StateTtlConfig.newBuilder(stateTtl)
            .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
            .build());
    count = getRuntimeContext().getState(d);
  }

  @Override
  public void processElement(ReleaseDelta delta, Context ctx, Collector<CategoryStat> out)
      throws Exception {
    Long before = count.value();
    long now = (before == null ? 0 : before) + delta.delta;
    if (now == 0) {
      count.clear();
    } else {
      count.update(now);
    }
    out.collect(
        CategoryStat.ofRelease(
            delta.framework, delta.release, delta.dimension, delta.category, now));
  }
}
