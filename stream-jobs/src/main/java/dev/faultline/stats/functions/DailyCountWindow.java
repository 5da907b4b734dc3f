package dev.faultline.stats.functions;

import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.StatKey;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
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

  /** The expected count and variance emitted so far: {expected, variance}. */
  private static final ValueStateDescriptor<double[]> EMITTED_EXPECTED =
      new ValueStateDescriptor<>(
          "emitted-expected", PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO);

  @Override
  public void process(
      StatKey key, Context context, Iterable<DailyAccumulator> sums, Collector<DailyCount> out)
      throws Exception {
    DailyAccumulator acc = sums.iterator().next();
    ValueState<Long> emitted = context.windowState().getState(EMITTED);
    ValueState<double[]> emittedExpected = context.windowState().getState(EMITTED_EXPECTED);
    Long before = emitted.value();
    double[] expectedBefore = emittedExpected.value();
    long change = acc.count - (before == null ? 0 : before);
    double expected = acc.expected - (expectedBefore == null ? 0 : expectedBefore[0]);
    double variance = acc.variance - (expectedBefore == null ? 0 : expectedBefore[1]);
    if (before == null || change != 0 || Math.abs(expected) > 1e-12 || Math.abs(variance) > 1e-12) {
      emitted.update(acc.count);
      emittedExpected.update(new double[] {acc.expected, acc.variance});
      DailyCount d =
          new DailyCount(
              key.framework,
              key.dimension,
              key.category,
              context.window().getStart(),
              change,
              acc.examples);
      d.expected = expected;
      d.variance = variance;
      out.collect(d);
    }
  }

  /** Per-window state goes with the window: no leak after the allowed lateness. */
  @Override
  public void clear(Context context) {
    context.windowState().getState(EMITTED).clear();
    context.windowState().getState(EMITTED_EXPECTED).clear();
  }
}
