package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.detect.DailyTable;
import dev.faultline.stats.records.DailySeries;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DailySeriesTest {
  private static final long T = 20_000; // an epoch day

  /**
   * Random adds in any order of days (before the first, far after the last), retractions and drops,
   * checked day by day against a plain map of day to count.
   */
  @Test
  void countsAsAMapOfDaysWhateverTheOrderOfDaysAndDrops() {
    Random r = new Random(7);
    for (int trial = 0; trial < 200; trial++) {
      DailySeries s = new DailySeries();
      Map<Long, Integer> oracle = new TreeMap<>();
      long dropped = Long.MIN_VALUE;
      for (int step = 0; step < 60; step++) {
        if (r.nextInt(10) == 0 && !oracle.isEmpty()) {
          long horizon = T + r.nextInt(500) - 100;
          s.dropBefore(horizon);
          oracle.keySet().removeIf(d -> d < horizon);
          dropped = Math.max(dropped, horizon);
          continue;
        }
        long day = Math.max(dropped, T + r.nextInt(500) - 100);
        int delta = r.nextBoolean() ? 1 : -1;
        int after = s.add(day, delta);
        oracle.merge(day, delta, Integer::sum);
        assertEquals(oracle.get(day), after, "the day's count after the add");
      }
      for (long d = T - 150; d < T + 450; d++) {
        assertEquals(oracle.getOrDefault(d, 0), s.count(d), "day " + d + " of trial " + trial);
      }
      assertEquals(
          oracle.values().stream().allMatch(c -> c == 0), s.isEmpty(), "empty iff every day is 0");
    }
  }

  @Test
  void aDropForgetsTheDaysBeforeItAndKeepsTheRest() {
    DailySeries s = new DailySeries();
    s.add(T, 1);
    s.add(T + 3, 2);
    s.add(T + 40, 5);
    s.dropBefore(T + 3);
    assertEquals(0, s.count(T));
    assertEquals(2, s.count(T + 3));
    assertEquals(5, s.count(T + 40));
    assertFalse(s.isEmpty());
    s.dropBefore(T + 41);
    assertTrue(s.isEmpty());
    assertEquals(0, s.count(T + 40));
    s.dropBefore(T + 10_000); // past the array's end
    assertTrue(s.isEmpty());
  }

  /** A table built from series holds what one built day by day from the same counts holds. */
  @Test
  void aTableFromSeriesSumsAsATableFromDays() {
    Random r = new Random(11);
    Map<String, DailySeries> series = new TreeMap<>();
    long from = T;
    int days = 210;
    DailyTable.Builder byDay = DailyTable.builder(from, days);
    for (int i = 0; i < 3_000; i++) {
      String key = "SYMPTOM|C" + r.nextInt(12);
      long day = T - 30 + r.nextInt(days + 60); // some days outside the table's range
      int delta = r.nextInt(4) == 0 ? -1 : 1;
      series.computeIfAbsent(key, k -> new DailySeries()).add(day, delta);
      byDay.add(key, day, delta);
    }
    // a key with counts only outside the range, and one whose counts cancel out inside it
    series.computeIfAbsent("STAGE|OUTSIDE", k -> new DailySeries()).add(T - 5, 3);
    series.computeIfAbsent("STAGE|CANCELLED", k -> new DailySeries()).add(T + 5, 1);
    series.get("STAGE|CANCELLED").add(T + 5, -1);
    DailyTable.Builder bySeries = DailyTable.builder(from, days);
    series.forEach((k, s) -> bySeries.addSeries(k, s.firstDay, s.counts));
    DailyTable a = byDay.build();
    DailyTable b = bySeries.build();
    assertEquals(a.keys(), b.keys());
    assertFalse(b.keys().contains("STAGE|OUTSIDE"), "no count in the range, not a key");
    assertFalse(b.keys().contains("STAGE|CANCELLED"), "a count of 0 is no count");
    for (String k : Set.copyOf(a.keys())) {
      for (long d = from - 3; d < from + days + 3; d += 7) {
        for (long to = d; to < d + 40; to += 13) {
          assertEquals(a.sum(k, d, to), b.sum(k, d, to), k + " [" + d + ", " + to + ")");
        }
      }
    }
  }

  @Test
  void isAFlinkPojoAndSurvivesItsSerializer() throws Exception {
    TypeInformation<DailySeries> type = TypeInformation.of(DailySeries.class);
    assertInstanceOf(
        PojoTypeInfo.class, type, "DailySeries must serialise as a POJO, not via Kryo");
    TypeSerializer<DailySeries> serializer = type.createSerializer(new SerializerConfigImpl());
    DailySeries s = new DailySeries();
    s.add(T + 2, 4);
    s.add(T, -1);
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(s, out);
    DailySeries back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertEquals(s.firstDay, back.firstDay);
    assertArrayEquals(s.counts, back.counts);
    DailySeries copy = serializer.copy(s);
    copy.add(T + 2, 1);
    assertEquals(4, s.count(T + 2), "a copy is a copy (the heap backend's copy on write)");
  }
}
