package dev.faultline.ingest.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Lines}: the word-at-a-time search for a line's end against a byte-by-byte one, and whole
 * streams split as {@link java.io.BufferedReader#readLine} splits them.
 */
class LinesTest {
  /** Bytes a line end could be confused with: neighbours of LF and CR, NUL, 0x01, high bytes. */
  private static final byte[] ALPHABET = {
    'a', '{', '"', ' ', 0, 1, 9, 11, 12, 14, (byte) 0x8a, (byte) 0x8d, (byte) 0xc3, (byte) 0xff
  };

  @Test
  void findsTheFirstLineFeedOrCarriageReturnAnywhereInAnyRange() {
    Random random = new Random(7);
    for (int trial = 0; trial < 20_000; trial++) {
      byte[] bytes = randomBytes(random, 1 + random.nextInt(40), random.nextInt(4));
      int from = random.nextInt(bytes.length + 1);
      int to = from + random.nextInt(bytes.length - from + 1);
      assertEquals(
          naiveLineEnd(bytes, from, to),
          Lines.lineEnd(bytes, from, to),
          () -> "range [" + from + ", " + to + ") of " + java.util.Arrays.toString(bytes));
    }
  }

  @Test
  void splitsAStreamAsReadLineWouldWhateverTheReadsAndBufferBoundaries() throws IOException {
    Random random = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      List<byte[]> expected = new ArrayList<>();
      int lines = 1 + random.nextInt(30);
      boolean afterCarriageReturn = false;
      for (int i = 0; i < lines; i++) {
        // Now and then a line longer than the 64 KiB buffer.
        int length = random.nextInt(10) == 0 ? 60_000 + random.nextInt(80_000) : random.nextInt(60);
        byte[] line = randomBytes(random, length, 0);
        expected.add(line);
        text.writeBytes(line);
        boolean last = i == lines - 1;
        // As readLine, an empty last line without its end is no line.
        if (!last || line.length == 0 || random.nextBoolean()) {
          // After a lone \r, an empty line's \n would make the two a \r\n: end it otherwise.
          String[] ends =
              afterCarriageReturn && line.length == 0
                  ? new String[] {"\r\n", "\r"}
                  : new String[] {"\n", "\r\n", "\r"};
          String end = ends[random.nextInt(ends.length)];
          text.writeBytes(end.getBytes(StandardCharsets.US_ASCII));
          afterCarriageReturn = end.equals("\r");
        }
      }
      List<byte[]> actual = toList(new Lines(dribble(text.toByteArray(), random)));
      assertEquals(expected.size(), actual.size(), "lines in trial " + trial);
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), "trial " + trial + ", line " + (i + 1));
      }
    }
  }

  private static List<byte[]> toList(Lines lines) throws IOException {
    List<byte[]> out = new ArrayList<>();
    byte[] line;
    while ((line = lines.next()) != null) {
      out.add(line);
    }
    return out;
  }

  private static byte[] randomBytes(Random random, int length, int lineEnds) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    for (int i = 0; i < lineEnds; i++) {
      bytes[random.nextInt(length)] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
    }
    return bytes;
  }

  private static int naiveLineEnd(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n' || bytes[i] == '\r') {
        return i;
      }
    }
    return to;
  }

  /** The bytes, read back in pieces of random sizes (as a gzip stream hands them out). */
  private static InputStream dribble(byte[] bytes, Random random) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + random.nextInt(70_000)));
      }
    };
  }
}
