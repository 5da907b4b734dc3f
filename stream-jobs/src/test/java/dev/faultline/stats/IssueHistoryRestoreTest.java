package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static dev.faultline.stats.Fixtures.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.functions.IssueContributionFunction;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ContributionDelta;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The per-issue history ({@link IssueContributionFunction#HISTORY}, under its TTL) written by an
 * earlier build's POJO array serializer restores on the heap backend into the operator of this
 * build, which then emits exactly what an operator that never restarted emits; what it checkpoints
 * restores again.
 */
class IssueHistoryRestoreTest {
  private static final Duration TTL = Duration.ofDays(730);

  @Test
  void historyThePojoSerializerWroteRestoresAndCheckpointsAgain() throws Exception {
    ClassifiedEvent opened =
        event("ds/r#7", "deepspeed", T0, T0, "HANG", "CONCURRENCY_ERROR", "COMMUNICATION");
    opened.frameworkVersion = "0.14.2";
    opened.probabilities[Dimension.SYMPTOM.ordinal()] =
        new double[Dimension.SYMPTOM.distributionCodes().size()];
    opened.probabilities[Dimension.SYMPTOM.ordinal()][0] = 1.0;
    ClassifiedEvent changed = Fixtures.copy(opened);
    changed.updatedAt = T0 + 3 * DAY;
    changed.category(Dimension.STAGE, "MEMORY");
    ClassifiedEvent again = Fixtures.copy(changed);
    again.updatedAt = T0 + 5 * DAY;
    again.category(Dimension.SYMPTOM, "OUT_OF_MEMORY");

    // The reference: one operator that never restarted.
    List<String> expectedChanged;
    List<String> expectedAgain;
    try (var h = current()) {
      h.open();
      h.processElement(Fixtures.copy(opened), opened.updatedAt);
      h.getOutput().clear();
      h.processElement(Fixtures.copy(changed), changed.updatedAt);
      expectedChanged = describe(h.extractOutputValues());
      h.getOutput().clear();
      h.processElement(Fixtures.copy(again), again.updatedAt);
      expectedAgain = describe(h.extractOutputValues());
    }
    assertFalse(expectedChanged.isEmpty());
    assertFalse(expectedAgain.isEmpty());

    OperatorSubtaskState old;
    try (var h = earlierBuild()) {
      h.open();
      h.processElement(Fixtures.copy(opened), opened.updatedAt);
      old = h.snapshot(0, 0);
    }
    OperatorSubtaskState migrated;
    try (var h = current()) {
      h.initializeState(old);
      h.open();
      h.processElement(Fixtures.copy(changed), changed.updatedAt);
      assertEquals(expectedChanged, describe(h.extractOutputValues()));
      migrated = h.snapshot(1, 1);
    }
    try (var h = current()) {
      h.initializeState(migrated);
      h.open();
      h.processElement(Fixtures.copy(again), again.updatedAt);
      assertEquals(expectedAgain, describe(h.extractOutputValues()));
    }
  }

  private static List<String> describe(List<ContributionDelta> deltas) {
    return deltas.stream().map(ContributionDelta::toString).toList();
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedEvent, ContributionDelta>
      current() throws Exception {
    return new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new IssueContributionFunction(TTL)), e -> e.id, Types.STRING);
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, ClassifiedEvent, ContributionDelta>
      earlierBuild() throws Exception {
    return new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new EarlierBuild()), e -> e.id, Types.STRING);
  }

  /** The history state as earlier builds declared it: POJO array serializer, the same TTL. */
  private static final class EarlierBuild
      extends KeyedProcessFunction<String, ClassifiedEvent, ContributionDelta> {
    private transient ValueState<ClassifiedEvent[]> history;

    @Override
    public void open(OpenContext openContext) {
      ValueStateDescriptor<ClassifiedEvent[]> d =
          new ValueStateDescriptor<>(
              IssueContributionFunction.HISTORY, IssueHistorySerializerTest.pojoSerializer());
      d.enableTimeToLive(
          StateTtlConfig.newBuilder(TTL)
              .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
              .build());
      history = getRuntimeContext().getState(d);
    }

    @Override
    public void processElement(ClassifiedEvent event, Context ctx, Collector<ContributionDelta> out)
        throws Exception {
      history.update(IssueContributions.fold(history.value(), event).history());
    }
  }
}
