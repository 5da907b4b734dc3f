package dev.faultline.ingest.backfill;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One historical event as a delivery, with its Kafka key, ready for the same topic as live
 * deliveries. Built either from a {@link Delivery} or, by the GH Archive reader, straight from its
 * Avro single-object encoding (the payload kept as UTF-8 bytes end to end); each form is derived
 * from the other only when asked for.
 */
public final class BackfillDelivery {
  private static final AvroCodec<Delivery> CODEC = AvroCodec.deliveries();

  private final String key;
  private final String deliveryId;
  private Delivery delivery;
  private byte[] value;

  public BackfillDelivery(String key, Delivery delivery) {
    this.key = key;
    this.deliveryId = delivery.getDeliveryId();
    this.delivery = delivery;
  }

  private BackfillDelivery(String key, String deliveryId, byte[] value) {
    this.key = key;
    this.deliveryId = deliveryId;
    this.value = value;
  }

  /** A delivery given as its Avro single-object encoding ({@link AvroCodec#deliveries()}). */
  static BackfillDelivery encoded(String key, String deliveryId, byte[] value) {
    return new BackfillDelivery(key, deliveryId, value);
  }

  /** The Kafka record key, {@link dev.faultline.schemas.DeliveryKey#of}. */
  public String key() {
    return key;
  }

  public String deliveryId() {
    return deliveryId;
  }

  /** The envelope (decoded from {@link #value()} on first use when built from bytes). */
  public synchronized Delivery delivery() {
    if (delivery == null) {
      try {
        delivery = CODEC.decode(value);
      } catch (IOException e) {
        throw new UncheckedIOException("Could not decode delivery " + deliveryId, e);
      }
    }
    return delivery;
  }

  /** The Kafka record value: the Avro single-object encoding of {@link #delivery()}. */
  public synchronized byte[] value() {
    if (value == null) {
      value = CODEC.encode(delivery);
    }
    return value;
  }

  @Override
  public String toString() {
    return "BackfillDelivery[key=" + key + ", deliveryId=" + deliveryId + "]";
  }
}
