package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static dev.faultline.stats.Fixtures.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.keys.StatDimensions;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ContributionDelta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IssueContributionsTest {

  @Test
  void countsANewIssueOncePerDimensionAtItsOpeningTime() {
    ClassifiedEvent opened =
        event("a/b#1", "deepspeed", T0, T0 + 3 * DAY, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    IssueContributions.Change c = IssueContributions.fold(null, opened);
    assertEquals(StatDimensions.COUNTED.size(), c.deltas().size());
    assertTrue(c.deltas().stream().allMatch(d -> d.delta == 1 && d.time == T0));
  }

  @Test
  void reclassificationRetractsTheOldEntryAndAddsTheNewAtTheChange() {
    ClassifiedEvent opened =
        event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    ClassifiedEvent changed = Fixtures.copy(opened);
    changed.updatedAt = T0 + 5 * DAY;
    changed.category(Dimension.ROOT_CAUSE, "CONFIGURATION_ERROR");
    ClassifiedEvent[] h = IssueContributions.fold(null, opened).history();
    List<ContributionDelta> deltas = IssueContributions.fold(h, changed).deltas();
    assertEquals(2, deltas.size());
    assertEquals("ROOT_CAUSE|CONCURRENCY_ERROR|-1@" + T0, describe(deltas.get(0)));
    assertEquals("ROOT_CAUSE|CONFIGURATION_ERROR|1@" + (T0 + 5 * DAY), describe(deltas.get(1)));
  }

  @Test
  void aRedeliveryChangesNothing() {
    ClassifiedEvent opened =
        event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    ClassifiedEvent[] h = IssueContributions.fold(null, opened).history();
    IssueContributions.Change again = IssueContributions.fold(h, Fixtures.copy(opened));
    assertTrue(again.deltas().isEmpty());
    assertTrue(!again.historyChanged(h));
  }

  @Test
  void aDeletedIssueIsRetractedEverywhere() {
    ClassifiedEvent opened =
        event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    ClassifiedEvent deleted = Fixtures.copy(opened);
    deleted.updatedAt = T0 + DAY;
    deleted.state = "deleted";
    ClassifiedEvent[] h = IssueContributions.fold(null, opened).history();
    List<ContributionDelta> deltas = IssueContributions.fold(h, deleted).deltas();
    assertEquals(StatDimensions.COUNTED.size(), deltas.size());
    assertTrue(deltas.stream().allMatch(d -> d.delta == -1));
  }

  @Test
  void anOlderRecordArrivingLastDoesNotWin() {
    ClassifiedEvent opened =
        event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    ClassifiedEvent newer = Fixtures.copy(opened);
    newer.updatedAt = T0 + 2 * DAY;
    newer.category(Dimension.SYMPTOM, "OUT_OF_MEMORY");
    ClassifiedEvent[] h = IssueContributions.fold(null, newer).history();
    List<ContributionDelta> deltas = IssueContributions.fold(h, opened).deltas();
    // OUT_OF_MEMORY stays current; it now dates from the change, not from the opening.
    Map<String, Integer> net = net(deltas);
    assertEquals(
        Map.of("SYMPTOM|OUT_OF_MEMORY@" + T0, -1, "SYMPTOM|OUT_OF_MEMORY@" + (T0 + 2 * DAY), 1),
        filter(net, "SYMPTOM|"));
  }

  @Test
  void anyArrivalOrderLeavesTheSameNetContributions() {
    List<ClassifiedEvent> events = Fixtures.history("deepspeed", 60, 90, 7);
    Map<String, Integer> inOrder = netOf(events);
    Random r = new Random(11);
    for (int round = 0; round < 20; round++) {
      List<ClassifiedEvent> shuffled = new ArrayList<>(events);
      Collections.shuffle(shuffled, r);
      assertEquals(inOrder, netOf(shuffled), "round " + round);
    }
    Map<String, Integer> expected = new HashMap<>();
    for (IssueContributions.Entry e : Fixtures.finalEntries(events)) {
      expected.merge(e.dimension() + "|" + e.category() + "@" + e.time(), 1, Integer::sum);
    }
    assertEquals(expected, inOrder);
  }

  private static Map<String, Integer> netOf(List<ClassifiedEvent> events) {
    Map<String, ClassifiedEvent[]> histories = new HashMap<>();
    List<ContributionDelta> all = new ArrayList<>();
    for (ClassifiedEvent e : events) {
      IssueContributions.Change c = IssueContributions.fold(histories.get(e.id), e);
      histories.put(e.id, c.history());
      all.addAll(c.deltas());
    }
    return net(all);
  }

  private static Map<String, Integer> net(List<ContributionDelta> deltas) {
    Map<String, Integer> m = new HashMap<>();
    for (ContributionDelta d : deltas) {
      m.merge(d.dimension + "|" + d.category + "@" + d.time, d.delta, Integer::sum);
    }
    m.values().removeIf(v -> v == 0);
    return m;
  }

  private static Map<String, Integer> filter(Map<String, Integer> m, String prefix) {
    Map<String, Integer> out = new HashMap<>();
    m.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            out.put(k, v);
          }
        });
    return out;
  }

  private static String describe(ContributionDelta d) {
    return d.dimension + "|" + d.category + "|" + d.delta + "@" + d.time;
  }
}
