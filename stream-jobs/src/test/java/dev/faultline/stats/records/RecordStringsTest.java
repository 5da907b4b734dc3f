package dev.faultline.stats.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordStrings#readShared} reads every string {@link RecordStrings#write} wrote as {@link
 * RecordStrings#read} does, whatever the table holds: more distinct values than slots (so values
 * share slots and replace each other), lengths on both sides of the table's limit, non-ASCII, NUL,
 * surrogate pairs, empty and null; and a value read again while in its slot is the same instance.
 */
class RecordStringsTest {
  private static String randomString(Random r) {
    int kind = r.nextInt(10);
    if (kind == 0) {
      return null;
    }
    if (kind == 1) {
      return "";
    }
    int length =
        kind == 2
            ? RecordStrings.SHARED_MAX_BYTES - 2 + r.nextInt(5) // around the limit
            : 1 + r.nextInt(40);
    StringBuilder b = new StringBuilder();
    while (b.length() < length) {
      switch (r.nextInt(12)) {
        case 0 -> b.append('é');
        case 1 -> b.append('\u0000');
        case 2 -> b.append("\uD83D\uDE00");
        case 3 -> b.append('\u4E2D');
        default -> b.append((char) ('a' + r.nextInt(4))); // few letters: many near-equal values
      }
    }
    return b.toString();
  }

  @Test
  void sharedReadsGiveBackWhatWasWrittenWhateverTheTableHolds() throws Exception {
    Random r = new Random(34);
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 4 * RecordStrings.SHARED_SLOTS; i++) {
      pool.add(randomString(r));
    }
    for (int round = 0; round < 20; round++) {
      DataOutputSerializer out = new DataOutputSerializer(1 << 16);
      List<String> written = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        String s = pool.get(r.nextInt(pool.size()));
        written.add(s);
        RecordStrings.write(s, out);
      }
      DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
      DataInputDeserializer plain = new DataInputDeserializer(out.getCopyOfBuffer());
      for (String s : written) {
        String shared = RecordStrings.readShared(in);
        assertEquals(s, shared);
        assertEquals(RecordStrings.read(plain), shared);
      }
      assertEquals(0, in.available());
    }
  }

  @Test
  void aShortValueReadAgainIsTheSameInstance() throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(256);
    for (String s : new String[] {"deepspeed", "SYMPTOM|HANG", "deepspeed", "SYMPTOM|HANG"}) {
      RecordStrings.write(s, out);
    }
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    String a = RecordStrings.readShared(in);
    String b = RecordStrings.readShared(in);
    assertSame(a, RecordStrings.readShared(in));
    assertSame(b, RecordStrings.readShared(in));
  }
}
