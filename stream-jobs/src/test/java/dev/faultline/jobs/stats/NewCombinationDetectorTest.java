package dev.faultline.jobs.stats;

import static dev.faultline.jobs.stats.Fixtures.DAY;
import static dev.faultline.jobs.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.jobs.stats.functions.NewCombinationDetector;
import dev.faultline.jobs.stats.records.ComboObservation;
import dev.faultline.jobs.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The new category × stage detector in Flink's test harness: first in event time, whatever the arrival order. */
class NewCombinationDetectorTest {
  private static final String FW = "deepspeed";

  @Test
  void aPairSeenEarlyInEventTimeIsNotNewsWhenAnIssueOfItArrivesFirstButHappenedLater() throws Exception {
    List<ComboObservation> arrival = List.of(
        combo("HANG", "COMMUNICATION", T0, "ds#1"), // the framework's history starts
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 40 * DAY, "ds#3"), // arrives first, happened later
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 5 * DAY, "ds#2")); // the pair's real first: inside the warm-up
    assertEquals(List.of(), alerts(arrival, T0 + 60 * DAY));
  }

  @Test
  void shuffledObservationsRaiseTheSameAlertsAsTheSameHistoryInTimeOrder() throws Exception {
    List<ComboObservation> history = new ArrayList<>();
    Random random = new Random(7);
    String[] categories = {"HANG", "OUT_OF_MEMORY", "CHECKPOINT_FAILURE", "RUNTIME_CRASH", "INCORRECT_OUTPUT"};
    String[] stages = {"COMMUNICATION", "MEMORY", "FAULT_TOLERANCE", "COMPUTATION", "INITIALIZATION"};
    for (int i = 0; i < 200; i++) {
      history.add(combo(categories[random.nextInt(categories.length)], stages[random.nextInt(stages.length)],
          T0 + random.nextInt(120) * DAY + random.nextInt(1000), "ds#" + i));
    }
    List<ComboObservation> inOrder = new ArrayList<>(history);
    inOrder.sort((a, b) -> Long.compare(a.time, b.time));
    List<String> expected = alerts(inOrder, T0 + 200 * DAY);
    assertEquals(false, expected.isEmpty(), "the history should raise some alerts");
    for (int seed = 0; seed < 5; seed++) {
      List<ComboObservation> shuffled = new ArrayList<>(history);
      Collections.shuffle(shuffled, new Random(seed));
      assertEquals(expected, alerts(shuffled, T0 + 200 * DAY), "arrival order " + seed);
    }
  }

  @Test
  void anObservationBehindTheWatermarkIsTakenAtOnce() throws Exception {
    try (var harness = harness()) {
      harness.processElement(combo("HANG", "COMMUNICATION", T0, "ds#1"), T0);
      harness.processWatermark(new Watermark(T0 + 50 * DAY));
      harness.processElement(combo("OUT_OF_MEMORY", "MEMORY", T0 + 45 * DAY, "ds#2"), T0 + 45 * DAY);
      List<StatAlert> out = harness.extractOutputValues();
      assertEquals(1, out.size());
      assertEquals("ds#2", out.get(0).exampleIssueIds[0]);
    }
  }

  /** Alerts (id, time, example) raised for the observations in this arrival order, with the watermark at {@code end}. */
  private static List<String> alerts(List<ComboObservation> arrival, long end) throws Exception {
    try (var harness = harness()) {
      for (ComboObservation o : arrival) {
        harness.processElement(o, o.time);
      }
      harness.processWatermark(new Watermark(end));
      TreeSet<String> out = new TreeSet<>();
      for (StatAlert a : harness.extractOutputValues()) {
        out.add(a.id + " " + a.raisedAt + " " + a.exampleIssueIds[0]);
      }
      return new ArrayList<>(out);
    }
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, ComboObservation, StatAlert> harness() throws Exception {
    var harness = new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new NewCombinationDetector(Duration.ofDays(30), Duration.ofDays(730))),
        (ComboObservation o) -> o.framework, Types.STRING);
    harness.open();
    return harness;
  }

  private static ComboObservation combo(String category, String stage, long time, String issue) {
    return new ComboObservation(FW, "SYMPTOM", category, stage, time, issue);
  }
}
