package dev.faultline.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.KafkaClients;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;

/**
 * The servers the stream jobs' ITs run against: a real KRaft broker with the named topics (two
 * partitions each), a real Neo4j server with the product's schema (constraints on every MERGE key,
 * as {@code faultline migrate} and the local stack apply it), and a driver on it.
 */
public record PipelineStack(
    EmbeddedKafka kafka, EmbeddedNeo4j neo4j, Driver driver, String password)
    implements AutoCloseable {

  /** Starts the broker under {@code dir/kafka} and the graph under {@code dir/neo4j}. */
  public static PipelineStack start(Path dir, String password, Topic... topics) throws Exception {
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    kafka.createTopics(2, java.util.Arrays.stream(topics).map(Topic::topicName).toList());
    EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(dir.resolve("neo4j"), 0, 0, password);
    Driver driver = GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", password));
    new GraphSchema(driver, "neo4j").migrate();
    return new PipelineStack(kafka, neo4j, driver, password);
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  public GraphConfig graph() {
    return new GraphConfig(neo4j.boltUri().toString(), "neo4j", password, "neo4j");
  }

  /**
   * The issue pipeline's configuration on this stack: consumer group {@code group}, checkpoints
   * under {@code checkpoints}, small sink batches and one-second checkpoints, parallelism 2.
   */
  public JobConfig jobConfig(String group, Path checkpoints) {
    return JobConfig.live(
        new JobIo(
            KafkaSettings.of(kafka.bootstrapServers()),
            group,
            graph(),
            new SinkOptions(100, Duration.ofMillis(100), Duration.ofSeconds(1)),
            new JobIo.Checkpoints(Duration.ofSeconds(1), checkpoints.toUri().toString()),
            2));
  }

  /** {@code expression} over the issue {@code id} ({@code i}), or null (no issue, or null). */
  public Object issueValue(String id, String expression) {
    List<Record> records =
        driver
            .executableQuery("MATCH (i:Issue {id: $id}) RETURN " + expression + " AS v")
            .withParameters(Map.of("id", id))
            .execute()
            .records();
    return records.isEmpty() || records.get(0).get("v").isNull()
        ? null
        : records.get(0).get("v").asObject();
  }

  /** The one number {@code statement} returns with {@code $id} bound to {@code id}. */
  public long count(String statement, String id) {
    return driver
        .executableQuery(statement)
        .withParameters(Map.of("id", id))
        .execute()
        .records()
        .get(0)
        .get(0)
        .asLong();
  }

  public KafkaProducer<String, byte[]> producer() {
    return KafkaClients.producer(
        kafka.bootstrapServers(), new StringSerializer(), new ByteArraySerializer());
  }

  /**
   * Sends {@code d} to the delivery topic, keyed as the receiver keys it (by repository where the
   * payload is not JSON), and waits for the broker's acknowledgement.
   */
  public void send(Delivery d) {
    try (KafkaProducer<String, byte[]> producer = producer()) {
      String key;
      try {
        key = DeliveryKey.of(d.getEvent(), new ObjectMapper().readTree(d.getPayloadJson()));
      } catch (IOException notJson) {
        key = d.getRepository();
      }
      producer
          .send(
              new ProducerRecord<>(
                  Topic.DELIVERIES.topicName(), key, AvroCodec.deliveries().encode(d)))
          .get();
    } catch (Exception e) {
      throw new IllegalStateException("cannot send a delivery", e);
    }
  }

  @Override
  public void close() throws Exception {
    driver.close();
    neo4j.close();
    kafka.close();
  }
}
