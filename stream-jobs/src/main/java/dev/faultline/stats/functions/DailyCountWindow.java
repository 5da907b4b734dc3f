package dev.faultline.stats.functions;

import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.StatKey;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Emits how much a daily bucket's sum changed since this window's previous firing (at the bucket's
 * end, then once per allowed-late delta). Changes, not absolute sums: after a restore the watermark
 * starts again from the beginning (Flink does not checkpoint watermarks), so a delta for a day
 * whose window was already purged opens a fresh window holding only that delta; as a change it adds
 * correctly, as an absolute it would overwrite the day's count.
 */
public final class DailyCountWindow
    extends ProcessWindowFunction<DailyAccumulator, DailyCount, StatKey, TimeWindow> {
  private static final ValueStateDescriptor<Long> EMITTED =
      new ValueStateDescriptor<>("emitted-count", Types.LONG);

  @Override
  public void process(
      StatKey key, Context context, Iterable<DailyAccumulator> sums, Collector<DailyCount> out)
      throws Exception {
    DailyAccumulator acc = sums.iterator().next();
    ValueState<Long> emitted = context.windowState().getState(EMITTED);
    Long before = emitted.value();
    long change = acc.count - (before == null ? 0 : before);
    if (before == null || change != 0) {
      emitted.update(acc.count);
      out.collect(
          new DailyCount(
              key.framework,
              key.dimension,
              key.category,
              context.window().getStart(),
              change,
              acc.examples));
    }
  }

  /** Per-window state goes with the window: no leak after the allowed lateness. */
  @Override
  public void clear(Context context) {
    context.windowState().getState(EMITTED).clear();
  }
}
