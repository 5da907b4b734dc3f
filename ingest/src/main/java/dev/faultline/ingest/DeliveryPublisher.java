package dev.faultline.ingest;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Hands a delivery over to durable storage (the raw delivery topic, or a spool on its way there).
 *
 * <p>The returned future completes normally only once the delivery is durable: acknowledged by
 * Kafka with {@code acks=all}, or fsynced to a spool that drains to Kafka. It completes
 * exceptionally when neither happened; the caller must then not acknowledge the delivery.
 */
public interface DeliveryPublisher extends AutoCloseable {

  /**
   * @param key the Kafka record key, {@link dev.faultline.schemas.DeliveryKey#of}
   * @param delivery the envelope; its {@code deliveryId} also travels as the {@code delivery-id}
   *     record header
   */
  CompletableFuture<Void> publish(String key, Delivery delivery);

  /**
   * Like {@link #publish}, the delivery given as its Avro single-object encoding ({@link
   * AvroCodec#deliveries()}) and its id: publishers that send bytes override it to send them as
   * they are; this default decodes them.
   */
  default CompletableFuture<Void> publishEncoded(String key, String deliveryId, byte[] value) {
    try {
      return publish(key, AvroCodec.deliveries().decode(value));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Like {@link #publish}, telling where the delivery went; publishers that can spool override it.
   */
  default CompletableFuture<Handoff> handOff(String key, Delivery delivery) {
    return publish(key, delivery).thenApply(v -> Handoff.ACKNOWLEDGED);
  }

  /**
   * Like {@link #handOff}, the delivery given as in {@link #publishEncoded}: publishers that send
   * or spool bytes override it to keep them as they are; this default decodes them.
   */
  default CompletableFuture<Handoff> handOffEncoded(String key, String deliveryId, byte[] value) {
    try {
      return handOff(key, AvroCodec.deliveries().decode(value));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  void close();
}
