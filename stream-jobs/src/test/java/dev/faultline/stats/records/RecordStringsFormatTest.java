package dev.faultline.stats.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordStrings#write}'s ASCII path writes exactly the bytes of the writer before it (a tag,
 * then {@code writeUTF}, or past {@code writeUTF}'s limit a length and UTF-8), so state and records
 * written by earlier builds read back and new ones read in earlier builds; and {@link
 * RecordStrings#read} reads those bytes back, on Flink's in-memory buffers and on streams
 * (checkpoint and savepoint files): ASCII, NUL, Latin-1, other BMP chars, surrogate pairs, empty,
 * null, and lengths around the ASCII path's limit and past {@code writeUTF}'s.
 */
class RecordStringsFormatTest {
  /**
   * The writer as it was before the ASCII path (session 9), kept here as the format's reference.
   */
  private static void earlierWrite(String s, DataOutput out) throws IOException {
    if (s == null) {
      out.writeByte(0);
    } else if (s.length() <= 65_535 / 3) {
      out.writeByte(1);
      out.writeUTF(s);
    } else {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeByte(2);
      out.writeInt(b.length);
      out.write(b);
    }
  }

  /** The reader as it was before the ASCII path. */
  private static String earlierRead(DataInput in) throws IOException {
    byte tag = in.readByte();
    if (tag == 0) {
      return null;
    }
    if (tag == 1) {
      return in.readUTF();
    }
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static String randomString(Random r) {
    int kind = r.nextInt(12);
    if (kind == 0) {
      return null;
    }
    if (kind == 1) {
      return "";
    }
    int length =
        switch (kind) {
          case 2 -> RecordStrings.ASCII_MAX_CHARS - 3 + r.nextInt(7); // around the ASCII limit
          case 3 -> 65_535 / 3 - 2 + r.nextInt(5); // around writeUTF's limit
          case 4 -> 30_000 + r.nextInt(40_000); // long
          default -> 1 + r.nextInt(60);
        };
    // mostly ASCII strings (the fast path), some with one char of another kind anywhere
    int mix = r.nextInt(3) == 0 ? 6 : 0;
    StringBuilder b = new StringBuilder();
    while (b.length() < length) {
      int k = mix == 0 ? 9 : r.nextInt(20);
      switch (k) {
        case 0 -> b.append('\u0000');
        case 1 -> b.append((char) (0x80 + r.nextInt(0x80))); // Latin-1
        case 2 -> b.append((char) (0x100 + r.nextInt(0x700))); // two bytes in UTF-8
        case 3 -> b.append((char) (0x800 + r.nextInt(0xD000))); // three bytes, BMP
        case 4 -> b.appendCodePoint(0x10000 + r.nextInt(0xFFFFF)); // surrogate pair
        case 5 -> b.append('\u007F');
        default -> b.append((char) (1 + r.nextInt(127))); // ASCII, NUL excluded
      }
    }
    if (b.length() > length && b.length() > 1) {
      b.setLength(Character.isHighSurrogate(b.charAt(length - 1)) ? length - 1 : length);
    }
    return b.toString();
  }

  private static List<String> sample(long seed, int n) {
    Random r = new Random(seed);
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      strings.add(randomString(r));
    }
    for (char c : new char[] {'\u0000', '\u007F', '\u0080', '\u00FF', '\u0100', '\uFFFF'}) {
      strings.add(String.valueOf(c));
      strings.add("ascii" + c);
      strings.add(c + "ascii");
    }
    strings.add("\uD83D\uDE00");
    strings.add("x".repeat(RecordStrings.ASCII_MAX_CHARS));
    strings.add("x".repeat(RecordStrings.ASCII_MAX_CHARS + 1));
    strings.add("x".repeat(RecordStrings.ASCII_MAX_CHARS - 1) + "é");
    strings.add("é" + "x".repeat(RecordStrings.ASCII_MAX_CHARS - 1));
    return strings;
  }

  @Test
  void writesTheBytesOfTheEarlierWriterOnBuffersAndStreams() throws Exception {
    for (String s : sample(9, 3_000)) {
      DataOutputSerializer expected = new DataOutputSerializer(64);
      earlierWrite(s, expected);
      DataOutputSerializer actual = new DataOutputSerializer(64);
      RecordStrings.write(s, actual);
      assertArrayEquals(expected.getCopyOfBuffer(), actual.getCopyOfBuffer(), () -> describe(s));

      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      RecordStrings.write(s, new DataOutputViewStreamWrapper(stream));
      assertArrayEquals(expected.getCopyOfBuffer(), stream.toByteArray(), () -> describe(s));
    }
  }

  @Test
  void readsBackWhatEitherWriterWroteInOneStream() throws Exception {
    List<String> strings = sample(34, 3_000);
    DataOutputSerializer earlier = new DataOutputSerializer(1 << 16);
    DataOutputSerializer now = new DataOutputSerializer(1 << 16);
    for (String s : strings) {
      earlierWrite(s, earlier);
      RecordStrings.write(s, now);
    }
    byte[] bytes = earlier.getCopyOfBuffer();
    assertArrayEquals(bytes, now.getCopyOfBuffer());

    DataInputDeserializer buffer = new DataInputDeserializer(bytes);
    DataInputViewStreamWrapper stream =
        new DataInputViewStreamWrapper(new ByteArrayInputStream(bytes));
    DataInputDeserializer shared = new DataInputDeserializer(bytes);
    DataInputDeserializer byEarlierReader = new DataInputDeserializer(bytes);
    for (String s : strings) {
      assertEquals(s, RecordStrings.read(buffer), () -> describe(s));
      assertEquals(s, RecordStrings.read(stream), () -> describe(s));
      assertEquals(s, RecordStrings.readShared(shared), () -> describe(s));
      assertEquals(s, earlierRead(byEarlierReader), () -> describe(s));
    }
    assertEquals(0, buffer.available());
    assertEquals(0, shared.available());
    assertEquals(-1, stream.read());
  }

  private static String describe(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder("length " + s.length() + ", non-ASCII/NUL chars:");
    s.chars().filter(c -> c == 0 || c > 0x7F).limit(5).forEach(c -> b.append(' ').append(c));
    return b.toString();
  }
}
