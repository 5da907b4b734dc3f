package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** The receiver's producer settings: durable, and one produce request at a time (group commit). */
class KafkaDeliveryPublisherTest {
  private static IngestConfig config(Map<String, String> producer) {
    return IngestConfig.builder()
        .secret("s")
        .bootstrapServers("127.0.0.1:9092")
        .producerProperties(producer)
        .build();
  }

  @Test
  void sendsOneProduceRequestAtATimeWithAcksAllFromAnIdempotentProducer() {
    Map<String, Object> props = KafkaDeliveryPublisher.producerProperties(config(Map.of()));

    // What arrives while a request is acknowledged goes out together in the next one: one append
    // (and one fsync on a broker that fsyncs) per group instead of one per few deliveries.
    assertEquals(1, props.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
    assertEquals("all", props.get(ProducerConfig.ACKS_CONFIG));
    assertEquals(true, props.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
  }

  @Test
  void anOperatorsProducerPropertyStillWins() {
    Map<String, Object> props =
        KafkaDeliveryPublisher.producerProperties(
            config(Map.of("max.in.flight.requests.per.connection", "5")));

    assertEquals("5", props.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
  }
}
