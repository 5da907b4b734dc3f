package dev.faultline.ingest.internal;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Writes a {@link Delivery}'s Avro single-object encoding (the bytes {@link AvroCodec#deliveries()}
 * writes) from its fields with Avro's own binary encoder, the payload given as UTF-8 bytes in two
 * pieces, so a payload never becomes a {@code String} on its way to Kafka. The field order is the
 * schema's ({@code delivery.avsc}); {@code GhArchiveSpliceTest} (the backfill's GH Archive reader)
 * and {@code WebhookDecisionsTest} (the receiver) check it against the codec.
 */
public final class EncodedDelivery {
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
  public record Fields(
      String deliveryId,
      String event,
      String action,
      String repository,
      Instant receivedAt,
      DeliverySource source) {}

  public static byte[] encode(Fields f, byte[] head, int headFrom, int headTo, byte[] tail) {
    int payloadLength = headTo - headFrom + tail.length;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(HEADER.length + 160 + payloadLength);
    bytes.writeBytes(HEADER);
    BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
    try {
      out.writeString(f.deliveryId());
      out.writeString(f.event());
      optional(out, f.action());
      optional(out, f.repository());
      out.writeLong(f.receivedAt().toEpochMilli());
      out.writeEnum(f.source().ordinal());
      // A string is its length and its UTF-8 bytes: the payload's two pieces, as they are.
      out.writeLong(payloadLength);
      out.writeFixed(head, headFrom, headTo - headFrom);
      out.writeFixed(tail);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  /** A {@code ["null", "string"]} union: the branch's index, then the string. */
  private static void optional(BinaryEncoder out, String s) throws IOException {
    if (s == null) {
      out.writeIndex(0);
    } else {
      out.writeIndex(1);
      out.writeString(s);
    }
  }
}
