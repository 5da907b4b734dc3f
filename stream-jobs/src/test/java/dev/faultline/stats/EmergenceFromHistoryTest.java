package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ComboObservation;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.ReleaseDelta;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Classified records → the issue-contribution step → the alert detector, as the job wires them, in
 * and out of order.
 */
class EmergenceFromHistoryTest {

  private static List<AlertCount> counts(List<ClassifiedEvent> arrival) {
    Map<String, ClassifiedEvent[]> history = new HashMap<>();
    List<AlertCount> out = new ArrayList<>();
    for (ClassifiedEvent e : arrival) {
      IssueContributions.Change c = IssueContributions.fold(history.get(e.id), e);
      history.put(e.id, c.history());
      for (ContributionDelta d : c.deltas()) {
        out.add(AlertCount.of(d));
      }
      for (ComboObservation o : c.combinations()) {
        out.add(AlertCount.of(o));
      }
      for (ReleaseDelta r : c.releaseDeltas()) {
        if (r.dimension == Dimension.STAGE) {
          out.add(AlertCount.of(r));
        }
      }
    }
    return out;
  }

  @Test
  void theFixtureSurgeIsFoundInOrderAndInAShuffledBackfillAlike() throws Exception {
    List<ClassifiedEvent> events = Fixtures.history("fw", 200, 120, 17);
    Map<String, String> ordered;
    try (DetectorHarness h = new DetectorHarness(AlertModel.defaults(), Duration.ofDays(400))) {
      Map<String, StatAlert> inForce = h.deliver(counts(events), 0).finish().inForce();
      assertTrue(
          inForce.values().stream()
              .flatMap(a -> java.util.Arrays.stream(a.moved))
              .anyMatch(
                  m -> m.kind == AlertKind.SURGE && m.category.equals("HANG") && m.count >= 5),
          inForce.keySet().toString());
      ordered = DetectorHarness.summary(inForce);
    }
    List<ClassifiedEvent> shuffled = new ArrayList<>(events);
    Collections.shuffle(shuffled, new Random(1));
    try (DetectorHarness h = new DetectorHarness(AlertModel.defaults(), Duration.ofDays(400))) {
      assertEquals(
          ordered,
          DetectorHarness.summary(
              h.deliver(counts(shuffled), Duration.ofHours(1).toMillis()).finish().inForce()));
    }
  }
}
