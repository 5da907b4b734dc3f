package dev.faultline.jobs.common;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends dead letters from places that are not a Flink stream (a sink writer), synchronously,
 * acks=all.
 */
final class KafkaDeadLetters implements AutoCloseable {
  private final Properties props;
  private final String topic;
  private final AvroCodec<DeadLetter> codec = AvroCodec.deadLetters();
  private KafkaProducer<byte[], byte[]> producer;

  KafkaDeadLetters(Properties props, String topic) {
    this.props = props;
    this.topic = topic;
  }

  void send(Rejected rejected) throws InterruptedException {
    if (producer == null) {
      Properties p = new Properties();
      p.putAll(props);
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
      producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
    byte[] key = rejected.key == null ? null : rejected.key.getBytes(StandardCharsets.UTF_8);
    try {
      producer
          .send(
              new ProducerRecord<>(topic, key, codec.encode(DeadLetterSerializer.toAvro(rejected))))
          .get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Could not write to dead-letter topic " + topic + ": " + e.getCause().getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close();
    }
  }
}
