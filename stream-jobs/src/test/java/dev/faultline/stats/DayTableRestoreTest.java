package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.functions.RollingCounts;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.DayState;
import dev.faultline.stats.records.DayTable;
import dev.faultline.stats.records.StatKey;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The rolling counter's tables ({@code day-table}, under its TTL) written by an earlier build's
 * POJO serializer restore on the heap backend into the {@link RollingCounts} of this build, which
 * then emits exactly what an operator that never restarted emits; what it checkpoints restores
 * again.
 */
class DayTableRestoreTest {
  private static final String FW = "deepspeed";
  private static final StatsConfig CONFIG =
      StatsConfig.defaults(
          StatsConfig.defaultIo(
              KafkaSettings.of("127.0.0.1:9092"),
              new GraphConfig("bolt://127.0.0.1:7687", "neo4j", "pw", "neo4j")));

  private static DailyCount daily(String category, long day, long count, String... examples) {
    DailyCount d = new DailyCount(FW, Dimension.SYMPTOM, category, day, count, examples);
    d.expected = 0.25 * count;
    d.variance = 0.125 * count;
    return d;
  }

  @Test
  void tablesThePojoSerializerWroteRestoreAndCheckpointAgain() throws Exception {
    List<DailyCount> first =
        List.of(
            daily("HANG", T0, 2, "ds#1", "ds#2"),
            daily("HANG", T0 + DAY, 1, "ds#3"),
            daily("OUT_OF_MEMORY", T0, 3, "ds#4", "ds#5", "é/ü#6"));
    DailyCount second = daily("HANG", T0 + 2 * DAY, 4, "ds#7");
    DailyCount third = daily("OUT_OF_MEMORY", T0 + 3 * DAY, 1, "ds#8");

    // The reference: one operator that never restarted.
    List<String> expectedSecond;
    List<String> expectedThird;
    try (var h = current()) {
      h.open();
      for (DailyCount d : first) {
        h.processElement1(d, d.day + DAY - 1);
      }
      h.getOutput().clear();
      h.processElement1(second, second.day + DAY - 1);
      h.processBothWatermarks(new Watermark(T0 + 3 * DAY - 1));
      expectedSecond = describe(h.extractOutputValues());
      h.getOutput().clear();
      h.processElement1(third, third.day + DAY - 1);
      h.processBothWatermarks(new Watermark(Long.MAX_VALUE));
      expectedThird = describe(h.extractOutputValues());
    }
    assertTrue(expectedSecond.size() > 2, expectedSecond.toString());
    assertTrue(expectedThird.size() > 2, expectedThird.toString());

    OperatorSubtaskState old;
    try (var h = earlierBuild()) {
      h.open();
      for (DailyCount d : first) {
        h.processElement1(d, d.day + DAY - 1);
      }
      old = h.snapshot(0, 0);
    }
    OperatorSubtaskState migrated;
    try (var h = current()) {
      h.initializeState(old);
      h.open();
      h.processElement1(second, second.day + DAY - 1);
      h.processBothWatermarks(new Watermark(T0 + 3 * DAY - 1));
      assertEquals(expectedSecond, describe(h.extractOutputValues()));
      migrated = h.snapshot(1, 1);
    }
    try (var h = current()) {
      h.initializeState(migrated);
      h.open();
      h.processElement1(third, third.day + DAY - 1);
      h.processBothWatermarks(new Watermark(Long.MAX_VALUE));
      assertEquals(expectedThird, describe(h.extractOutputValues()));
    }
  }

  private static List<String> describe(List<CategoryStat> stats) {
    return stats.stream().map(CategoryStat::toString).toList();
  }

  private static KeyedTwoInputStreamOperatorTestHarness<
          StatKey, DailyCount, ContributionDelta, CategoryStat>
      current() throws Exception {
    return harness(
        new RollingCounts(
            CONFIG.slide(),
            CONFIG.windows(),
            CONFIG.maxWindowSlides(),
            CONFIG.retention().counts(),
            CONFIG.eventTime().allowedLateness()));
  }

  private static KeyedTwoInputStreamOperatorTestHarness<
          StatKey, DailyCount, ContributionDelta, CategoryStat>
      earlierBuild() throws Exception {
    return harness(new EarlierBuild(CONFIG.retention().counts(), CONFIG.slide().toMillis()));
  }

  private static KeyedTwoInputStreamOperatorTestHarness<
          StatKey, DailyCount, ContributionDelta, CategoryStat>
      harness(KeyedCoProcessFunction<StatKey, DailyCount, ContributionDelta, CategoryStat> f)
          throws Exception {
    return new KeyedTwoInputStreamOperatorTestHarness<>(
        new KeyedCoProcessOperator<>(f), DailyCount::key, ContributionDelta::key, StatKey.TYPE);
  }

  /**
   * The table state as earlier builds declared it (POJO serializer, the same name and TTL), written
   * as they wrote a daily result before any watermark: the day's state and its first window-end
   * timer.
   */
  private static final class EarlierBuild
      extends KeyedCoProcessFunction<StatKey, DailyCount, ContributionDelta, CategoryStat> {
    private final Duration ttl;
    private final long slide;
    private transient ValueState<DayTable> table;

    EarlierBuild(Duration ttl, long slide) {
      this.ttl = ttl;
      this.slide = slide;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
      ValueStateDescriptor<DayTable> d =
          new ValueStateDescriptor<>("day-table", DayTableSerializerTest.pojoSerializer());
      d.enableTimeToLive(
          StateTtlConfig.newBuilder(ttl)
              .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
              .build());
      table = getRuntimeContext().getState(d);
    }

    @Override
    public void processElement1(DailyCount daily, Context ctx, Collector<CategoryStat> out)
        throws Exception {
      DayTable t = table.value() == null ? new DayTable() : table.value();
      long now = ctx.timerService().currentProcessingTime();
      DayState s = t.get(daily.day, now, ttl.toMillis());
      s = s == null ? new DayState() : s;
      s.windowCount += daily.count;
      s.windowExpected += daily.expected;
      s.windowVariance += daily.variance;
      s.windowExamples = daily.examples;
      t.put(daily.day, s, now, ttl.toMillis());
      table.update(t);
      ctx.timerService().registerEventTimeTimer(daily.day + slide - 1);
    }

    @Override
    public void processElement2(ContributionDelta late, Context ctx, Collector<CategoryStat> out) {
      throw new UnsupportedOperationException("not needed by this test");
    }
  }
}
