package dev.faultline.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.embedded.testing.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
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
          KafkaClients.producer(
              kafka.bootstrapServers(), new StringSerializer(), new StringSerializer())) {
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
        KafkaClients.fromStart(
            kafka.bootstrapServers(),
            "g-",
            Map.of(),
            new StringDeserializer(),
            new StringDeserializer())) {
      List<String> values = new ArrayList<>();
      KafkaClients.readUntil(
          consumer,
          topic,
          Duration.ofSeconds(30),
          () -> expected + " records in " + topic + ", read " + values,
          r -> values.add(r.value()),
          () -> values.size() >= expected);
      return values;
    }
  }
}
