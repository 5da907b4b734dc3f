package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.functions.EmergenceDetector;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.AlertMove;
import dev.faultline.stats.records.DailySeries;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.junit.jupiter.api.Test;

/**
 * The framework-wide alert detector in Flink's test harness: episodes, revisions, arrival order,
 * state.
 */
class EmergenceDetectorTest {
  private static final String FW = "deepspeed";
  private static final String[] SYMPTOMS = {
    "RUNTIME_CRASH", "HANG", "OUT_OF_MEMORY", "INCORRECT_OUTPUT", "UNKNOWN"
  };
  private static final String[] STAGES = {"COMMUNICATION", "MEMORY", "INITIALIZATION", "UNKNOWN"};
  private final AlertModel model = AlertModel.defaults();

  /**
   * ~2 issues a day for {@code days} days from T0, seeded; then {@code surge} CHECKPOINT_FAILURE
   * issues in a week.
   */
  private static List<AlertCount> stream(int days, int surgeDay, int surge, long seed) {
    Random r = new Random(seed);
    List<AlertCount> out = new ArrayList<>();
    int n = 0;
    for (int d = 0; d < days; d++) {
      for (int i = r.nextInt(5); i > 0; i--) {
        out.addAll(
            DetectorHarness.issue(
                FW,
                "ds#" + n++,
                T0 + d * DAY + r.nextInt((int) DAY),
                SYMPTOMS[r.nextInt(SYMPTOMS.length)],
                STAGES[r.nextInt(STAGES.length)],
                +1));
      }
    }
    for (int i = 0; i < surge; i++) {
      out.addAll(
          DetectorHarness.issue(
              FW,
              "surge#" + i,
              T0 + (surgeDay + i % 7) * DAY + 3_600_000L * i,
              "CHECKPOINT_FAILURE",
              "MEMORY",
              +1));
    }
    out.sort(Comparator.comparingLong(c -> c.time));
    return out;
  }

  private static int days(DetectorHarness h) throws Exception {
    AbstractStreamOperator<?> operator = (AbstractStreamOperator<?>) h.harness.getOperator();
    operator.setCurrentKey(FW);
    MapState<String, DailySeries> state =
        operator
            .getKeyedStateBackend()
            .getPartitionedState(
                VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE,
                new MapStateDescriptor<>(
                    EmergenceDetector.DAY_COUNTS,
                    Types.STRING,
                    TypeInformation.of(DailySeries.class)));
    // the days with a count of any key
    java.util.Set<Long> days = new java.util.HashSet<>();
    for (DailySeries s : state.values()) {
      for (int i = 0; i < s.counts.length; i++) {
        if (s.counts[i] != 0) {
          days.add(s.firstDay + i);
        }
      }
    }
    return days.size();
  }

  private static java.util.Optional<AlertMove> checkpointFailures(StatAlert a) {
    return DetectorHarness.member(a, AlertKind.SURGE, Dimension.SYMPTOM, "CHECKPOINT_FAILURE");
  }

  private static StatAlert surgeOf(Map<String, StatAlert> inForce) {
    return inForce.values().stream()
        .filter(a -> checkpointFailures(a).isPresent())
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no CHECKPOINT_FAILURE surge among " + inForce.keySet()));
  }

  @Test
  void inOrderASurgeIsRaisedOnceExplainedAndNoTimerIsLeft() throws Exception {
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      h.deliver(stream(240, 220, 12, 1), 0).finish();
      List<StatAlert> emitted = h.emitted();
      StatAlert a = surgeOf(h.inForce());
      AlertMove m = checkpointFailures(a).orElseThrow();
      assertEquals(
          1,
          h.inForce().values().stream()
              .filter(
                  x -> java.util.Arrays.stream(x.issueIds).anyMatch(i -> i.startsWith("surge#")))
              .count(),
          "one event, one alert: " + h.inForce().keySet());
      assertTrue(a.moved.length >= 2, "the surge's stage moved with it: " + a.explanation);
      // in order, a grouped alert keeps its id while members join: one record when it is raised
      // and one per change (never a repeat), none taken back
      List<StatAlert> ofId = emitted.stream().filter(x -> x.id.equals(a.id)).toList();
      assertTrue(ofId.size() <= a.moved.length, "a record per member at most: " + emitted);
      for (int i = 1; i < ofId.size(); i++) {
        assertTrue(!ofId.get(i).sameAs(ofId.get(i - 1)), "no record repeated: " + ofId);
        assertTrue(ofId.get(i).raisedAt >= ofId.get(i - 1).raisedAt, ofId.toString());
      }
      assertTrue(
          emitted.stream().noneMatch(x -> x.withdrawn), "nothing withdrawn in order: " + emitted);
      assertTrue(
          m.windowEnd > T0 + 220 * DAY && m.windowEnd <= T0 + 227 * DAY,
          "found within the week: " + a);
      assertTrue(
          m.count >= 3
              && m.expected < m.count / 2.0
              && m.adjustedPValue <= 1 - Math.exp(-model.falseAlertsPerMonth()),
          a.toString());
      // its examples are mostly the surge's (the strongest members' first, then sorted)
      assertTrue(
          java.util.Arrays.stream(a.exampleIssueIds).filter(x -> x.startsWith("surge#")).count()
              > a.exampleIssueIds.length / 2,
          a.toString());
      for (String part :
          new String[] {
            m.count + " issues of symptom checkpoint failure in ",
            "expected at its share of the ",
            "Decided by a CUSUM",
            "arises by chance in this category once in",
            "p = 1 − exp(−",
            java.util.Arrays.stream(a.exampleIssueIds)
                .filter(x -> x.startsWith("surge#"))
                .findFirst()
                .orElseThrow()
          }) {
        assertTrue(
            a.explanation.contains(part), "the explanation names '" + part + "': " + a.explanation);
      }
      assertTrue(a.test.contains("CUSUM for a"), a.test);
      assertTrue(a.baselineEnd <= a.windowStart && a.baselineStart < a.baselineEnd, a.toString());
      assertEquals(0, h.harness.numEventTimeTimers());
    }
  }

  @Test
  void anEpisodeThatLaterRecordsTakeBackIsWithdrawnUnderItsId() throws Exception {
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      List<AlertCount> live = stream(240, 220, 12, 2);
      h.deliver(live, 0);
      StatAlert raised = surgeOf(h.inForce());
      // the surge's issues turn out to be one spammer's and are deleted: retractions of every
      // count at the times they entered it
      List<AlertCount> corrections = new ArrayList<>();
      for (AlertCount c : live) {
        if (c.issueId.startsWith("surge#")) {
          corrections.add(DetectorHarness.count(FW, c.key, c.time, -1, c.issueId));
        }
      }
      h.deliver(corrections, 0).finish();
      List<StatAlert> records = h.emitted().stream().filter(a -> a.id.equals(raised.id)).toList();
      StatAlert last = records.get(records.size() - 1);
      assertTrue(last.withdrawn, records.toString());
      assertTrue(last.explanation.startsWith("Withdrawn:"), last.explanation);
      assertFalse(h.inForce().containsKey(raised.id));
    }
  }

  @Test
  void theAlertsInForceAreTheSameWhateverTheArrivalOrder() throws Exception {
    List<AlertCount> history = stream(300, 250, 14, 3);
    Map<String, String> expected;
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      expected = DetectorHarness.summary(h.deliver(history, 0).finish().inForce());
    }
    assertFalse(expected.isEmpty(), "the history should raise the surge");
    for (int seed = 0; seed < 3; seed++) {
      List<AlertCount> shuffled = new ArrayList<>(history);
      Collections.shuffle(shuffled, new Random(seed));
      try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
        // a backfill: the watermark runs 30 days behind the newest record, so most records arrive
        // behind it
        assertEquals(
            expected,
            DetectorHarness.summary(h.deliver(shuffled, 30 * DAY).finish().inForce()),
            "arrival order " + seed);
        assertEquals(0, h.harness.numEventTimeTimers());
      }
    }
  }

  /**
   * {@code counts} with release 0.15.0 reported on day 250 and 28 OUT_OF_MEMORY issues on the four
   * weeks from it, in time order.
   */
  private static List<AlertCount> withOomAfterRelease(List<AlertCount> counts) {
    counts.add(DetectorHarness.release(FW, "0.15.0", T0 + 250 * DAY + 1000));
    for (int i = 0; i < 28; i++) {
      counts.addAll(
          DetectorHarness.issue(
              FW, "oom#" + i, T0 + (250 + i) * DAY + 5000, "OUT_OF_MEMORY", "MEMORY", +1));
    }
    counts.sort(Comparator.comparingLong(c -> c.time));
    return counts;
  }

  @Test
  void aReleaseFollowedByMoreOfACategoryIsAnAlertNamingTheRelease() throws Exception {
    List<AlertCount> counts = withOomAfterRelease(stream(300, 0, 0, 4));
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      Map<String, StatAlert> inForce = h.deliver(counts, 0).finish().inForce();
      StatAlert a = DetectorHarness.releaseSurge(inForce, "0.15.0", "OUT_OF_MEMORY");
      assertTrue(a != null, inForce.keySet().toString());
      assertEquals(T0 + 250 * DAY, a.windowStart);
      assertTrue(a.explanation.contains(" after release 0.15.0 (first reported "), a.explanation);
    }
  }

  @Test
  void forgetsHistoryOlderThanTheRetentionInEventTime() throws Exception {
    try (DetectorHarness h =
        new DetectorHarness(model, Duration.ofDays(model.lookbackDays() + model.windowDays()))) {
      h.deliver(stream(60, 0, 0, 5), 0);
      int full = days(h);
      assertTrue(full > 30, "days with data: " + full);
      // one record a year later: the days before the retention are dropped as its day ends pass
      h.deliver(DetectorHarness.issue(FW, "late#1", T0 + 430 * DAY, "HANG", "MEMORY", +1), 0)
          .finish();
      assertEquals(1, days(h), "only the late record's day is left");
      assertEquals(0, h.harness.numEventTimeTimers());
      // a record for a forgotten day changes nothing
      int before = h.emitted().size();
      h.deliver(DetectorHarness.issue(FW, "ancient#1", T0 + 5 * DAY, "HANG", "MEMORY", +1), 0);
      assertEquals(before, h.emitted().size());
    }
  }

  /**
   * A release reported once, forgotten with the history past the retention, then reported again:
   * its comparison starts at the second report, as for a release never seen before (the detector's
   * release marks, kept between re-tests, are rebuilt when the clean-up forgets reports).
   */
  @Test
  void aReleaseReportedAgainAfterItsFirstReportWasForgottenIsComparedFromTheSecond()
      throws Exception {
    List<AlertCount> counts = stream(300, 0, 0, 4);
    counts.add(DetectorHarness.release(FW, "0.15.0", T0 + DAY + 1000));
    withOomAfterRelease(counts);
    Duration retention = Duration.ofDays(model.lookbackDays() + model.windowDays());
    assertTrue(retention.toDays() < 240, "the first report must fall out of " + retention);
    try (DetectorHarness h = new DetectorHarness(model, retention)) {
      Map<String, StatAlert> inForce = h.deliver(counts, 0).finish().inForce();
      StatAlert a = DetectorHarness.releaseSurge(inForce, "0.15.0", "OUT_OF_MEMORY");
      assertTrue(a != null, inForce.keySet().toString());
      assertEquals(T0 + 250 * DAY, a.windowStart);
    }
  }
}
