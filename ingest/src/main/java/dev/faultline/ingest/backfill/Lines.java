package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The lines of a UTF-8 stream as bytes, ended like {@link java.io.BufferedReader#readLine} ends
 * them ({@code \n}, {@code \r} or {@code \r\n}), so a line's text is decoded once, by the JSON
 * parser, and not into a {@code String} first. A byte {@code \n} or {@code \r} is never part of a
 * multi-byte UTF-8 character, so splitting on bytes splits where the characters would.
 */
final class Lines {
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LOW_BITS = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LF_BYTES = LOW_BITS * '\n';
  private static final long CR_BYTES = LOW_BITS * '\r';

  private final InputStream in;
  private final byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private boolean skipLineFeed;

  Lines(InputStream in) {
    this.in = in;
  }

  /** The next line without its end, or null at the end of the stream. */
  byte[] next() throws IOException {
    byte[] partial = null;
    int partialLength = 0;
    while (true) {
      if (position == limit && !fill()) {
        return partial == null ? null : Arrays.copyOf(partial, partialLength);
      }
      if (skipLineFeed) {
        skipLineFeed = false;
        if (buffer[position] == '\n') {
          position++;
          continue;
        }
      }
      int end = lineEnd(buffer, position, limit);
      int n = end - position;
      if (partial == null && end < limit) {
        byte[] line = Arrays.copyOfRange(buffer, position, end);
        consumeEnd(end);
        return line;
      }
      if (partial == null) {
        partial = new byte[Math.max(2 * n, 1024)];
      } else if (partialLength + n > partial.length) {
        partial = Arrays.copyOf(partial, Math.max(2 * partial.length, partialLength + n));
      }
      System.arraycopy(buffer, position, partial, partialLength, n);
      partialLength += n;
      if (end < limit) {
        consumeEnd(end);
        return Arrays.copyOf(partial, partialLength);
      }
      position = end;
    }
  }

  /**
   * The index of the first {@code \n} or {@code \r} in {@code bytes[from, to)}, or {@code to}.
   * Eight bytes at a time: a byte equal to the sought one is a zero byte of the word xor'ed with
   * it, and {@code (x - 0x01…) & ~x & 0x80…} marks zero bytes, the lowest mark being the first zero
   * (a false mark only follows a true one, through the borrow); the line's bytes are read as
   * little-endian words so the lowest mark is the earliest byte.
   */
  static int lineEnd(byte[] bytes, int from, int to) {
    int i = from;
    for (; i <= to - Long.BYTES; i += Long.BYTES) {
      long word = (long) WORDS.get(bytes, i);
      long lf = word ^ LF_BYTES;
      long cr = word ^ CR_BYTES;
      long marks = (((lf - LOW_BITS) & ~lf) | ((cr - LOW_BITS) & ~cr)) & HIGH_BITS;
      if (marks != 0) {
        return i + (Long.numberOfTrailingZeros(marks) >>> 3);
      }
    }
    while (i < to && bytes[i] != '\n' && bytes[i] != '\r') {
      i++;
    }
    return i;
  }

  private void consumeEnd(int end) {
    skipLineFeed = buffer[end] == '\r';
    position = end + 1;
  }

  private boolean fill() throws IOException {
    int n = in.read(buffer);
    while (n == 0) {
      n = in.read(buffer);
    }
    if (n < 0) {
      return false;
    }
    position = 0;
    limit = n;
    return true;
  }

  /** As {@link String#isBlank()} of the line's text, without decoding an ASCII line. */
  static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b < 0) {
        return new String(line, UTF_8).isBlank();
      }
      if (!Character.isWhitespace(b)) {
        return false;
      }
    }
    return true;
  }
}
