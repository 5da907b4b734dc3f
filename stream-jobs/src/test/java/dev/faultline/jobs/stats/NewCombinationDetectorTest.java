package dev.faultline.jobs.stats;

import static dev.faultline.jobs.stats.Fixtures.DAY;
import static dev.faultline.jobs.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.stats.functions.NewCombinationDetector;
import dev.faultline.jobs.stats.records.ComboObservation;
import dev.faultline.jobs.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The new category × stage detector in Flink's test harness: decided at once, revised when history arrives late. */
class NewCombinationDetectorTest {
  private static final String FW = "deepspeed";

  @Test
  void inOrderEachNewPairIsRaisedOnceAfterTheWarmUpAndNeverRevised() throws Exception {
    List<StatAlert> out = run(List.of(
        combo("HANG", "COMMUNICATION", T0, "ds#1"),
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 5 * DAY, "ds#2"), // inside the 30-day warm-up: not news
        combo("CHECKPOINT_FAILURE", "FAULT_TOLERANCE", T0 + 40 * DAY, "ds#3"),
        combo("CHECKPOINT_FAILURE", "FAULT_TOLERANCE", T0 + 41 * DAY, "ds#4")));
    assertEquals(1, out.size(), out.toString());
    StatAlert a = out.get(0);
    assertEquals(FW + "/symptom/CHECKPOINT_FAILURE/FAULT_TOLERANCE/NEW_COMBINATION", a.id);
    assertEquals("ds#3", a.exampleIssueIds[0]);
    assertEquals(40, a.score);
    assertFalse(a.withdrawn);
  }

  @Test
  void anAlertIsWithdrawnWhenAnEarlierIssueOfThePairArrivesLater() throws Exception {
    List<StatAlert> out = run(List.of(
        combo("HANG", "COMMUNICATION", T0, "ds#1"),
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 40 * DAY, "ds#3"), // looks new: raised
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 5 * DAY, "ds#2"))); // the pair was there within the warm-up
    assertEquals(2, out.size(), out.toString());
    assertFalse(out.get(0).withdrawn);
    assertTrue(out.get(1).withdrawn);
    assertEquals(out.get(0).id, out.get(1).id);
    assertTrue(out.get(1).explanation.startsWith("Withdrawn:"), out.get(1).explanation);
  }

  @Test
  void aLaterStartOfHistoryIsCorrectedWhenEarlierRecordsOfTheFrameworkArrive() throws Exception {
    List<StatAlert> out = run(List.of(
        combo("OUT_OF_MEMORY", "MEMORY", T0 + 45 * DAY, "ds#3"), // the framework's first record so far: not news
        combo("HANG", "COMMUNICATION", T0, "ds#1"))); // history starts 45 days earlier: now it is
    Map<String, StatAlert> last = inForce(out);
    assertEquals(1, last.size(), "HANG/COMMUNICATION is the framework's first pair, never news: " + out);
    StatAlert oom = last.get(FW + "/symptom/OUT_OF_MEMORY/MEMORY/NEW_COMBINATION");
    assertEquals(45, oom.score);
    assertEquals("ds#3", oom.exampleIssueIds[0]);
  }

  @Test
  void theAlertsInForceAreTheSameWhateverTheArrivalOrder() throws Exception {
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
    List<StatAlert> ordered = run(inOrder);
    Map<String, String> expected = summary(inForce(ordered));
    assertEquals(expected.size(), ordered.size(), "in order, no alert is revised");
    assertFalse(expected.isEmpty(), "the history should raise some alerts");
    for (int seed = 0; seed < 5; seed++) {
      List<ComboObservation> shuffled = new ArrayList<>(history);
      Collections.shuffle(shuffled, new Random(seed));
      assertEquals(expected, summary(inForce(run(shuffled))), "arrival order " + seed);
    }
  }

  /** The last record of each id, without the withdrawn ones. */
  private static Map<String, StatAlert> inForce(List<StatAlert> out) {
    Map<String, StatAlert> last = new TreeMap<>();
    for (StatAlert a : out) {
      last.put(a.id, a);
    }
    last.values().removeIf(a -> a.withdrawn);
    return last;
  }

  private static Map<String, String> summary(Map<String, StatAlert> alerts) {
    Map<String, String> m = new TreeMap<>();
    alerts.forEach((id, a) -> m.put(id, a.raisedAt + " " + a.score + " " + a.exampleIssueIds[0] + " " + a.explanation));
    return m;
  }

  private static List<StatAlert> run(List<ComboObservation> arrival) throws Exception {
    try (var harness = new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new NewCombinationDetector(Duration.ofDays(30), Duration.ofDays(730))),
        (ComboObservation o) -> o.framework, Types.STRING)) {
      harness.open();
      for (ComboObservation o : arrival) {
        harness.processElement(o, o.time);
      }
      return new ArrayList<>(harness.extractOutputValues());
    }
  }

  private static ComboObservation combo(String category, String stage, long time, String issue) {
    return new ComboObservation(FW, "SYMPTOM", category, stage, time, issue);
  }
}
