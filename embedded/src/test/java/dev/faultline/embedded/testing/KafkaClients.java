package dev.faultline.embedded.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The tests' Kafka clients: a producer that waits for every replica, and consumers that read a
 * topic from its start in a group of their own. Published in embedded's test-jar (only this
 * package).
 */
public final class KafkaClients {
  /** What to do with each record read; it may decode and throw. */
  @FunctionalInterface
  public interface RecordHandler<K, V> {
    void accept(ConsumerRecord<K, V> record) throws Exception;
  }

  private KafkaClients() {}

  /** A producer on {@code bootstrap} with {@code acks=all}. */
  public static <K, V> KafkaProducer<K, V> producer(
      String bootstrap, Serializer<K> keys, Serializer<V> values) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
        keys,
        values);
  }

  /** A consumer on {@code bootstrap} with {@code settings} (no group unless they name one). */
  public static <K, V> KafkaConsumer<K, V> consumer(
      String bootstrap,
      Map<String, Object> settings,
      Deserializer<K> keys,
      Deserializer<V> values) {
    Map<String, Object> all = new HashMap<>(settings);
    all.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return new KafkaConsumer<>(all, keys, values);
  }

  /**
   * A consumer in a new group {@code groupPrefix + UUID} that starts at the earliest offset, with
   * {@code settings} on top.
   */
  public static <K, V> KafkaConsumer<K, V> fromStart(
      String bootstrap,
      String groupPrefix,
      Map<String, Object> settings,
      Deserializer<K> keys,
      Deserializer<V> values) {
    Map<String, Object> all = new HashMap<>(settings);
    all.put(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + UUID.randomUUID());
    all.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return consumer(bootstrap, all, keys, values);
  }

  /**
   * Subscribes {@code consumer} to {@code topic} and polls it, handing every record to {@code
   * each}, until {@code done} holds; fails with {@code what} after {@code timeout}.
   */
  public static <K, V> void readUntil(
      KafkaConsumer<K, V> consumer,
      String topic,
      Duration timeout,
      Supplier<String> what,
      RecordHandler<K, V> each,
      Poll.Condition done) {
    consumer.subscribe(List.of(topic));
    Poll.until(
        timeout,
        what,
        () -> {
          for (ConsumerRecord<K, V> r : consumer.poll(Duration.ofMillis(200))) {
            each.accept(r);
          }
          return done.holds();
        });
  }
}
