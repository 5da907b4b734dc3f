package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.functions.EmergenceDetector;
import dev.faultline.stats.records.AlertCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.junit.jupiter.api.Test;

/**
 * {@link EmergenceDetector}: a record for a closed day is re-tested at the very next watermark,
 * every time, also after an earlier re-test timer of the same framework fired (the detector notes
 * the re-test timer it registered per framework and watermark, and must not skip a new one). The
 * watermark stands mid-day, so no day-end timer can do the re-test instead.
 */
class EmergenceRetestTimerTest {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final String FW = "deepspeed";

  private static Long pendingFrom(DetectorHarness h) throws Exception {
    AbstractStreamOperator<?> operator = (AbstractStreamOperator<?>) h.harness.getOperator();
    operator.setCurrentKey(FW);
    ValueState<Long> state =
        operator
            .getKeyedStateBackend()
            .getPartitionedState(
                VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("retest-from", Types.LONG));
    return state.value();
  }

  @Test
  void eachLateRecordIsRetestedAtTheNextWatermark() throws Exception {
    long firstDay = Math.floorDiv(T0, DAY);
    try (DetectorHarness h = new DetectorHarness(AlertModel.defaults(), Duration.ofDays(400))) {
      List<AlertCount> history = new ArrayList<>();
      for (int d = 0; d < 60; d++) {
        history.addAll(
            DetectorHarness.issue(
                FW, "ds#" + d, (firstDay + d) * DAY + 3_600_000L, "HANG", "MEMORY", +1));
      }
      h.deliver(history, 0);
      long watermark = (firstDay + 70) * DAY + DAY / 2;
      h.harness.processWatermark(new Watermark(watermark));
      for (int late = 0; late < 3; late++) {
        h.harness.processElement(
            DetectorHarness.count(
                FW,
                "SYMPTOM|OUT_OF_MEMORY",
                (firstDay + 30 + late) * DAY + 60_000L,
                +1,
                "late#" + late),
            (firstDay + 30 + late) * DAY + 60_000L);
        assertNotNull(pendingFrom(h), "a closed day's record marks its ends to re-test");
        watermark += 1;
        h.harness.processWatermark(new Watermark(watermark));
        assertNull(pendingFrom(h), "re-tested at the next watermark, late record " + late);
      }
    }
  }
}
