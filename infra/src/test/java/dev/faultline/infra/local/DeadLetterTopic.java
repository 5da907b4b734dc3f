package dev.faultline.infra.local;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.DeadLetter;
import dev.faultline.schemas.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads the whole dead-letter topic of a stack, for drills that assert what was (not) poisoned. */
final class DeadLetterTopic {
  private DeadLetterTopic() {}

  /**
   * Every record in {@code faultline.deadletter} up to its end offsets now, as {@code stage key
   * delivery: reason} lines. Reads uncommitted records too: whatever was written counts.
   */
  static List<String> read(String bootstrapServers) throws Exception {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            "dead-letter-check-" + UUID.randomUUID(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    AvroCodec<DeadLetter> codec = AvroCodec.deadLetters();
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(Topic.DEAD_LETTER.topicName(), Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      Poll.until(
          Duration.ofSeconds(30),
          () -> "reading the dead-letter topic up to " + end,
          () -> {
            if (partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
              return true;
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
              DeadLetter d = codec.decode(r.value());
              out.add(
                  d.getStage()
                      + " "
                      + d.getKey()
                      + " delivery "
                      + d.getDeliveryId()
                      + ": "
                      + d.getReason());
            }
            return false;
          });
    }
    return out;
  }
}
