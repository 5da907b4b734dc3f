package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;

/**
 * Writes the members the GH Archive reader adds after a payload's own, as UTF-8 JSON: {@code
 * ,"name":value…}, strings escaped as Jackson escapes them.
 */
final class JsonAppender {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
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
      out.write(',');
    }
    comma = true;
    return string(name).raw(':');
  }

  /** A JSON string. */
  JsonAppender string(String value) {
    out.write('"');
    out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(value));
    out.write('"');
    return this;
  }

  /** JSON text as it is. */
  JsonAppender raw(String json) {
    out.writeBytes(json.getBytes(UTF_8));
    return this;
  }

  JsonAppender raw(char c) {
    out.write(c);
    return this;
  }

  JsonAppender raw(JsonSlice value) {
    out.write(value.bytes(), value.from(), value.to() - value.from());
    return this;
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }
}
