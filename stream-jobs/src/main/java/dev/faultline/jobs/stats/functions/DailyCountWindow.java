package dev.faultline.jobs.stats.functions;

import dev.faultline.jobs.stats.records.DailyCount;
import dev.faultline.jobs.stats.records.StatKeys;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Labels a daily bucket's sum with its key and day; fires at the bucket's end and again for each allowed-late delta. */
public final class DailyCountWindow extends ProcessWindowFunction<DailyAccumulator, DailyCount, String, TimeWindow> {
  @Override
  public void process(String key, Context context, Iterable<DailyAccumulator> sums, Collector<DailyCount> out) {
    String[] k = StatKeys.split(key);
    DailyAccumulator acc = sums.iterator().next();
    out.collect(new DailyCount(k[0], k[1], k[2], context.window().getStart(), acc.count, acc.examples));
  }
}
