package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.faultline.stats.records.DayState;
import dev.faultline.stats.records.DayTable;
import dev.faultline.stats.records.DayTableSerializer;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link DayTableSerializer} against Flink's POJO serializer it replaced: the POJO serializer's
 * bytes are the oracle of "the same value, field by field" (every field, nulls included).
 */
class DayTableSerializerTest {
  private static final DayTableSerializer OWN = DayTableSerializer.INSTANCE;

  /** The POJO serializer earlier builds wrote the rolling counter's tables with. */
  static TypeSerializer<DayTable> pojoSerializer() throws Exception {
    return new PojoTypeInfo<>(
            DayTable.class,
            List.of(
                new PojoField(
                    DayTable.class.getField("days"),
                    PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO),
                new PojoField(
                    DayTable.class.getField("writtenAt"),
                    PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO),
                new PojoField(
                    DayTable.class.getField("states"),
                    Types.OBJECT_ARRAY(TypeInformation.of(DayState.class))),
                new PojoField(
                    DayTable.class.getField("dirty"),
                    PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO)))
        .createSerializer(new SerializerConfigImpl());
  }

  private static String[] strings(Random r) {
    if (r.nextInt(8) == 0) {
      return null;
    }
    String[] a = new String[r.nextInt(5)];
    for (int i = 0; i < a.length; i++) {
      a[i] =
          r.nextInt(10) == 0 ? IssueHistorySerializerTest.string(r) : "ds/r#" + r.nextInt(100_000);
    }
    return a;
  }

  private static long[] longs(Random r) {
    if (r.nextInt(10) == 0) {
      return null;
    }
    long[] a = new long[r.nextInt(40)];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextLong();
    }
    return a;
  }

  private static double number(Random r) {
    return switch (r.nextInt(10)) {
      case 0 -> Double.NaN;
      case 1 -> -0.0;
      default -> r.nextGaussian() * 100;
    };
  }

  static DayState randomState(Random r) {
    DayState s = new DayState();
    s.windowCount = r.nextLong();
    s.lateCount = r.nextInt(7) - 3;
    s.pendingLate = r.nextLong();
    s.windowExpected = number(r);
    s.windowVariance = number(r);
    s.lateExpected = number(r);
    s.lateVariance = number(r);
    s.pendingLateExpected = number(r);
    s.pendingLateVariance = number(r);
    s.windowExamples = strings(r);
    s.lateExamples = strings(r);
    return s;
  }

  static DayTable randomTable(Random r) {
    DayTable t = new DayTable();
    t.days = longs(r);
    t.writtenAt = longs(r);
    t.dirty = longs(r);
    if (r.nextInt(10) == 0) {
      t.states = null;
    } else {
      t.states = new DayState[r.nextInt(40)];
      for (int i = 0; i < t.states.length; i++) {
        t.states[i] = r.nextInt(12) == 0 ? null : randomState(r);
      }
    }
    return t;
  }

  private static byte[] bytes(TypeSerializer<DayTable> s, DayTable t) throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(256);
    s.serialize(t, out);
    return out.getCopyOfBuffer();
  }

  private static DayTable read(TypeSerializer<DayTable> s, byte[] b) throws Exception {
    DataInputDeserializer in = new DataInputDeserializer(b);
    DayTable t = s.deserialize(in);
    assertEquals(0, in.available(), "bytes left unread");
    return t;
  }

  /**
   * 500 random tables (null arrays, null days, null and empty example ids, non-ASCII and long ids,
   * NaN and -0.0) read back, copied, stream-copied and migrated from the POJO serializer's bytes,
   * each equal to the original by the POJO serializer's bytes; several values in one stream read
   * back in order.
   */
  @Test
  void randomTablesRoundTripCopyAndMigrateFieldByField() throws Exception {
    TypeSerializer<DayTable> pojo = pojoSerializer();
    Random r = new Random(43);
    for (int trial = 0; trial < 500; trial++) {
      DayTable t = randomTable(r);
      byte[] expected = bytes(pojo, t);
      byte[] own = bytes(OWN, t);
      assertArrayEquals(expected, bytes(pojo, read(OWN, own)), "round trip, trial " + trial);
      assertArrayEquals(expected, bytes(pojo, OWN.copy(t)), "copy, trial " + trial);
      DataOutputSerializer copied = new DataOutputSerializer(64);
      OWN.copy(new DataInputDeserializer(own), copied);
      assertArrayEquals(own, copied.getCopyOfBuffer(), "stream copy, trial " + trial);
      // Migration: what the backend does with an earlier build's state.
      DayTable old = read(pojo, expected);
      assertArrayEquals(expected, bytes(pojo, read(OWN, bytes(OWN, old))), "migrated " + trial);
    }
    DayTable a = randomTable(r);
    DayTable b = randomTable(r);
    DataOutputSerializer out = new DataOutputSerializer(256);
    OWN.serialize(a, out);
    OWN.serialize(b, out);
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    assertArrayEquals(bytes(pojo, a), bytes(pojo, OWN.deserialize(in)));
    assertArrayEquals(bytes(pojo, b), bytes(pojo, OWN.deserialize(in)));
    assertEquals(0, in.available());
  }

  /** The rolling counter changes a table's arrays and its day states in place. */
  @Test
  void aCopySharesNoMutableArrayOrDayStateWithItsOriginal() throws Exception {
    DayTable t = new DayTable();
    t.put(86_400_000L, randomState(new Random(3)), 5, 1_000);
    t.put(2 * 86_400_000L, randomState(new Random(5)), 6, 1_000);
    t.states[0].windowExamples = new String[] {"ds#1", "ds#2"};
    t.states[0].lateExamples = new String[] {"ds#3"};
    t.markDirty(86_400_000L);
    byte[] before = bytes(pojoSerializer(), t);
    DayTable c = OWN.copy(t);
    assertNotSame(t.states[0], c.states[0]);
    c.days[0] = 7;
    c.writtenAt[0] = 7;
    c.dirty[0] = 7;
    c.states[1] = null;
    c.states[0].windowCount = 99;
    c.states[0].windowExamples[0] = "ds#9";
    c.states[0].lateExamples[0] = "ds#9";
    assertArrayEquals(before, bytes(pojoSerializer(), t));
  }

  @Test
  void takesThePojoSerializersSnapshotAsMigratableAndItsOwnAsIs() throws Exception {
    IssueHistorySerializerTest.assertMigratesFromAndKeeps(OWN, pojoSerializer());
  }
}
