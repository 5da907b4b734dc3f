package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.records.StatKey;
import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class StatKeyTest {

  @Test
  void isAFlinkPojoAndSurvivesItsSerializer() throws Exception {
    assertInstanceOf(
        PojoTypeInfo.class, StatKey.TYPE, "StatKey must serialise as a POJO, not through Kryo");
    TypeSerializer<StatKey> serializer = StatKey.TYPE.createSerializer(new SerializerConfigImpl());
    for (StatKey k :
        new StatKey[] {
          StatKey.of("DeepSpeed", Dimension.SYMPTOM, "HANG"),
          StatKey.ofRelease("vLLM", "0.5.1", Dimension.STAGE, "MEMORY")
        }) {
      DataOutputSerializer out = new DataOutputSerializer(64);
      serializer.serialize(k, out);
      StatKey back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
      assertEquals(k, back);
      assertEquals(k.hashCode(), back.hashCode());
    }
  }

  @Test
  void hashIsTheSameInEveryJvm() {
    // the key group of a key comes from its hash: it must not depend on the enum's identity hash
    assertEquals(
        Objects.hash("DeepSpeed", null, "SYMPTOM", "HANG"),
        StatKey.of("DeepSpeed", Dimension.SYMPTOM, "HANG").hashCode());
    assertNotEquals(
        StatKey.of("DeepSpeed", Dimension.SYMPTOM, "HANG"),
        StatKey.ofRelease("DeepSpeed", "0.14", Dimension.SYMPTOM, "HANG"));
  }
}
