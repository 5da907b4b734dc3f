package dev.faultline.stats.records;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Nullable strings for the job's own serializers: a tag byte, then modified UTF-8 ({@link
 * DataOutput#writeUTF}, one bulk write on Flink's in-memory buffers) or, past what {@code writeUTF}
 * takes, a length and UTF-8 bytes.
 */
final class RecordStrings {
  /** Longest string (in chars) sure to fit {@code writeUTF}'s 65,535 bytes. */
  private static final int SHORT_STRING = 65_535 / 3;

  private static final byte NULL = 0;
  private static final byte UTF = 1;
  private static final byte LONG_UTF8 = 2;

  private RecordStrings() {}

  static void write(String s, DataOutput out) throws IOException {
    if (s == null) {
      out.writeByte(NULL);
    } else if (s.length() <= SHORT_STRING) {
      out.writeByte(UTF);
      out.writeUTF(s);
    } else {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeByte(LONG_UTF8);
      out.writeInt(b.length);
      out.write(b);
    }
  }

  static String read(DataInput in) throws IOException {
    byte tag = in.readByte();
    if (tag == NULL) {
      return null;
    }
    if (tag == UTF) {
      return in.readUTF();
    }
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Copies one string as {@link #write} wrote it, without decoding it. */
  static void copy(DataInput in, DataOutput out) throws IOException {
    byte tag = in.readByte();
    out.writeByte(tag);
    if (tag == NULL) {
      return;
    }
    int n = tag == UTF ? in.readUnsignedShort() : in.readInt();
    if (tag == UTF) {
      out.writeShort(n);
    } else {
      out.writeInt(n);
    }
    byte[] b = new byte[n];
    in.readFully(b);
    out.write(b);
  }
}
