package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.Arrays;

/**
 * Writes the members the GH Archive reader adds after a payload's own, as UTF-8 JSON: {@code
 * ,"name":value…}, strings escaped as Jackson escapes them. One appender is written by one thread;
 * its bytes are {@code bytes()[0, length())}.
 */
final class JsonAppender {
  private byte[] out = new byte[512];
  private int length;
  private boolean comma;

  /**
   * @param afterMembers whether the object already has members (the first added needs a comma)
   */
  JsonAppender(boolean afterMembers) {
    this.comma = afterMembers;
  }

  /** Starts a member: {@code ,"name":}. */
  JsonAppender field(String name) {
    if (comma) {
      raw(',');
    }
    comma = true;
    return string(name).raw(':');
  }

  /** A JSON string. */
  JsonAppender string(String value) {
    raw('"');
    append(JsonStringEncoder.getInstance().quoteAsUTF8(value));
    return raw('"');
  }

  /** JSON text as it is. */
  JsonAppender raw(String json) {
    return append(json.getBytes(UTF_8));
  }

  JsonAppender raw(char c) {
    room(1);
    out[length++] = (byte) c;
    return this;
  }

  JsonAppender raw(JsonSlice value) {
    return append(value.bytes(), value.from(), value.to() - value.from());
  }

  private JsonAppender append(byte[] bytes) {
    return append(bytes, 0, bytes.length);
  }

  private JsonAppender append(byte[] bytes, int from, int n) {
    room(n);
    System.arraycopy(bytes, from, out, length, n);
    length += n;
    return this;
  }

  private void room(int n) {
    if (length + n > out.length) {
      out = Arrays.copyOf(out, Math.max(2 * out.length, length + n));
    }
  }

  /** The bytes written: the first {@link #length()} of this array (not a copy). */
  byte[] bytes() {
    return out;
  }

  int length() {
    return length;
  }
}
