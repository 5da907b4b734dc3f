package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.stats.functions.EmergenceDetector;
import dev.faultline.stats.records.DailyExamples;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The detector's example-id state ({@link EmergenceDetector#DAY_EXAMPLES}) written by an earlier
 * build's POJO serializer restores on the heap backend under the serializer of this build, and what
 * that one then checkpoints restores again.
 */
class DailyExamplesRestoreTest {
  private static final long T = 20_000;

  @Test
  void stateThePojoSerializerWroteRestoresAndCheckpointsAgain() throws Exception {
    TypeSerializer<DailyExamples> pojo = DailyExamplesTest.pojoSerializer();
    TypeSerializer<DailyExamples> now =
        TypeInformation.of(DailyExamples.class).createSerializer(new SerializerConfigImpl());
    OperatorSubtaskState old;
    try (var h = harness(pojo)) {
      h.open();
      h.processElement("put", 0);
      old = h.snapshot(0, 0);
    }
    OperatorSubtaskState migrated;
    try (var h = harness(now)) {
      h.initializeState(old);
      h.open();
      h.processElement("get", 1);
      assertEquals(List.of("[o/r#1, o/r#2] [] [o/r#3]"), h.extractOutputValues());
      migrated = h.snapshot(1, 1);
    }
    try (var h = harness(now)) {
      h.initializeState(migrated);
      h.open();
      h.processElement("get", 2);
      assertEquals(List.of("[o/r#1, o/r#2] [] [o/r#3]"), h.extractOutputValues());
    }
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness(
      TypeSerializer<DailyExamples> serializer) throws Exception {
    return new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new Examples(serializer)), x -> "deepspeed", Types.STRING);
  }

  /** Puts a key's example ids, or reads them back, in the detector's state of that name. */
  private static final class Examples extends KeyedProcessFunction<String, String, String> {
    private final TypeSerializer<DailyExamples> serializer;
    private transient MapState<String, DailyExamples> state;

    Examples(TypeSerializer<DailyExamples> serializer) {
      this.serializer = serializer;
    }

    @Override
    public void open(OpenContext openContext) {
      state =
          getRuntimeContext()
              .getMapState(
                  new MapStateDescriptor<>(
                      EmergenceDetector.DAY_EXAMPLES, StringSerializer.INSTANCE, serializer));
    }

    @Override
    public void processElement(String command, Context ctx, Collector<String> out)
        throws Exception {
      if (command.equals("put")) {
        DailyExamples x = new DailyExamples();
        x.set(T + 2, new String[] {"o/r#3"});
        x.set(T, new String[] {"o/r#1", "o/r#2"});
        state.put("SYMPTOM:HANG", x);
      } else {
        DailyExamples x = state.get("SYMPTOM:HANG");
        out.collect(
            Arrays.toString(x.at(T))
                + " "
                + Arrays.toString(x.at(T + 1))
                + " "
                + Arrays.toString(x.at(T + 2)));
      }
    }
  }
}
