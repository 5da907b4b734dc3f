package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.IssueHistorySerializer;
import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link IssueHistorySerializer} against Flink's POJO array serializer it replaced: the POJO
 * serializer's bytes are the oracle of "the same value, field by field" (every field, nulls
 * included).
 */
class IssueHistorySerializerTest {
  private static final IssueHistorySerializer OWN = IssueHistorySerializer.INSTANCE;

  /** The serializer earlier builds wrote the history with. */
  static TypeSerializer<ClassifiedEvent[]> pojoSerializer() {
    return Types.OBJECT_ARRAY(TypeInformation.of(ClassifiedEvent.class))
        .createSerializer(new SerializerConfigImpl());
  }

  /**
   * A random string for round trips: null, empty, non-ASCII with NUL, past 64 KB, or short ASCII.
   */
  static String string(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> null;
      case 1 -> "";
      case 2 -> "ü/é#" + r.nextInt(99) + "\u0000ß\uD83D\uDE00";
      case 3 -> "x".repeat(30_000 + r.nextInt(10)) + "é"; // past writeUTF's 64 KB
      default -> "o/r#" + r.nextInt(10_000);
    };
  }

  private static double[] doubles(Random r) {
    if (r.nextInt(4) == 0) {
      return null;
    }
    double[] p = new double[r.nextInt(6)];
    for (int k = 0; k < p.length; k++) {
      p[k] = r.nextInt(10) == 0 ? Double.NaN : r.nextDouble();
    }
    return p;
  }

  static ClassifiedEvent randomEvent(Random r) {
    ClassifiedEvent e = new ClassifiedEvent();
    e.id = string(r);
    e.framework = string(r);
    e.frameworkVersion = string(r);
    e.state = string(r);
    e.createdAt = r.nextLong();
    e.updatedAt = r.nextLong();
    if (r.nextInt(10) == 0) {
      e.categories = null;
    } else {
      e.categories = new String[r.nextInt(9)];
      for (int k = 0; k < e.categories.length; k++) {
        e.categories[k] = string(r);
      }
    }
    if (r.nextInt(10) == 0) {
      e.probabilities = null;
    } else {
      e.probabilities = new double[r.nextInt(9)][];
      for (int k = 0; k < e.probabilities.length; k++) {
        e.probabilities[k] = doubles(r);
      }
    }
    e.bug = r.nextInt(5) == 0 ? 1.0 : r.nextDouble();
    return e;
  }

  static ClassifiedEvent[] randomHistory(Random r) {
    ClassifiedEvent[] h = new ClassifiedEvent[r.nextInt(6)];
    for (int i = 0; i < h.length; i++) {
      h[i] = r.nextInt(15) == 0 ? null : randomEvent(r);
    }
    return h;
  }

  private static byte[] bytes(TypeSerializer<ClassifiedEvent[]> s, ClassifiedEvent[] h)
      throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(256);
    s.serialize(h, out);
    return out.getCopyOfBuffer();
  }

  private static ClassifiedEvent[] read(TypeSerializer<ClassifiedEvent[]> s, byte[] b)
      throws Exception {
    DataInputDeserializer in = new DataInputDeserializer(b);
    ClassifiedEvent[] h = s.deserialize(in);
    assertEquals(0, in.available(), "bytes left unread");
    return h;
  }

  /**
   * 500 random histories (null events, null and empty strings, non-ASCII and long strings, null
   * arrays and rows, NaN) read back, copied, stream-copied and migrated from the POJO serializer's
   * bytes, each equal to the original by the POJO serializer's bytes.
   */
  @Test
  void randomHistoriesRoundTripCopyAndMigrateFieldByField() throws Exception {
    TypeSerializer<ClassifiedEvent[]> pojo = pojoSerializer();
    Random r = new Random(41);
    for (int trial = 0; trial < 500; trial++) {
      ClassifiedEvent[] h = randomHistory(r);
      byte[] expected = bytes(pojo, h);
      byte[] own = bytes(OWN, h);
      assertArrayEquals(expected, bytes(pojo, read(OWN, own)), "round trip, trial " + trial);
      assertArrayEquals(expected, bytes(pojo, OWN.copy(h)), "copy, trial " + trial);
      DataOutputSerializer copied = new DataOutputSerializer(64);
      OWN.copy(new DataInputDeserializer(own), copied);
      assertArrayEquals(own, copied.getCopyOfBuffer(), "stream copy, trial " + trial);
      // Migration: what the backend does with an earlier build's state.
      ClassifiedEvent[] old = read(pojo, expected);
      assertArrayEquals(expected, bytes(pojo, read(OWN, bytes(OWN, old))), "migrated " + trial);
    }
  }

  @Test
  void aCopySharesNoMutableArrayWithItsOriginal() throws Exception {
    ClassifiedEvent[] h = {randomEvent(new Random(3)), randomEvent(new Random(5))};
    h[0].categories = new String[] {"HANG", null};
    h[0].probabilities = new double[][] {{0.25, 0.75}, null};
    byte[] before = bytes(pojoSerializer(), h);
    ClassifiedEvent[] c = OWN.copy(h);
    assertNotSame(h, c);
    assertNotSame(h[0], c[0]);
    c[0].categories[0] = "OUT_OF_MEMORY";
    c[0].probabilities[0][0] = 0.5;
    c[1] = null;
    assertArrayEquals(before, bytes(pojoSerializer(), h));
  }

  @Test
  void takesThePojoArraySerializersSnapshotAsMigratableAndItsOwnAsIs() {
    assertMigratesFromAndKeeps(OWN, pojoSerializer());
  }

  /**
   * {@code own}'s snapshot takes {@code old}'s (the POJO serializer of earlier builds) as
   * migratable and its own as compatible as is, and refuses another type's (a string array's).
   */
  static <T> void assertMigratesFromAndKeeps(TypeSerializer<T> own, TypeSerializer<T> old) {
    assertTrue(
        own.snapshotConfiguration()
            .resolveSchemaCompatibility(old.snapshotConfiguration())
            .isCompatibleAfterMigration());
    assertTrue(
        own.snapshotConfiguration()
            .resolveSchemaCompatibility(own.snapshotConfiguration())
            .isCompatibleAsIs());
    TypeSerializerSnapshot<String[]> strings =
        Types.OBJECT_ARRAY(Types.STRING)
            .createSerializer(new SerializerConfigImpl())
            .snapshotConfiguration();
    @SuppressWarnings({"unchecked", "rawtypes"})
    TypeSerializerSnapshot<T> other = (TypeSerializerSnapshot) strings;
    assertFalse(
        own.snapshotConfiguration().resolveSchemaCompatibility(other).isCompatibleAfterMigration());
  }
}
