package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.records.DailyExamples;
import dev.faultline.stats.records.DailyExamplesSerializer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DailyExamplesTest {
  private static final long T = 20_000; // an epoch day

  private static String[] ids(Random r) {
    String[] a = new String[r.nextInt(4)];
    for (int i = 0; i < a.length; i++) {
      a[i] = "o/r#" + r.nextInt(1_000);
    }
    return a;
  }

  /**
   * Random sets in any order of days (before the first, far after the last), clears and drops,
   * checked day by day against a plain map of day to ids.
   */
  @Test
  void holdsWhatAMapOfDaysHoldsWhateverTheOrderOfDaysAndDrops() {
    Random r = new Random(13);
    for (int trial = 0; trial < 200; trial++) {
      DailyExamples x = new DailyExamples();
      Map<Long, String[]> oracle = new TreeMap<>();
      long dropped = Long.MIN_VALUE;
      for (int step = 0; step < 60; step++) {
        if (r.nextInt(10) == 0 && !oracle.isEmpty()) {
          long horizon = T + r.nextInt(500) - 100;
          x.dropBefore(horizon);
          oracle.keySet().removeIf(d -> d < horizon);
          dropped = Math.max(dropped, horizon);
          continue;
        }
        long day = Math.max(dropped, T + r.nextInt(500) - 100);
        String[] a = ids(r);
        x.set(day, a);
        if (a.length == 0) {
          oracle.remove(day);
        } else {
          oracle.put(day, a);
        }
      }
      for (long d = T - 150; d < T + 450; d++) {
        assertArrayEquals(
            oracle.getOrDefault(d, new String[0]), x.at(d), "day " + d + " of trial " + trial);
      }
      assertEquals(oracle.isEmpty(), x.isEmpty(), "empty iff no day has an id");
    }
  }

  @Test
  void aDropForgetsTheDaysBeforeItAndAnEmptySetForgetsTheDay() {
    DailyExamples x = new DailyExamples();
    x.set(T + 3, new String[] {"a#1"});
    x.set(T, new String[] {"a#2", "a#3"});
    x.set(T + 40, new String[] {"a#4"});
    x.dropBefore(T + 3);
    assertArrayEquals(new String[0], x.at(T));
    assertArrayEquals(new String[] {"a#1"}, x.at(T + 3));
    x.set(T + 3, new String[0]);
    assertArrayEquals(new String[0], x.at(T + 3));
    assertArrayEquals(new String[] {"a#4"}, x.at(T + 40));
    x.dropBefore(T + 41);
    assertTrue(x.isEmpty());
    x.dropBefore(T + 10_000); // past the array's end
    assertTrue(x.isEmpty());
    assertArrayEquals(new String[0], x.at(T + 40));
  }

  @Test
  void isSerialisedByItsOwnSerializerAndSurvivesIt() throws Exception {
    TypeInformation<DailyExamples> type = TypeInformation.of(DailyExamples.class);
    TypeSerializer<DailyExamples> serializer = type.createSerializer(new SerializerConfigImpl());
    assertInstanceOf(
        DailyExamplesSerializer.class,
        serializer,
        "DailyExamples must serialise with its own serializer, not as a POJO or via Kryo");
    DailyExamples x = new DailyExamples();
    x.set(T + 2, new String[] {"o/r#1", "o/r#2"});
    x.set(T, new String[] {"o/r#3"}); // days between hold no ids (nulls in the array)
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(x, out);
    DailyExamples back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    for (long d = T - 1; d < T + 20; d++) {
      assertArrayEquals(x.at(d), back.at(d), "day " + d);
    }
    DailyExamples copy = serializer.copy(x);
    copy.set(T + 2, new String[] {"o/r#9"});
    copy.set(T, new String[0]);
    assertArrayEquals(
        new String[] {"o/r#1", "o/r#2"},
        x.at(T + 2),
        "a copy is a copy (the heap backend's copy on write)");
    assertArrayEquals(new String[] {"o/r#3"}, x.at(T));
  }

  /** The POJO serializer of earlier builds, for the values and snapshots it wrote. */
  static TypeSerializer<DailyExamples> pojoSerializer() throws Exception {
    return new PojoTypeInfo<>(
            DailyExamples.class,
            List.of(
                new PojoField(DailyExamples.class.getField("firstDay"), Types.LONG),
                new PojoField(
                    DailyExamples.class.getField("ids"),
                    Types.OBJECT_ARRAY(Types.OBJECT_ARRAY(Types.STRING)))))
        .createSerializer(new SerializerConfigImpl());
  }

  /**
   * Random values (drops, cleared days, non-ASCII ids, empty and null days) through the serializer,
   * its copy and its stream-to-stream copy hold what they held, day by day, as they do through the
   * POJO serializer it replaced; a value the POJO serializer wrote, read by it and written by the
   * new one, comes back the same (the migration a restore of an earlier build's state does).
   */
  @Test
  void holdsWhatThePojoSerializerHeldOnRandomValues() throws Exception {
    TypeSerializer<DailyExamples> pojo = pojoSerializer();
    TypeSerializer<DailyExamples> own = DailyExamplesSerializer.INSTANCE;
    Random r = new Random(29);
    for (int trial = 0; trial < 300; trial++) {
      DailyExamples x = new DailyExamples();
      for (int step = 0; step < r.nextInt(40); step++) {
        if (r.nextInt(12) == 0) {
          x.dropBefore(T + r.nextInt(300) - 50);
        } else {
          String[] a = ids(r);
          if (r.nextInt(5) == 0 && a.length > 0) {
            a[0] = "ü/é#" + r.nextInt(99) + "\u0000ß";
          }
          x.set(T + r.nextInt(300) - 50, a);
        }
      }
      if (r.nextInt(10) == 0 && x.ids.length > 0) {
        x.ids[r.nextInt(x.ids.length)] = new String[0]; // an empty day, kept as empty
      }
      DailyExamples viaOwn = roundTrip(own, x);
      DailyExamples viaPojo = roundTrip(pojo, x);
      DailyExamples migrated = roundTrip(own, roundTrip(pojo, x));
      DataOutputSerializer once = new DataOutputSerializer(64);
      own.serialize(x, once);
      DataOutputSerializer twice = new DataOutputSerializer(64);
      own.copy(new DataInputDeserializer(once.getCopyOfBuffer()), twice);
      DailyExamples viaStreamCopy =
          own.deserialize(new DataInputDeserializer(twice.getCopyOfBuffer()));
      DailyExamples copied = own.copy(x);
      for (long d = T - 60; d < T + 400; d++) {
        String at = "day " + d + " of trial " + trial;
        assertArrayEquals(x.at(d), viaOwn.at(d), at);
        assertArrayEquals(viaPojo.at(d), viaOwn.at(d), at);
        assertArrayEquals(x.at(d), migrated.at(d), at);
        assertArrayEquals(x.at(d), viaStreamCopy.at(d), at);
        assertArrayEquals(x.at(d), copied.at(d), at);
      }
      assertEquals(x.isEmpty(), viaOwn.isEmpty(), "trial " + trial);
      assertEquals(x.firstDay, viaOwn.firstDay, "trial " + trial);
    }
  }

  /** A restore of state the POJO serializer wrote migrates it instead of failing. */
  @Test
  void takesThePojoSerializersStateAsMigratable() throws Exception {
    TypeSerializerSnapshot<DailyExamples> old = pojoSerializer().snapshotConfiguration();
    assertTrue(
        DailyExamplesSerializer.INSTANCE
            .snapshotConfiguration()
            .resolveSchemaCompatibility(old)
            .isCompatibleAfterMigration());
    assertTrue(
        DailyExamplesSerializer.INSTANCE
            .snapshotConfiguration()
            .resolveSchemaCompatibility(DailyExamplesSerializer.INSTANCE.snapshotConfiguration())
            .isCompatibleAsIs());
  }

  private static DailyExamples roundTrip(TypeSerializer<DailyExamples> s, DailyExamples x)
      throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(64);
    s.serialize(x, out);
    return s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
  }
}
