package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.records.DailyExamples;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
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
  void isAFlinkPojoAndSurvivesItsSerializer() throws Exception {
    TypeInformation<DailyExamples> type = TypeInformation.of(DailyExamples.class);
    assertInstanceOf(
        PojoTypeInfo.class, type, "DailyExamples must serialise as a POJO, not via Kryo");
    TypeSerializer<DailyExamples> serializer = type.createSerializer(new SerializerConfigImpl());
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
}
