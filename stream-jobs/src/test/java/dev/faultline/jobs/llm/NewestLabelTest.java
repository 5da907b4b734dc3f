package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.Provenance;
import dev.faultline.jobs.functions.NewestLabel;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.schemas.taxonomy.Phase;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Where offline labels and upgrades meet, in Flink's operator test harness. */
class NewestLabelTest {
  private KeyedOneInputStreamOperatorTestHarness<String, ClassifiedIssueEvent, ClassifiedIssueEvent>
      harness;

  @BeforeEach
  void open() throws Exception {
    harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new NewestLabel()), e -> e.issue.id, Types.STRING);
    harness.open();
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  private static ClassifiedIssueEvent event(String id, long version, String source) {
    return OfflineEvents.event(
        id,
        "t",
        "b",
        version,
        source.startsWith("llm:")
            ? Provenance.llm(source.substring("llm:".length()), "p1")
            : Provenance.learned("learned-2"),
        Phase.TRAINING,
        List.of());
  }

  private List<String> out() {
    return harness.extractOutputValues().stream()
        .map(e -> e.stateVersion + " " + OfflineEvents.row(e).labelSource())
        .toList();
  }

  @Test
  void anUpgradeFollowsItsStateButNeverOvertakesANewerState() throws Exception {
    harness.processElement(event("a#1", 10, "model"), 0);
    harness.processElement(event("a#1", 10, "llm:m"), 0); // the answer for state 10
    harness.processElement(
        event("a#1", 10, "model"), 0); // a replayed offline label of state 10: dropped
    harness.processElement(event("a#1", 20, "model"), 0); // the issue changes
    harness.processElement(event("a#1", 10, "llm:m"), 0); // a late answer for state 10: dropped
    harness.processElement(event("a#1", 20, "llm:m"), 0);
    harness.processElement(event("b#2", 5, "model"), 0); // another issue has its own order
    assertEquals(List.of("10 model", "10 llm:m", "20 model", "20 llm:m", "5 model"), out());
    assertEquals(2, harness.numKeyedStateEntries());
    assertEquals(0, harness.numEventTimeTimers());
    assertEquals(0, harness.numProcessingTimeTimers());
  }

  /** An event of state {@code version} after {@code changes} changes of the issue's state. */
  private static ClassifiedIssueEvent event(String id, long version, long changes, String source) {
    ClassifiedIssueEvent e = event(id, version, source);
    e.stateChanges = changes;
    return e;
  }

  @Test
  void aLateFactsStateOfTheSameVersionIsNewerAndAnOlderStatesLateUpgradeDoesNotOvertakeIt()
      throws Exception {
    harness.processElement(event("a#1", 10, 3, "model"), 0); // state 10 after 3 changes
    harness.processElement(event("a#1", 10, 3, "llm:m"), 0); // its answer
    // a fix-link older than the newest comment: a new state, version still 10
    harness.processElement(event("a#1", 10, 4, "model"), 0);
    harness.processElement(event("a#1", 10, 3, "llm:m"), 0); // the older answer again: dropped
    harness.processElement(event("a#1", 10, 4, "llm:m"), 0);
    harness.processElement(event("a#1", 10, 3, "llm:m"), 0); // ... after the newer one: dropped
    harness.processElement(event("a#1", 10, 4, "model"), 0); // a replayed offline row: dropped
    harness.processElement(event("a#1", 11, 2, "model"), 0); // a newer version (another job)
    assertEquals(
        List.of("10/3 model", "10/3 llm:m", "10/4 model", "10/4 llm:m", "11/2 model"),
        harness.extractOutputValues().stream()
            .map(
                e ->
                    e.stateVersion
                        + "/"
                        + e.stateChanges
                        + " "
                        + OfflineEvents.row(e).labelSource())
            .toList());
  }

  @Test
  void forgetsAnIssueAfterTheStateTtl() throws Exception {
    harness.setStateTtlProcessingTime(0);
    harness.processElement(event("a#1", 10, "llm:m"), 0);
    harness.setStateTtlProcessingTime(java.time.Duration.ofDays(401).toMillis());
    harness.processElement(event("a#1", 10, "model"), 0); // the entry expired: passes again
    assertEquals(List.of("10 llm:m", "10 model"), out());
  }

  @Test
  void orderOfVersionsAndRanks() {
    assertTrue(NewestLabel.follows(2, 0, 1, 1));
    assertTrue(NewestLabel.follows(1, 1, 1, 0));
    assertTrue(NewestLabel.follows(1, 0, 1, 0), "ties pass");
    assertFalse(NewestLabel.follows(1, 0, 1, 1));
    assertFalse(NewestLabel.follows(1, 1, 2, 0));
    assertTrue(NewestLabel.follows(1, 2, 0, 1, 1, 1), "more changes, same version: newer");
    assertFalse(NewestLabel.follows(1, 1, 1, 1, 2, 0), "fewer changes: older, whatever the rank");
    assertTrue(NewestLabel.follows(2, 0, 0, 1, 5, 1), "a newer version, whatever the changes");
  }
}
