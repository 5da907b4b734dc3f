package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.AlertMove;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * NEW_COMBINATION alerts (a category × stage pair absent from the baseline) through the
 * framework-wide detector: a first occurrence is news only when it is unlikely given how sparse the
 * framework's stream is, and it passes the same false-discovery control as the surges.
 */
class NewCombinationDetectorTest {
  private static final String FW = "deepspeed";
  private final AlertModel model = AlertModel.defaults();

  /** {@code perWeek} issues a week over {@code days}, HANG/CRASH × COMMUNICATION/MEMORY only. */
  private static List<AlertCount> background(int days, double perWeek, long seed) {
    Random r = new Random(seed);
    List<AlertCount> out = new ArrayList<>();
    int n = 0;
    for (int d = 0; d < days; d++) {
      if (r.nextDouble() < perWeek / 7.0) {
        out.addAll(
            DetectorHarness.issue(
                FW,
                "ds#" + n++,
                T0 + d * DAY + 1000,
                r.nextBoolean() ? "HANG" : "RUNTIME_CRASH",
                r.nextBoolean() ? "COMMUNICATION" : "MEMORY",
                +1));
      }
    }
    return out;
  }

  private static List<StatAlert> combinations(Map<String, StatAlert> inForce) {
    return inForce.values().stream()
        .filter(a -> Arrays.stream(a.moved).anyMatch(m -> m.kind == AlertKind.NEW_COMBINATION))
        .toList();
  }

  @Test
  void aFirstOccurrenceInASparseStreamIsNoNews() throws Exception {
    List<AlertCount> counts = background(300, 2, 1);
    counts.addAll(DetectorHarness.issue(FW, "new#1", T0 + 280 * DAY, "HANG", "INITIALIZATION", +1));
    counts.sort(Comparator.comparingLong(c -> c.time));
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      assertTrue(
          combinations(h.deliver(counts, 0).finish().inForce()).isEmpty(), h.emitted().toString());
    }
  }

  @Test
  void aPairAbsentFromTheBaselineThatAppearsInSeveralIssuesOfAWeekIsRaisedOnce() throws Exception {
    List<AlertCount> counts = background(300, 7, 2);
    for (int i = 0; i < 6; i++) {
      counts.addAll(
          DetectorHarness.issue(
              FW, "new#" + i, T0 + (280 + i) * DAY, "HANG", "INITIALIZATION", +1));
    }
    counts.sort(Comparator.comparingLong(c -> c.time));
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      List<StatAlert> found = combinations(h.deliver(counts, 0).finish().inForce());
      assertEquals(1, found.size(), found.toString());
      StatAlert a = found.get(0);
      AlertMove pair =
          DetectorHarness.member(a, AlertKind.NEW_COMBINATION, Dimension.SYMPTOM, "HANG")
              .orElseThrow();
      assertEquals("INITIALIZATION", pair.stage);
      assertEquals(0, pair.baselineCount);
      assertTrue(
          a.explanation.contains("issues of symptom hang with stage initialization in ")
              && a.explanation.contains("a pair absent from the "),
          a.explanation);
      assertEquals(
          1, h.emitted().stream().filter(x -> x.id.equals(a.id)).count(), "in order, one record");
    }
  }

  @Test
  void isWithdrawnWhenEarlierIssuesShowThePairWasThereAfterAll() throws Exception {
    List<AlertCount> counts = background(300, 7, 3);
    for (int i = 0; i < 6; i++) {
      counts.addAll(
          DetectorHarness.issue(
              FW, "new#" + i, T0 + (280 + i) * DAY, "HANG", "INITIALIZATION", +1));
    }
    counts.sort(Comparator.comparingLong(c -> c.time));
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      h.deliver(counts, 0);
      StatAlert raised = combinations(h.inForce()).get(0);
      // a backfill brings issues of the pair from the baseline months
      List<AlertCount> late = new ArrayList<>();
      for (int m = 0; m < 6; m++) {
        late.addAll(
            DetectorHarness.issue(
                FW, "old#" + m, T0 + (120 + 20 * m) * DAY, "HANG", "INITIALIZATION", +1));
      }
      h.deliver(late, 0).finish();
      List<StatAlert> records = h.emitted().stream().filter(a -> a.id.equals(raised.id)).toList();
      StatAlert last = records.get(records.size() - 1);
      // the event's alert is withdrawn, or revised to no longer list the pair (its stage may
      // still have risen)
      assertTrue(
          last.withdrawn
              || Arrays.stream(last.moved).noneMatch(m -> m.kind == AlertKind.NEW_COMBINATION),
          records.toString());
      assertTrue(combinations(h.inForce()).isEmpty());
    }
  }

  @Test
  void theAlertsInForceAreTheSameWhateverTheArrivalOrder() throws Exception {
    List<AlertCount> counts = background(300, 7, 4);
    for (int i = 0; i < 6; i++) {
      counts.addAll(
          DetectorHarness.issue(
              FW, "new#" + i, T0 + (280 + i) * DAY, "HANG", "INITIALIZATION", +1));
    }
    counts.sort(Comparator.comparingLong(c -> c.time));
    Map<String, String> expected;
    try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
      expected = DetectorHarness.summary(h.deliver(counts, 0).finish().inForce());
    }
    assertFalse(expected.isEmpty());
    for (int seed = 0; seed < 3; seed++) {
      List<AlertCount> shuffled = new ArrayList<>(counts);
      Collections.shuffle(shuffled, new Random(seed));
      try (DetectorHarness h = new DetectorHarness(model, Duration.ofDays(400))) {
        assertEquals(
            expected,
            DetectorHarness.summary(h.deliver(shuffled, 60 * DAY).finish().inForce()),
            "arrival order " + seed);
      }
    }
  }
}
