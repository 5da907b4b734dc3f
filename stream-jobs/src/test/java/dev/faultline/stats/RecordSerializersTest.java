package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.AlertCountSerializer;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.CategoryStatSerializer;
import dev.faultline.stats.records.ComboObservation;
import dev.faultline.stats.records.ComboObservationSerializer;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.ContributionDeltaSerializer;
import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.DailyCountSerializer;
import dev.faultline.stats.records.ReleaseDelta;
import dev.faultline.stats.records.ReleaseDeltaSerializer;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The job's own serializers of the records that cross its keyed stages or are copied between its
 * chained operators ({@link ContributionDeltaSerializer}, {@link AlertCountSerializer}, {@link
 * DailyCountSerializer}, {@link ReleaseDeltaSerializer}, {@link ComboObservationSerializer}, {@link
 * CategoryStatSerializer}): random values, every public field (found by reflection, so a field
 * added later and not written fails here; arrays compared element by element) read back equal, by
 * the serializer, its copy (sharing no array) and its stream-to-stream copy; several records in one
 * stream.
 */
class RecordSerializersTest {
  private static final Dimension[] DIMS = Dimension.values();

  private static String string(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> null;
      case 1 -> "";
      case 2 -> "ü/é#" + r.nextInt(99) + "\u0000ß\uD83D\uDE00";
      case 3 -> "x".repeat(22_000 + r.nextInt(10)) + "é"; // past writeUTF's 64 KB
      default -> "o/r#" + r.nextInt(10_000);
    };
  }

  private static Dimension dimension(Random r) {
    return r.nextInt(6) == 0 ? null : DIMS[r.nextInt(DIMS.length)];
  }

  private static DailyCount dailyCount(Random r) {
    String[] examples = null;
    if (r.nextInt(5) > 0) {
      examples = new String[r.nextInt(6)];
      for (int i = 0; i < examples.length; i++) {
        examples[i] = string(r);
      }
    }
    DailyCount d =
        new DailyCount(string(r), dimension(r), string(r), r.nextLong(), r.nextLong(), examples);
    d.expected = r.nextInt(9) == 0 ? Double.NaN : r.nextGaussian();
    d.variance = r.nextDouble();
    return d;
  }

  private static ReleaseDelta releaseDelta(Random r) {
    return new ReleaseDelta(
        string(r), string(r), dimension(r), string(r), r.nextInt(), r.nextLong());
  }

  private static ComboObservation combo(Random r) {
    return new ComboObservation(
        string(r), dimension(r), string(r), string(r), r.nextLong(), string(r));
  }

  private static ContributionDelta delta(Random r) {
    ContributionDelta d =
        new ContributionDelta(
            string(r),
            dimension(r),
            string(r),
            r.nextLong(),
            r.nextInt(),
            string(r),
            r.nextInt(9) == 0 ? Double.NaN : r.nextGaussian(),
            r.nextDouble());
    return d;
  }

  private static AlertCount count(Random r) {
    AlertCount c = new AlertCount();
    c.framework = string(r);
    c.key = string(r);
    c.release = string(r);
    c.time = r.nextLong();
    c.delta = r.nextInt();
    c.issueId = string(r);
    return c;
  }

  private static <T> T orNull(Random r, T value) {
    return r.nextInt(4) == 0 ? null : value;
  }

  private static CategoryStat stat(Random r) {
    CategoryStat s = new CategoryStat();
    s.id = string(r);
    s.framework = string(r);
    s.dimension = dimension(r);
    s.category = string(r);
    s.window = string(r);
    s.windowStart = orNull(r, r.nextLong());
    s.windowEnd = orNull(r, r.nextLong());
    s.release = string(r);
    s.count = r.nextLong();
    s.expected = orNull(r, r.nextInt(9) == 0 ? Double.NaN : r.nextGaussian());
    s.variance = orNull(r, r.nextDouble());
    return s;
  }

  /** Every public instance field, by reflection: the oracle of "the same record". */
  private static List<Object> fields(Object o) throws Exception {
    List<Object> out = new ArrayList<>();
    for (Field f : o.getClass().getFields()) {
      if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        Object v = f.get(o);
        Object shown =
            v instanceof Double x
                ? Double.doubleToRawLongBits(x)
                : v instanceof Object[] a ? Arrays.asList(a) : v;
        out.add(f.getName() + "=" + shown);
      }
    }
    return out;
  }

  private static <T> void roundTrips(
      Class<T> type, TypeSerializer<T> own, Function<Random, T> random) throws Exception {
    assertSame(own, TypeInformation.of(type).createSerializer(new SerializerConfigImpl()));
    Random r = new Random(type.getName().hashCode());
    for (int trial = 0; trial < 300; trial++) {
      List<T> values = new ArrayList<>();
      DataOutputSerializer out = new DataOutputSerializer(64);
      for (int k = 0; k < 1 + r.nextInt(4); k++) {
        T v = random.apply(r);
        values.add(v);
        own.serialize(v, out);
      }
      byte[] bytes = out.getCopyOfBuffer();
      DataInputDeserializer in = new DataInputDeserializer(bytes);
      DataOutputSerializer copied = new DataOutputSerializer(64);
      DataInputDeserializer again = new DataInputDeserializer(bytes);
      for (T v : values) {
        assertEquals(fields(v), fields(own.deserialize(in)), "read back, trial " + trial);
        T c = own.copy(v);
        assertNotSame(v, c);
        assertEquals(fields(v), fields(c), "copy, trial " + trial);
        own.copy(again, copied);
      }
      assertEquals(0, in.available(), "bytes left unread, trial " + trial);
      assertArrayEquals(bytes, copied.getCopyOfBuffer(), "stream copy, trial " + trial);
    }
  }

  @Test
  void dailyCountsReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(DailyCount.class, DailyCountSerializer.INSTANCE, RecordSerializersTest::dailyCount);
  }

  @Test
  void aDailyCountsCopySharesNoExamplesArray() {
    DailyCount d = new DailyCount("f", Dimension.values()[0], "c", 1, 2, new String[] {"a", "b"});
    DailyCount c = DailyCountSerializer.INSTANCE.copy(d);
    assertNotSame(d.examples, c.examples);
    assertArrayEquals(d.examples, c.examples);
  }

  @Test
  void releaseDeltasReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(
        ReleaseDelta.class, ReleaseDeltaSerializer.INSTANCE, RecordSerializersTest::releaseDelta);
  }

  @Test
  void comboObservationsReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(
        ComboObservation.class, ComboObservationSerializer.INSTANCE, RecordSerializersTest::combo);
  }

  @Test
  void contributionDeltasReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(
        ContributionDelta.class,
        ContributionDeltaSerializer.INSTANCE,
        RecordSerializersTest::delta);
  }

  @Test
  void alertCountsReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(AlertCount.class, AlertCountSerializer.INSTANCE, RecordSerializersTest::count);
  }

  @Test
  void categoryStatsReadBackCopyAndStreamCopyFieldByField() throws Exception {
    roundTrips(CategoryStat.class, CategoryStatSerializer.INSTANCE, RecordSerializersTest::stat);
  }
}
