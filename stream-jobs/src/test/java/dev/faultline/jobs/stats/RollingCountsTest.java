package dev.faultline.jobs.stats;

import static dev.faultline.jobs.stats.Fixtures.DAY;
import static dev.faultline.jobs.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.stats.functions.RollingCounts;
import dev.faultline.jobs.stats.records.CategoryStat;
import dev.faultline.jobs.stats.records.ContributionDelta;
import dev.faultline.jobs.stats.records.DailyCount;
import dev.faultline.jobs.stats.records.StatAlert;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rolling counter in Flink's test harness: daily results and too-late deltas in, windows and alerts out. */
class RollingCountsTest {
  private static final String FW = "deepspeed";
  private final StatsConfig config = StatsConfig.defaults("127.0.0.1:9092", new GraphConfig("bolt://127.0.0.1:7687", "neo4j", "pw", "neo4j"));
  private KeyedTwoInputStreamOperatorTestHarness<String, DailyCount, ContributionDelta, CategoryStat> harness;

  @BeforeEach
  void open() throws Exception {
    harness = new KeyedTwoInputStreamOperatorTestHarness<>(
        new KeyedCoProcessOperator<>(new RollingCounts(config)), c -> c.statKey, d -> d.statKey, Types.STRING);
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

    // Weeks later, a delta for that day the daily window no longer takes: the closed windows are re-emitted.
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY));
    harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0 + 3_600_000, 1, "ds#3"), T0 + 3_600_000);
    harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0 + 7_200_000, 1, "ds#4"), T0 + 7_200_000);
    harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0 + 7_200_000, -1, "ds#4"), T0 + 7_200_000);
    int before = harness.extractOutputValues().size();
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY + 1));
    // Three changes, one re-emission of each closed window holding the day: 7 of 7 days, 20 of 30 days.
    assertEquals(7 + 20, harness.extractOutputValues().size() - before);
    Map<String, CategoryStat> corrected = Fixtures.latest(harness.extractOutputValues());
    assertEquals(3, corrected.get(FW + "/symptom/HANG/P7D/2024-02-24").count);
    assertEquals(3, corrected.get(FW + "/symptom/HANG/P7D/2024-03-01").count);
    assertEquals(3, corrected.get(FW + "/symptom/HANG/P30D/2024-02-20").count, "the newest closed 30-day window");
    assertEquals(null, corrected.get(FW + "/symptom/HANG/P30D/2024-02-21"), "windows still open wait for the watermark");

    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    Map<String, CategoryStat> all = Fixtures.latest(harness.extractOutputValues());
    assertEquals(7 + 30, all.size(), "every window that holds the day, once each");
    assertTrue(all.values().stream().allMatch(s -> s.count == 3));
    assertEquals(0, harness.numEventTimeTimers());
    assertEquals(0, harness.numProcessingTimeTimers());
    assertEquals(1, harness.numKeyedStateEntries(), "one day of one key");
  }

  @Test
  void aTooLateDeltaThatOvertakesTheWindowResultWaitsForItsCleanupTime() throws Exception {
    // The retraction of an issue, too late for the daily window, arrives before that window's result holding the
    // issue's addition (side output and main output are separate channels).
    harness.processBothWatermarks(new Watermark(T0 + 3 * DAY));
    harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0 + 1000, -1, "ds#1"), T0 + 1000);
    assertTrue(harness.extractOutputValues().isEmpty(), "nothing emitted before the window result is known");
    harness.processElement1(daily("HANG", T0, 1, "ds#1"), T0 + DAY - 1);
    harness.processBothWatermarks(new Watermark(T0 + 8 * DAY));
    List<CategoryStat> out = harness.extractOutputValues();
    assertTrue(out.stream().allMatch(s -> s.count >= 0), out.toString());
    assertEquals(0, Fixtures.latest(out).get(FW + "/symptom/HANG/P7D/2024-03-01").count);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    assertTrue(Fixtures.latest(harness.extractOutputValues()).values().stream().allMatch(s -> s.count == 0));
    assertEquals(0, harness.numEventTimeTimers());
  }

  @Test
  void forgetsDaysAfterTheCountStateTtl() throws Exception {
    harness.setStateTtlProcessingTime(0);
    harness.processElement1(daily("HANG", T0, 2, "ds#1"), T0 + DAY - 1);
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    harness.setStateTtlProcessingTime(config.countStateTtl().toMillis() + 1);
    harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0, 1, "ds#9"), T0);
    List<CategoryStat> out = harness.extractOutputValues();
    assertEquals(1, out.get(out.size() - 1).count, "the expired day no longer counts");
  }

  @Test
  void raisesOneSurgeAlertPerEpisode() throws Exception {
    // Baseline: one HANG a week for four weeks; then three a day for a week; quiet; then a second burst.
    long t = T0 - 28 * DAY;
    for (int w = 0; w < 4; w++) {
      feed("HANG", t + w * 7 * DAY, 1);
    }
    for (int d = 0; d < 7; d++) {
      feed("HANG", T0 + d * DAY, 3);
    }
    long second = T0 + 90 * DAY;
    for (int d = 0; d < 5; d++) {
      feed("HANG", second + d * DAY, 4);
    }
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));

    List<StatAlert> alerts = harness.getSideOutput(RollingCounts.ALERTS).stream().map(StreamRecord::getValue).toList();
    assertEquals(2, alerts.size(), alerts.toString());
    StatAlert first = alerts.get(0);
    assertEquals("SURGE", first.kind);
    assertTrue(first.count >= config.surgeMinCount());
    assertTrue(first.baseline > 0 && first.score >= 3, first.toString());
    assertTrue(first.exampleIssueIds.length > 0);
    assertTrue(first.explanation.startsWith("deepspeed symptom HANG rose to ") && first.explanation.endsWith(")."), first.explanation);
    assertNotEquals(first.id, alerts.get(1).id);
    assertEquals(0, harness.numEventTimeTimers());
  }

  @Test
  void anEpisodeThatLaterRecordsTakeBackIsWithdrawnUnderItsId() throws Exception {
    long t = T0 - 28 * DAY;
    for (int w = 0; w < 4; w++) {
      feed("HANG", t + w * 7 * DAY, 1);
    }
    for (int d = 0; d < 7; d++) {
      feed("HANG", T0 + d * DAY, 3);
    }
    harness.processBothWatermarks(new Watermark(T0 + 20 * DAY));
    List<StatAlert> raised = harness.getSideOutput(RollingCounts.ALERTS).stream().map(StreamRecord::getValue).toList();
    assertEquals(1, raised.size(), raised.toString());
    assertTrue(!raised.get(0).withdrawn);

    // the burst's issues are re-classified out of HANG: too late for the daily windows, through the correction path
    for (int d = 0; d < 7; d++) {
      for (int i = 0; i < 3; i++) {
        harness.processElement2(new ContributionDelta(FW, "SYMPTOM", "HANG", T0 + d * DAY + 1000, -1, "ds#" + d + "-" + i),
            T0 + d * DAY + 1000);
      }
    }
    harness.processBothWatermarks(new Watermark(T0 + 21 * DAY));
    List<StatAlert> all = harness.getSideOutput(RollingCounts.ALERTS).stream().map(StreamRecord::getValue).toList();
    assertEquals(2, all.size(), all.toString());
    StatAlert withdrawn = all.get(1);
    assertEquals(raised.get(0).id, withdrawn.id);
    assertTrue(withdrawn.withdrawn);
    assertTrue(withdrawn.explanation.startsWith("Withdrawn:"), withdrawn.explanation);
  }

  @Test
  void neverAlertsOnUnknown() throws Exception {
    for (int d = 0; d < 7; d++) {
      feed("UNKNOWN", T0 + d * DAY, 10);
    }
    harness.processBothWatermarks(new Watermark(Long.MAX_VALUE));
    assertTrue(harness.getSideOutput(RollingCounts.ALERTS) == null || harness.getSideOutput(RollingCounts.ALERTS).isEmpty());
  }

  private void feed(String category, long day, int count) throws Exception {
    String[] examples = new String[Math.min(count, 5)];
    for (int i = 0; i < examples.length; i++) {
      examples[i] = "ds#" + (day / DAY) + "-" + i;
    }
    harness.processElement1(daily(category, day, count, examples), day + DAY - 1);
    harness.processBothWatermarks(new Watermark(day + DAY - 1));
  }

  private static DailyCount daily(String category, long day, long count, String... examples) {
    return new DailyCount(FW, "SYMPTOM", category, day, count, examples);
  }
}
