package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.records.DayState;
import dev.faultline.stats.records.DayTable;
import dev.faultline.stats.records.DayTableSerializer;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DayTableTest {
  private static final long TTL = 1_000;

  private static DayState state(long count) {
    DayState s = new DayState();
    s.windowCount = count;
    return s;
  }

  @Test
  void keepsDaysInOrderWhateverOrderTheyArriveIn() {
    DayTable t = new DayTable();
    long[] days = {50, 10, 30, 20, 40, 30};
    for (long d : days) {
      t.put(d, state(d), 0, TTL);
    }
    assertArrayEquals(new long[] {10, 20, 30, 40, 50}, t.days, "one entry per day, ascending");
    for (long d : days) {
      assertEquals(d, t.get(d, 0, TTL).windowCount);
    }
    assertNull(t.get(25, 0, TTL));
    DayState replaced = state(7);
    t.put(30, replaced, 0, TTL);
    assertSame(replaced, t.get(30, 0, TTL));
  }

  @Test
  void aDayExpiresItsTtlAfterItsOwnLastWriteAsUnderFlinksTtl() {
    DayTable t = new DayTable();
    t.put(1, state(1), 0, TTL);
    t.put(2, state(2), 500, TTL);
    assertEquals(1, t.get(1, TTL - 1, TTL).windowCount, "alive just before its TTL");
    assertNull(t.get(1, TTL, TTL), "expired at its last write + TTL (Flink's rule)");
    assertEquals(2, t.get(2, TTL, TTL).windowCount, "a later write keeps its own day alive");
    t.put(1, state(3), 600, TTL); // a write refreshes it
    assertEquals(3, t.get(1, 1_500, TTL).windowCount);
    t.put(3, state(4), 1_550, TTL);
    assertArrayEquals(new long[] {1, 3}, t.days, "a write drops the days expired by then");
    assertFalse(t.isEmpty(1_599, TTL));
    assertTrue(t.isEmpty(2_550, TTL));
  }

  @Test
  void dirtyDaysAreKeptOnceAndTakenOnce() {
    DayTable t = new DayTable();
    t.markDirty(5);
    t.markDirty(3);
    t.markDirty(5);
    assertArrayEquals(new long[] {3, 5}, t.takeDirty());
    assertArrayEquals(new long[0], t.takeDirty());
  }

  @Test
  void serialisesWithItsOwnSerializerAndSurvivesIt() throws Exception {
    TypeInformation<DayTable> type = TypeInformation.of(DayTable.class);
    TypeSerializer<DayTable> serializer = type.createSerializer(new SerializerConfigImpl());
    assertInstanceOf(
        DayTableSerializer.class,
        serializer,
        "DayTable must serialise with its own serializer, not as a POJO or via Kryo");
    DayTable t = new DayTable();
    DayState s = state(4);
    s.windowExamples = new String[] {"ds#1", "ds#2"};
    t.put(86_400_000L, s, 9, TTL);
    t.markDirty(86_400_000L);
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(t, out);
    DayTable back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertArrayEquals(t.days, back.days);
    assertArrayEquals(t.writtenAt, back.writtenAt);
    assertArrayEquals(t.dirty, back.dirty);
    assertEquals(4, back.get(86_400_000L, 9, TTL).windowCount);
    assertArrayEquals(s.windowExamples, back.states[0].windowExamples);
  }

  /**
   * 300 random sequences of writes (days in any order, rewrites, processing time mostly rising,
   * sometimes stepping back, gaps past the TTL): after every write the table holds exactly the days
   * a full scan for expired days leaves, so skipping the scan while none can have expired drops
   * nothing late and nothing early.
   */
  @Test
  void aWriteDropsExactlyTheDaysExpiredByThenWhateverTheOrderOfWrites() {
    java.util.Random r = new java.util.Random(11);
    for (int trial = 0; trial < 300; trial++) {
      DayTable t = new DayTable();
      java.util.TreeMap<Long, Long> oracle = new java.util.TreeMap<>(); // day -> last write
      long now = r.nextInt(2_000);
      for (int step = 0; step < 200; step++) {
        now +=
            switch (r.nextInt(10)) {
              case 0 -> -r.nextInt(300); // a processing-time clock may step back
              case 1 -> TTL + r.nextInt(200);
              default -> r.nextInt(60);
            };
        long day = r.nextInt(40);
        long at = now;
        oracle.values().removeIf(w -> w <= at - TTL);
        oracle.put(day, now);
        t.put(day, state(day), now, TTL);
        long[] expected = oracle.keySet().stream().mapToLong(Long::longValue).toArray();
        assertArrayEquals(expected, t.days, "trial " + trial + ", step " + step);
        if (r.nextInt(20) == 0) {
          long later = now + r.nextInt((int) TTL * 2);
          boolean empty = oracle.values().stream().allMatch(w -> w <= later - TTL);
          assertEquals(empty, t.isEmpty(later, TTL), "trial " + trial + ", step " + step);
          oracle.values().removeIf(w -> w <= later - TTL);
          assertArrayEquals(
              oracle.keySet().stream().mapToLong(Long::longValue).toArray(),
              t.days,
              "after isEmpty, trial " + trial);
        }
      }
    }
  }
}
