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
import dev.faultline.stats.records.StatKey;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rolling counter in Flink's test harness: daily results and too-late deltas in, windows out
 * (alerts: EmergenceDetectorTest).
 */
class RollingCountsTest {
  private static final String FW = "deepspeed";
  private final StatsConfig config =
      StatsConfig.defaults(
          StatsConfig.defaultIo(
              KafkaSettings.of("127.0.0.1:9092"),
              new GraphConfig("bolt://127.0.0.1:7687", "neo4j", "pw", "neo4j")));
  private KeyedTwoInputStreamOperatorTestHarness<
          StatKey, DailyCount, ContributionDelta, CategoryStat>
      harness;

  @BeforeEach
  void open() throws Exception {
    harness =
        new KeyedTwoInputStreamOperatorTestHarness<>(
            new KeyedCoProcessOperator<>(
                new RollingCounts(
                    config.slide(),
                    config.windows(),
                    config.maxWindowSlides(),
                    config.retention().counts(),
                    config.eventTime().allowedLateness())),
            DailyCount::key,
            ContributionDelta::key,
            StatKey.TYPE);
    harness.open();
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  @Test
  void emitsWindowsAtTheWatermarkUpdatesThemWithTooLateDeltasAndLeavesNoTimers() throws Exception {
    harness.processElement1(daily("HANG", T0, 2, "ds#1", "ds#2"), T0 + DAY - 1);
    harness.processBothWatermarks(new Watermark(T0 + DAY - 1));
    Map<String, CategoryStat> afterClose = Fixtures.latest(harness.extractOutputValues());
    assertEquals(2, afterClose.get(FW + "/symptom/HANG/P7D/2024-02-24").count);
    assertEquals(2, afterClose.get(FW + "/symptom/HANG/P30D/2024-02-01").count);
    assertEquals(2, afterClose.size());

    // Weeks later, a delta for that day the daily window no longer takes: the closed windows are
    // re-emitted.
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY));
    harness.processElement2(
        new ContributionDelta(FW, Dimension.SYMPTOM, "HANG", T0 + 3_600_000, 1, "ds#3"),
        T0 + 3_600_000);
    harness.processElement2(
        new ContributionDelta(FW, Dimension.SYMPTOM, "HANG", T0 + 7_200_000, 1, "ds#4"),
        T0 + 7_200_000);
    harness.processElement2(
        new ContributionDelta(FW, Dimension.SYMPTOM, "HANG", T0 + 7_200_000, -1, "ds#4"),
        T0 + 7_200_000);
    int before = harness.extractOutputValues().size();
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY + 1));
    // Three changes, one re-emission of each closed window holding the day: 7 of 7 days, 20 of 30
    // days.
    assertEquals(7 + 20, harness.extractOutputValues().size() - before);
    Map<String, CategoryStat> corrected = Fixtures.latest(harness.extractOutputValues());
    assertEquals(3, corrected.get(FW + "/symptom/HANG/P7D/2024-02-24").count);
    assertEquals(3, corrected.get(FW + "/symptom/HANG/P7D/2024-03-01").count);
    assertEquals(
        3,
        corrected.get(FW + "/symptom/HANG/P30D/2024-02-20").count,
        "the newest closed 30-day window");
    assertEquals(
        null,
        corrected.get(FW + "/symptom/HANG/P30D/2024-02-21"),
        "windows still open wait for the watermark");

    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    Map<String, CategoryStat> all = Fixtures.latest(harness.extractOutputValues());
    assertEquals(7 + 30, all.size(), "every window that holds the day, once each");
    assertTrue(all.values().stream().allMatch(s -> s.count == 3));
    assertEquals(0, harness.numEventTimeTimers());
    assertEquals(0, harness.numProcessingTimeTimers());
    assertEquals(1, harness.numKeyedStateEntries(), "one day of one key");
  }

  @Test
  void everyDayOfAKeyGetsItsWindowsNotOnlyTheFirstItSaw() throws Exception {
    harness.processElement1(daily("HANG", T0, 1, "ds#1"), T0 + DAY - 1);
    harness.processElement1(daily("HANG", T0 + 40 * DAY, 2, "ds#2"), T0 + 41 * DAY - 1);
    harness.processElement1(daily("HANG", T0, 1, "ds#3"), T0 + DAY - 1);
    harness.processElement1(daily("HANG", T0 + 40 * DAY, 1, "ds#4"), T0 + 41 * DAY - 1);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    Map<String, CategoryStat> all = Fixtures.latest(harness.extractOutputValues());
    assertEquals(2 * (7 + 30), all.size(), "every window holding either day (40 days apart)");
    assertEquals(2, all.get(FW + "/symptom/HANG/P7D/2024-02-24").count);
    assertEquals(3, all.get(FW + "/symptom/HANG/P7D/2024-04-04").count);
    assertEquals(0, harness.numEventTimeTimers());
  }

  @Test
  void aTooLateDeltaThatOvertakesTheWindowResultWaitsForItsCleanupTime() throws Exception {
    // The retraction of an issue, too late for the daily window, arrives before that window's
    // result holding the
    // issue's addition (side output and main output are separate channels).
    harness.processBothWatermarks(new Watermark(T0 + 3 * DAY));
    harness.processElement2(
        new ContributionDelta(FW, Dimension.SYMPTOM, "HANG", T0 + 1000, -1, "ds#1"), T0 + 1000);
    assertTrue(
        harness.extractOutputValues().isEmpty(),
        "nothing emitted before the window result is known");
    harness.processElement1(daily("HANG", T0, 1, "ds#1"), T0 + DAY - 1);
    harness.processBothWatermarks(new Watermark(T0 + 8 * DAY));
    List<CategoryStat> out = harness.extractOutputValues();
    assertTrue(out.stream().allMatch(s -> s.count >= 0), out.toString());
    assertEquals(0, Fixtures.latest(out).get(FW + "/symptom/HANG/P7D/2024-03-01").count);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    assertTrue(
        Fixtures.latest(harness.extractOutputValues()).values().stream()
            .allMatch(s -> s.count == 0));
    assertEquals(0, harness.numEventTimeTimers());
  }

  @Test
  void emitsNoAlertsItselfEvenForABurst() throws Exception {
    // The surge test moved to the framework-wide EmergenceDetector: the rolling counter only
    // counts.
    for (int d = 0; d < 7; d++) {
      harness.processElement1(daily("HANG", T0 + d * DAY, 10, "ds#" + d), T0 + d * DAY + DAY - 1);
    }
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    assertEquals(
        70,
        Fixtures.latest(harness.extractOutputValues())
            .get(FW + "/symptom/HANG/P30D/2024-02-08")
            .count);
    assertTrue(
        harness.getOutput().stream()
            .allMatch(
                o ->
                    !(o
                            instanceof
                            org.apache.flink.streaming.runtime.streamrecord.StreamRecord<?> r)
                        || r.getValue() instanceof CategoryStat),
        "only counts");
    assertEquals(0, harness.numEventTimeTimers());
  }

  @Test
  void forgetsDaysAfterTheCountStateTtl() throws Exception {
    harness.setStateTtlProcessingTime(0);
    harness.processElement1(daily("HANG", T0, 2, "ds#1"), T0 + DAY - 1);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    harness.setStateTtlProcessingTime(config.retention().counts().toMillis() + 1);
    harness.processElement2(
        new ContributionDelta(FW, Dimension.SYMPTOM, "HANG", T0, 1, "ds#9"), T0);
    List<CategoryStat> out = harness.extractOutputValues();
    assertEquals(1, out.get(out.size() - 1).count, "the expired day no longer counts");
  }

  @Test
  void aWindowCarriesItsExpectedCountAndVarianceBesideItsCountLateOnesIncluded() throws Exception {
    // day 0: one HANG label (p .6) and an issue labelled otherwise with p .3 of HANG
    DailyCount first = daily("HANG", T0, 1, "ds#1");
    first.expected = 0.9;
    first.variance = 0.6 * 0.4 + 0.3 * 0.7;
    harness.processElement1(first, T0 + DAY - 1);
    // day 1: a probability change alone (no label moved)
    DailyCount second = daily("HANG", T0 + DAY, 0);
    second.expected = 0.2;
    second.variance = 0.16;
    harness.processElement1(second, T0 + 2 * DAY - 1);
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY));
    // a too-late retraction of day 0's other issue
    harness.processElement2(
        new ContributionDelta(
            FW, Dimension.SYMPTOM, "HANG", T0 + 60_000, 0, "ds#2", -0.3, -0.3 * 0.7),
        T0 + 60_000);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    Map<String, CategoryStat> all = Fixtures.latest(harness.extractOutputValues());
    CategoryStat both = all.get(FW + "/symptom/HANG/P7D/2024-02-25");
    assertEquals(1, both.count);
    assertEquals(0.6 + 0.2, both.expected, 1e-9);
    assertEquals(0.24 + 0.16, both.variance, 1e-9);
    CategoryStat onlyTheChange = all.get(FW + "/symptom/HANG/P7D/2024-03-02");
    assertEquals(0, onlyTheChange.count);
    assertEquals(0.2, onlyTheChange.expected, 1e-9);
    assertEquals(0.16, onlyTheChange.variance, 1e-9);
  }

  /**
   * Days of one key spread with gaps longer than the longest window, some arriving after the
   * watermark passed their first window ends: after every watermark, the windows emitted so far are
   * exactly those ending by then that hold a day with data, each with the sum of its days.
   */
  @Test
  void afterEachWatermarkEveryClosedWindowHoldingDataIsOutWithItsSum() throws Exception {
    java.util.Random r = new java.util.Random(5);
    Map<Long, Long> counts = new java.util.TreeMap<>();
    long watermark = T0;
    for (int step = 0; step < 60; step++) {
      long day = T0 + (r.nextInt(6) == 0 ? 60 + r.nextInt(60) : r.nextInt(20)) * DAY;
      day = step > 30 ? day + 100 * DAY : day; // a second stretch after a gap of months
      harness.processElement1(daily("HANG", day, 1, "ds#" + step), day + DAY - 1);
      counts.merge(day, 1L, Long::sum);
      if (r.nextInt(4) == 0) {
        watermark += (1 + r.nextInt(25)) * DAY;
        harness.processBothWatermarks(new Watermark(watermark - 1));
        assertClosedWindows(counts, watermark - 1);
      }
    }
    // a lone day arriving after some of its windows closed: those are re-emitted at the next
    // watermark, the open ones follow from its first open end on
    harness.processBothWatermarks(new Watermark(T0 + 310 * DAY - 1));
    harness.processElement1(daily("HANG", T0 + 305 * DAY, 1, "ds#lone"), T0 + 306 * DAY - 1);
    counts.merge(T0 + 305 * DAY, 1L, Long::sum);
    harness.processBothWatermarks(new Watermark(T0 + 310 * DAY));
    assertClosedWindows(counts, T0 + 310 * DAY);
    harness.processBothWatermarks(new Watermark(T0 + 400 * DAY));
    assertClosedWindows(counts, T0 + 400 * DAY);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    assertEquals(0, harness.numEventTimeTimers());
  }

  private void assertClosedWindows(Map<Long, Long> counts, long watermark) {
    Map<String, Long> expected = new java.util.TreeMap<>();
    for (java.time.Duration w : config.windows()) {
      for (long end = T0 + DAY; end - 1 <= watermark && end <= T0 + 400 * DAY; end += DAY) {
        long start = end - w.toMillis();
        long sum = 0;
        boolean any = false;
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
          if (e.getKey() >= start && e.getKey() < end) {
            sum += e.getValue();
            any = true;
          }
        }
        if (any) {
          expected.put(w + "@" + end, sum);
        }
      }
    }
    Map<String, Long> seen = new java.util.TreeMap<>();
    for (CategoryStat s : Fixtures.latest(harness.extractOutputValues()).values()) {
      if (s.windowEnd - 1 <= watermark) {
        seen.put(
            java.time.Duration.ofMillis(s.windowEnd - s.windowStart) + "@" + s.windowEnd, s.count);
      }
    }
    assertEquals(expected, seen, "the windows closed by watermark " + watermark);
  }

  private static DailyCount daily(String category, long day, long count, String... examples) {
    return new DailyCount(FW, Dimension.SYMPTOM, category, day, count, examples);
  }
}
