package dev.faultline.ingest;

import dev.faultline.embedded.testing.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic from the beginning, for assertions. */
final class TopicReader {
  private TopicReader() {}

  /** Every record now in {@code topic}. */
  static List<ConsumerRecord<String, byte[]>> readAll(String bootstrapServers, String topic) {
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(20)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(20));
      List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
      Poll.until(
          Duration.ofSeconds(30),
          () -> "reading " + topic + " to its end " + end,
          () -> {
            if (partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
              return true;
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            return false;
          });
      return records;
    }
  }

  /** Waits until the topic holds at least {@code count} records, then returns them all. */
  static List<ConsumerRecord<String, byte[]>> awaitRecords(
      String bootstrapServers, String topic, int count, Duration timeout, Supplier<String> state) {
    return Poll.until(
        timeout,
        () -> readAll(bootstrapServers, topic),
        records -> records.size() >= count,
        records ->
            count + " records in " + topic + ", found " + records.size() + "; " + state.get());
  }
}
