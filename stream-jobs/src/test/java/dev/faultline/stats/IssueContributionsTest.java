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

  /** An event with distributions: symptom, stage and P(bug) as given, the rest point masses. */
  private static ClassifiedEvent withProbabilities(
      ClassifiedEvent e, double bug, Map<String, Double> symptom, Map<String, Double> stage) {
    e.bug = bug;
    e.probabilities[Dimension.SYMPTOM.ordinal()] = aligned(Dimension.SYMPTOM, symptom);
    e.probabilities[Dimension.STAGE.ordinal()] = aligned(Dimension.STAGE, stage);
    return e;
  }

  private static double[] aligned(Dimension d, Map<String, Double> p) {
    return d.distributionCodes().stream().mapToDouble(c -> p.getOrDefault(c, 0.0)).toArray();
  }

  /** The deltas of one dimension by "category@time": {count, expected, variance}. */
  private static Map<String, List<Double>> of(List<ContributionDelta> deltas, Dimension d) {
    Map<String, List<Double>> m = new java.util.TreeMap<>();
    for (ContributionDelta x : deltas) {
      if (x.dimension == d) {
        m.put(
            x.category + "@" + (x.time - T0) / DAY,
            List.of((double) x.delta, round(x.expected), round(x.variance)));
      }
    }
    return m;
  }

  private static double round(double x) {
    return Math.round(x * 1e9) / 1e9;
  }

  @Test
  void anIssueAddsItsProbabilityOfEachCodeBesideItsCountAtItsEntryTime() {
    ClassifiedEvent opened =
        withProbabilities(
            event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION"),
            0.8,
            Map.of("HANG", 0.6, "OUT_OF_MEMORY", 0.2, "NONE", 0.2),
            Map.of("COMMUNICATION", 0.75, "MEMORY", 0.25));
    List<ContributionDelta> deltas = IssueContributions.fold(null, opened).deltas();
    assertEquals(
        Map.of(
            "HANG@0", List.of(1.0, 0.6, 0.24),
            "OUT_OF_MEMORY@0", List.of(0.0, 0.2, 0.16),
            "NONE@0", List.of(0.0, 0.2, 0.16)),
        of(deltas, Dimension.SYMPTOM));
    // stage is given other kinds too: P(stage) × P(bug)
    assertEquals(
        Map.of("COMMUNICATION@0", List.of(1.0, 0.6, 0.24), "MEMORY@0", List.of(0.0, 0.2, 0.16)),
        of(deltas, Dimension.STAGE));
    // no distribution: a point mass on the label
    assertEquals(
        Map.of("CONCURRENCY_ERROR@0", List.of(1.0, 1.0, 0.0)), of(deltas, Dimension.ROOT_CAUSE));
  }

  @Test
  void newProbabilitiesUnderTheSameLabelMoveOnlyTheExpectedCountsAtTheEntryTime() {
    ClassifiedEvent opened =
        withProbabilities(
            event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION"),
            1.0,
            Map.of("HANG", 0.6, "OUT_OF_MEMORY", 0.4),
            Map.of("COMMUNICATION", 1.0));
    ClassifiedEvent commented = Fixtures.copy(opened);
    commented.updatedAt = T0 + 5 * DAY;
    withProbabilities(
        commented, 1.0, Map.of("HANG", 0.9, "OUT_OF_MEMORY", 0.1), Map.of("COMMUNICATION", 1.0));
    ClassifiedEvent[] h = IssueContributions.fold(null, opened).history();
    List<ContributionDelta> deltas = IssueContributions.fold(h, commented).deltas();
    assertEquals(
        Map.of(
            "HANG@0", List.of(0.0, 0.3, -0.15),
            "OUT_OF_MEMORY@0", List.of(0.0, -0.3, -0.15)),
        of(deltas, Dimension.SYMPTOM));
    assertEquals(2, deltas.size(), deltas.toString());
  }

  @Test
  void aNewLabelMovesTheWholeDistributionToTheChangeAndNothingIsLeftBehind() {
    ClassifiedEvent opened =
        withProbabilities(
            event("a/b#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION"),
            1.0,
            Map.of("HANG", 0.6, "OUT_OF_MEMORY", 0.4),
            Map.of("COMMUNICATION", 1.0));
    ClassifiedEvent changed = Fixtures.copy(opened);
    changed.updatedAt = T0 + 5 * DAY;
    changed.category(Dimension.SYMPTOM, "OUT_OF_MEMORY");
    withProbabilities(
        changed, 1.0, Map.of("HANG", 0.3, "OUT_OF_MEMORY", 0.7), Map.of("COMMUNICATION", 1.0));
    IssueContributions.Change first = IssueContributions.fold(null, opened);
    List<ContributionDelta> all = new ArrayList<>(first.deltas());
    List<ContributionDelta> second = IssueContributions.fold(first.history(), changed).deltas();
    assertEquals(
        Map.of(
            "HANG@0", List.of(-1.0, -0.6, -0.24),
            "OUT_OF_MEMORY@0", List.of(0.0, -0.4, -0.24),
            "HANG@5", List.of(0.0, 0.3, 0.21),
            "OUT_OF_MEMORY@5", List.of(1.0, 0.7, 0.21)),
        of(second, Dimension.SYMPTOM));
    all.addAll(second);
    Map<String, Double> net = new HashMap<>();
    for (ContributionDelta d : all) {
      if (d.dimension == Dimension.SYMPTOM) {
        net.merge(d.category + "@" + (d.time - T0) / DAY, d.expected, Double::sum);
      }
    }
    net.replaceAll((k, v) -> round(v));
    net.values().removeIf(v -> v == 0);
    assertEquals(Map.of("HANG@5", 0.3, "OUT_OF_MEMORY@5", 0.7), net);
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
