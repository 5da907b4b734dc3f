package dev.faultline.ingest;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes deliveries to the raw delivery topic: key {@code owner/repo#n}, value the Avro
 * single-object encoded {@link Delivery}, header {@code delivery-id}. The future completes when
 * Kafka acknowledged the record with {@code acks=all} from an idempotent producer.
 */
public final class KafkaDeliveryPublisher implements DeliveryPublisher {
  /** Record header carrying the delivery id, so consumers can dedupe without decoding the value. */
  public static final String DELIVERY_ID_HEADER = "delivery-id";

  private final Producer<String, byte[]> producer;
  private final String topic;
  private final Duration closeTimeout;
  private final AvroCodec<Delivery> codec = AvroCodec.deliveries();

  /**
   * @param producer owned from now on: {@link #close()} closes it
   */
  public KafkaDeliveryPublisher(
      Producer<String, byte[]> producer, String topic, Duration closeTimeout) {
    this.producer = producer;
    this.topic = topic;
    this.closeTimeout = closeTimeout;
  }

  /** A publisher with a producer configured from {@code config} ({@link #producerProperties}). */
  public static KafkaDeliveryPublisher create(IngestConfig config) {
    return new KafkaDeliveryPublisher(
        new KafkaProducer<>(
            producerProperties(config), new StringSerializer(), new ByteArraySerializer()),
        config.deliveryTopic(),
        config.handoffTimeout());
  }

  /**
   * Durable defaults ({@code acks=all}, idempotence) with timeouts bounded by the hand-off timeout,
   * so a record that gave up is never sent later behind the spool's back; then the configured extra
   * properties.
   */
  public static Map<String, Object> producerProperties(IngestConfig config) {
    long handoff = config.handoffTimeout().toMillis();
    long linger = 2;
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    // One produce request at a time: what arrives while one is acknowledged (appended and, on a
    // broker that fsyncs, fsynced) goes out together in the next, a group commit that grows with
    // the load. With 5 in flight, deliveries arriving one by one over HTTP left in requests of ~5
    // records each, every one its own append and fsync on the broker (which handles a connection's
    // requests one after another anyway).
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    props.put(ProducerConfig.LINGER_MS_CONFIG, linger);
    // A burst of deliveries to one partition travels as one batch (one request, one append and, on
    // a broker that fsyncs, one fsync), instead of 16 KB batches of one or two 12 KB payloads.
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    props.put(
        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
        (int) Math.min(Integer.MAX_VALUE, config.maxBodyBytes() + 1024 * 1024));
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) handoff);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, handoff - linger - 1));
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, handoff);
    props.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "faultline-ingest");
    props.putAll(config.producerProperties());
    return props;
  }

  @Override
  public CompletableFuture<Void> publish(String key, Delivery delivery) {
    return publishEncoded(key, delivery.getDeliveryId(), codec.encode(delivery));
  }

  /** Sends {@code value} as it is (the Avro single-object encoding of a delivery). */
  @Override
  public CompletableFuture<Void> publishEncoded(String key, String deliveryId, byte[] value) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      ProducerRecord<String, byte[]> record =
          new ProducerRecord<>(
              topic,
              null,
              key,
              value,
              List.of(
                  new RecordHeader(
                      DELIVERY_ID_HEADER, deliveryId.getBytes(StandardCharsets.UTF_8))));
      producer.send(
          record,
          (metadata, error) -> {
            if (error != null) {
              done.completeExceptionally(error);
            } else {
              done.complete(null);
            }
          });
    } catch (RuntimeException e) {
      // send() throws rather than calling back when metadata is unavailable within max.block.ms.
      done.completeExceptionally(e);
    }
    return done;
  }

  @Override
  public void close() {
    producer.close(closeTimeout);
  }
}
