package dev.faultline.stats.records;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Nullable strings for the job's own serializers: a tag byte, then modified UTF-8 ({@link
 * DataOutput#writeUTF}, one bulk write on Flink's in-memory buffers) or, past what {@code writeUTF}
 * takes, a length and UTF-8 bytes.
 *
 * <p>A string of up to {@link #ASCII_MAX_CHARS} chars, all 1 to 127, is written and read through a
 * per-thread scratch buffer in one pass (the same bytes as {@code writeUTF}; {@code
 * RecordStringsFormatTest} compares them with the earlier writer's): Flink's {@code writeUTF}
 * passes over the chars twice, its {@code readUTF} allocates a byte and a char array per string.
 *
 * <p>{@link #readShared} reads the few-valued fields (framework, category, alert key, release) to
 * one shared {@code String} per value, found by its encoded bytes in a small direct-mapped table:
 * no new string and no re-hash per record, and the keyed stages' hash-map and key comparisons meet
 * the same instance ({@code String.equals} returns at its identity check).
 */
final class RecordStrings {
  /** Longest string (in chars) sure to fit {@code writeUTF}'s 65,535 bytes. */
  private static final int SHORT_STRING = 65_535 / 3;

  private static final byte NULL = 0;
  private static final byte UTF = 1;
  private static final byte LONG_UTF8 = 2;

  /** Entries of the shared-string table (a power of 2). */
  static final int SHARED_SLOTS = 4096;

  /** Longest encoding (in bytes) looked up in the table; longer strings are read as usual. */
  static final int SHARED_MAX_BYTES = 128;

  /**
   * The shared strings by their bytes' hash. Races between threads are benign: an entry is
   * immutable (final fields) and a lost or replaced entry only costs a miss.
   */
  private static final Shared[] SHARED = new Shared[SHARED_SLOTS];

  /**
   * Longest string (in chars) that {@link #write} and {@link #read} try as ASCII through a scratch
   * buffer; longer ones take the generic modified UTF-8 path (same bytes either way).
   */
  static final int ASCII_MAX_CHARS = 1022;

  /** Per thread: {@link #readShared}'s look-up key, and the ASCII paths' length and bytes. */
  private static final ThreadLocal<byte[]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[ASCII_MAX_CHARS + 2]);

  private RecordStrings() {}

  /** One shared string and its modified UTF-8 bytes. */
  private static final class Shared {
    final byte[] bytes;
    final String value;

    Shared(byte[] bytes, String value) {
      this.bytes = bytes;
      this.value = value;
    }
  }

  static void write(String s, DataOutput out) throws IOException {
    if (s == null) {
      out.writeByte(NULL);
    } else if (s.length() <= SHORT_STRING) {
      out.writeByte(UTF);
      if (s.length() > ASCII_MAX_CHARS || !writeAscii(s, out)) {
        out.writeUTF(s);
      }
    } else {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeByte(LONG_UTF8);
      out.writeInt(b.length);
      out.write(b);
    }
  }

  /**
   * Writes {@code s} as {@code writeUTF} does (two length bytes, then one byte per char) if every
   * char is 1 to 127, in one pass and one bulk write; writes nothing and returns false otherwise.
   * Modified UTF-8 writes NUL as two bytes, so NUL is not on this path.
   */
  private static boolean writeAscii(String s, DataOutput out) throws IOException {
    int n = s.length();
    byte[] b = SCRATCH.get();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == 0 || c > 0x7F) {
        return false;
      }
      b[i + 2] = (byte) c;
    }
    b[0] = (byte) (n >>> 8);
    b[1] = (byte) n;
    out.write(b, 0, n + 2);
    return true;
  }

  static String read(DataInput in) throws IOException {
    byte tag = in.readByte();
    if (tag == NULL) {
      return null;
    }
    if (tag == UTF) {
      int n = in.readUnsignedShort();
      byte[] b = n > ASCII_MAX_CHARS + 2 ? new byte[n] : SCRATCH.get();
      in.readFully(b, 0, n);
      return decode(b, n);
    }
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * Reads what {@link #write} wrote, as {@link #read} does, but a short string comes out as the
   * instance shared by every earlier read of the same bytes (until another value takes its slot).
   * For fields with few values only: every distinct value passes through the table.
   */
  static String readShared(DataInput in) throws IOException {
    byte tag = in.readByte();
    if (tag == NULL) {
      return null;
    }
    if (tag != UTF) {
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    }
    int n = in.readUnsignedShort();
    if (n > SHARED_MAX_BYTES) {
      byte[] b = new byte[n];
      in.readFully(b);
      return decode(b, n);
    }
    byte[] b = SCRATCH.get();
    in.readFully(b, 0, n);
    int h = 0x811c9dc5;
    for (int i = 0; i < n; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    int slot = (h ^ (h >>> 16)) & (SHARED_SLOTS - 1);
    int other = slot ^ 1; // two slots per value: few values that hash alike evict each other
    Shared e = SHARED[slot];
    if (e != null && Arrays.equals(e.bytes, 0, e.bytes.length, b, 0, n)) {
      return e.value;
    }
    Shared f = SHARED[other];
    if (f != null && Arrays.equals(f.bytes, 0, f.bytes.length, b, 0, n)) {
      return f.value;
    }
    byte[] own = Arrays.copyOf(b, n);
    String value = decode(own, n);
    SHARED[e == null || f != null ? slot : other] = new Shared(own, value);
    return value;
  }

  /**
   * The string of {@code writeUTF}'s bytes (modified UTF-8, without the length): the first {@code
   * n} bytes of {@code utf}.
   */
  private static String decode(byte[] utf, int n) throws IOException {
    // Modified UTF-8 writes NUL as two bytes: bytes 1 to 127 are the chars themselves.
    boolean ascii = true;
    for (int i = 0; i < n; i++) {
      ascii &= utf[i] > 0;
    }
    if (ascii) {
      return new String(utf, 0, n, StandardCharsets.ISO_8859_1);
    }
    byte[] framed = new byte[n + 2];
    framed[0] = (byte) (n >>> 8);
    framed[1] = (byte) n;
    System.arraycopy(utf, 0, framed, 2, n);
    return DataInputStream.readUTF(new DataInputStream(new ByteArrayInputStream(framed)));
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
