package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static dev.faultline.stats.Fixtures.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.functions.IssueContributionFunction;
import dev.faultline.stats.keys.StatDimensions;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ContributionDelta;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-issue operator in Flink's test harness: elements and watermarks in, deltas and side
 * outputs out, state checked.
 */
class IssueContributionFunctionTest {
  private static final Duration TTL = Duration.ofDays(730);
  private KeyedOneInputStreamOperatorTestHarness<String, ClassifiedEvent, ContributionDelta>
      harness;

  @BeforeEach
  void open() throws Exception {
    harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new IssueContributionFunction(TTL)),
            e -> e.id,
            Types.STRING);
    harness.open();
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  @Test
  void emitsAdditionsThenRetractionAndAdditionKeepingOneHistoryPerIssueAndNoTimers()
      throws Exception {
    ClassifiedEvent opened =
        event("ds/r#1", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    opened.frameworkVersion = "0.14.2";
    harness.processElement(opened, opened.updatedAt);
    harness.processWatermark(new Watermark(T0));
    ClassifiedEvent changed = Fixtures.copy(opened);
    changed.updatedAt = T0 + 3 * DAY;
    changed.category(Dimension.STAGE, "MEMORY");
    harness.processElement(changed, changed.updatedAt);
    harness.processElement(Fixtures.copy(changed), changed.updatedAt); // redelivered
    harness.processWatermark(new Watermark(Long.MAX_VALUE));

    List<ContributionDelta> out = harness.extractOutputValues();
    assertEquals(StatDimensions.COUNTED.size() + 2, out.size());
    assertEquals("STAGE COMMUNICATION -1 @" + T0, describe(out.get(out.size() - 2)));
    assertEquals("STAGE MEMORY 1 @" + (T0 + 3 * DAY), describe(out.get(out.size() - 1)));
    assertEquals(
        StatDimensions.COUNTED.size() + 2,
        harness.getSideOutput(IssueContributionFunction.RELEASE_DELTAS).size());
    // Opening: three category × stage pairs; the stage change: three new pairs.
    assertEquals(6, harness.getSideOutput(IssueContributionFunction.COMBINATIONS).size());
    assertEquals(1, harness.numKeyedStateEntries());
    assertEquals(0, harness.numEventTimeTimers());
    assertEquals(0, harness.numProcessingTimeTimers());
  }

  @Test
  void forgetsAnIssueAfterTheStateTtl() throws Exception {
    ClassifiedEvent opened =
        event("ds/r#2", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    harness.setStateTtlProcessingTime(0);
    harness.processElement(opened, opened.updatedAt);
    ClassifiedEvent changed = Fixtures.copy(opened);
    changed.updatedAt = T0 + DAY;
    changed.category(Dimension.SYMPTOM, "OUT_OF_MEMORY");
    harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
    harness.processElement(changed, changed.updatedAt);
    List<ContributionDelta> out = harness.extractOutputValues();
    // After expiry the issue is new again: all additions, no retraction.
    assertTrue(out.stream().allMatch(d -> d.delta == 1), out.toString());
    assertEquals(2 * StatDimensions.COUNTED.size(), out.size());
  }

  private static String describe(ContributionDelta d) {
    return d.dimension + " " + d.category + " " + d.delta + " @" + d.time;
  }
}
