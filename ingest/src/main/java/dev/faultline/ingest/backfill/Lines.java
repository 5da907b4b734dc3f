package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a UTF-8 stream as bytes, ended like {@link java.io.BufferedReader#readLine} ends
 * them ({@code \n}, {@code \r} or {@code \r\n}), so a line's text is decoded once, by the JSON
 * parser, and not into a {@code String} first. A byte {@code \n} or {@code \r} is never part of a
 * multi-byte UTF-8 character, so splitting on bytes splits where the characters would.
 */
final class Lines {
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
      int end = position;
      while (end < limit && buffer[end] != '\n' && buffer[end] != '\r') {
        end++;
      }
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
