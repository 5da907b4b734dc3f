package dev.faultline.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.embedded.testing.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

class EmbeddedServersIT {
  @TempDir Path dir;

  @Test
  void kafkaKeepsRecordsAcrossRestartOnSameLogDir() throws Exception {
    String topic = "t-" + UUID.randomUUID();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      kafka.createTopics(1, List.of(topic));
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  kafka.bootstrapServers(),
                  ProducerConfig.ACKS_CONFIG,
                  "all"),
              new StringSerializer(),
              new StringSerializer())) {
        producer.send(new ProducerRecord<>(topic, "k", "v")).get();
      }
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      kafka.createTopics(1, List.of(topic));
      assertEquals(List.of("v"), readAll(kafka, topic, 1));
    }
  }

  @Test
  void neo4jKeepsNodesAcrossRestartAndAuthenticates() throws Exception {
    Path store = dir.resolve("neo4j");
    try (EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(store, 0, 0, "first-password");
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", "first-password"))) {
      driver.executableQuery("CREATE (:Probe {id: 1})").execute();
    }
    try (EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(store, 0, 0, "second-password");
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", "second-password"))) {
      long count =
          driver
              .executableQuery("MATCH (p:Probe) RETURN count(p) AS n")
              .execute()
              .records()
              .get(0)
              .get("n")
              .asLong();
      assertEquals(1, count);
    }
  }

  private static List<String> readAll(EmbeddedKafka kafka, String topic, int expected) {
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "g-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      List<String> values = new ArrayList<>();
      Poll.until(
          Duration.ofSeconds(30),
          () -> expected + " records in " + topic + ", read " + values,
          () -> {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
              values.add(r.value());
            }
            return values.size() >= expected;
          });
      return values;
    }
  }
}
