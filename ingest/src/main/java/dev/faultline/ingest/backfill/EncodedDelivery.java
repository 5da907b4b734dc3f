package dev.faultline.ingest.backfill;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Writes a {@link Delivery}'s Avro single-object encoding (the bytes {@link AvroCodec#deliveries()}
 * writes) from its fields, the payload given as UTF-8 bytes in two pieces, so a payload never
 * becomes a {@code String} on its way to Kafka. The field order is the schema's ({@code
 * delivery.avsc}); {@code GhArchiveSpliceTest} checks it against the codec.
 */
final class EncodedDelivery {
  /** The single-object header: marker and the writer schema's fingerprint. */
  private static final byte[] HEADER = header();

  private EncodedDelivery() {}

  private static byte[] header() {
    Delivery prototype =
        Delivery.newBuilder()
            .setDeliveryId("")
            .setEvent("")
            .setReceivedAt(Instant.EPOCH)
            .setSource(DeliverySource.GH_ARCHIVE)
            .setPayloadJson("")
            .build();
    // Marker (2 bytes) and CRC-64-AVRO fingerprint (8 bytes), then the record.
    return Arrays.copyOf(AvroCodec.deliveries().encode(prototype), 10);
  }

  /** One delivery's fields; the payload is {@code head[headFrom, headTo)} then {@code tail}. */
  record Fields(
      String deliveryId,
      String event,
      String action,
      String repository,
      Instant receivedAt,
      DeliverySource source) {}

  static byte[] encode(Fields f, byte[] head, int headFrom, int headTo, byte[] tail) {
    byte[] id = utf8(f.deliveryId());
    byte[] event = utf8(f.event());
    byte[] action = utf8(f.action());
    byte[] repository = utf8(f.repository());
    long millis = f.receivedAt().toEpochMilli();
    int payloadLength = headTo - headFrom + tail.length;
    int size =
        HEADER.length
            + stringSize(id)
            + stringSize(event)
            + optionalSize(action)
            + optionalSize(repository)
            + varLongSize(zigZag(millis))
            + varLongSize(zigZag(f.source().ordinal()))
            + varLongSize(zigZag(payloadLength))
            + payloadLength;
    Writer out = new Writer(new byte[size]);
    out.bytes(HEADER, 0, HEADER.length);
    out.string(id);
    out.string(event);
    out.optional(action);
    out.optional(repository);
    out.varLong(millis);
    out.varLong(f.source().ordinal());
    out.varLong(payloadLength);
    out.bytes(head, headFrom, headTo - headFrom);
    out.bytes(tail, 0, tail.length);
    return out.buffer;
  }

  private static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  private static long zigZag(long n) {
    return (n << 1) ^ (n >> 63);
  }

  private static int varLongSize(long zigZagged) {
    int size = 1;
    while ((zigZagged & ~0x7FL) != 0) {
      zigZagged >>>= 7;
      size++;
    }
    return size;
  }

  private static int stringSize(byte[] s) {
    return varLongSize(zigZag(s.length)) + s.length;
  }

  /** A {@code ["null", "string"]} union: the branch's index, then the string. */
  private static int optionalSize(byte[] s) {
    return s == null ? 1 : 1 + stringSize(s);
  }

  /** Avro's binary encoding into an array of the exact size. */
  private static final class Writer {
    private final byte[] buffer;
    private int position;

    Writer(byte[] buffer) {
      this.buffer = buffer;
    }

    void bytes(byte[] b, int from, int length) {
      System.arraycopy(b, from, buffer, position, length);
      position += length;
    }

    /** A long (and an int, an enum's index, a union's branch, a length): zig-zag, base 128. */
    void varLong(long n) {
      long v = zigZag(n);
      while ((v & ~0x7FL) != 0) {
        buffer[position++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buffer[position++] = (byte) v;
    }

    void string(byte[] s) {
      varLong(s.length);
      bytes(s, 0, s.length);
    }

    void optional(byte[] s) {
      if (s == null) {
        varLong(0);
      } else {
        varLong(1);
        string(s);
      }
    }
  }
}
