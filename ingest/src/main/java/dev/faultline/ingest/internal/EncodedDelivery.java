package dev.faultline.ingest.internal;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.avro.io.BinaryData;

/**
 * Writes a {@link Delivery}'s Avro single-object encoding (the bytes {@link AvroCodec#deliveries()}
 * writes) from its fields with Avro's own binary encoding, the payload given as UTF-8 bytes in two
 * pieces, so a payload never becomes a {@code String} on its way to Kafka. The field order is the
 * schema's ({@code delivery.avsc}); {@code GhArchiveSpliceTest} (the backfill's GH Archive reader)
 * and {@code WebhookDecisionsTest} (the receiver) check it against the codec.
 */
public final class EncodedDelivery {
  /** The single-object header: marker and the writer schema's fingerprint. */
  private static final byte[] HEADER = header();

  /** The longest Avro varint of an {@code int} and of a {@code long}. */
  private static final int MAX_VARINT = 5;

  private static final int MAX_VARLONG = 10;

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
  public record Fields(
      String deliveryId,
      String event,
      String action,
      String repository,
      Instant receivedAt,
      DeliverySource source) {}

  public static byte[] encode(Fields f, byte[] head, int headFrom, int headTo, byte[] tail) {
    return encode(f, head, headFrom, headTo, tail, tail.length);
  }

  /**
   * As {@link #encode(Fields, byte[], int, int, byte[])} with the tail {@code tail[0, tailLength)}.
   * The value is written into one array of its exact size: the envelope's fields first (Avro's own
   * varint encoding, {@link BinaryData}), then the payload's pieces, each copied once.
   */
  public static byte[] encode(
      Fields f, byte[] head, int headFrom, int headTo, byte[] tail, int tailLength) {
    int payloadLength = headTo - headFrom + tailLength;
    byte[] deliveryId = utf8(f.deliveryId());
    byte[] event = utf8(f.event());
    byte[] action = f.action() == null ? null : utf8(f.action());
    byte[] repository = f.repository() == null ? null : utf8(f.repository());
    byte[] fields =
        new byte
            [HEADER.length
                + 7 * MAX_VARINT
                + 2 * MAX_VARLONG
                + deliveryId.length
                + event.length
                + length(action)
                + length(repository)];
    System.arraycopy(HEADER, 0, fields, 0, HEADER.length);
    int n = HEADER.length;
    n = string(fields, n, deliveryId);
    n = string(fields, n, event);
    n = optional(fields, n, action);
    n = optional(fields, n, repository);
    n += BinaryData.encodeLong(f.receivedAt().toEpochMilli(), fields, n);
    n += BinaryData.encodeInt(f.source().ordinal(), fields, n);
    // A string is its length and its UTF-8 bytes: the payload's two pieces, as they are.
    n += BinaryData.encodeLong(payloadLength, fields, n);
    byte[] value = Arrays.copyOf(fields, n + payloadLength);
    System.arraycopy(head, headFrom, value, n, headTo - headFrom);
    System.arraycopy(tail, 0, value, n + headTo - headFrom, tailLength);
    return value;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static int length(byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
  }

  /** A string at {@code at}: its length, then its bytes; returns the position after it. */
  private static int string(byte[] out, int at, byte[] utf8) {
    int n = at + BinaryData.encodeInt(utf8.length, out, at);
    System.arraycopy(utf8, 0, out, n, utf8.length);
    return n + utf8.length;
  }

  /** A {@code ["null", "string"]} union: the branch's index, then the string. */
  private static int optional(byte[] out, int at, byte[] utf8) {
    if (utf8 == null) {
      return at + BinaryData.encodeInt(0, out, at);
    }
    return string(out, at + BinaryData.encodeInt(1, out, at), utf8);
  }
}
