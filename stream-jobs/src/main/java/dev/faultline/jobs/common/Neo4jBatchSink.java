package dev.faultline.jobs.common;

import dev.faultline.graph.BatchWriter;
import dev.faultline.graph.GraphConfig;
import java.io.Serializable;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.neo4j.driver.Driver;

/**
 * Batching, idempotent Neo4j sink: flushed on size, on time and on every checkpoint (so a completed
 * checkpoint means the rows before it are in the graph: at-least-once, exactly-once in effect
 * through idempotent MERGE writes). Rows Neo4j rejects for their content go to the dead-letter
 * topic with the reason; while Neo4j is unavailable the sink retries with backoff and the job keeps
 * running.
 *
 * @param <R> the row type
 */
public final class Neo4jBatchSink<R> implements Sink<R> {
  /**
   * Creates the graph-model writer for the rows, given a driver: a serialisable constructor
   * reference.
   */
  public interface WriterFactory<R> extends Serializable {
    BatchWriter<R> create(Driver driver, String database);
  }

  private final String stage;
  private final GraphConfig graph;
  private final SinkOptions options;
  private final WriterFactory<R> writers;
  private final Properties deadLetterKafka;
  private final String deadLetterTopic;

  /**
   * @param stage names the sink in dead letters and logs, e.g. {@code issue-pipeline/neo4j-issues}
   * @param deadLetterKafka producer properties (bootstrap servers, security) for dead-lettering
   *     rows
   */
  public Neo4jBatchSink(
      String stage,
      GraphConfig graph,
      SinkOptions options,
      WriterFactory<R> writers,
      Properties deadLetterKafka,
      String deadLetterTopic) {
    this.stage = stage;
    this.graph = graph;
    this.options = options;
    this.writers = writers;
    this.deadLetterKafka = deadLetterKafka;
    this.deadLetterTopic = deadLetterTopic;
  }

  @Override
  public SinkWriter<R> createWriter(WriterInitContext context) {
    return new Neo4jBatchSinkWriter<>(
        stage,
        graph,
        options,
        writers,
        new KafkaDeadLetters(deadLetterKafka, deadLetterTopic),
        context.getProcessingTimeService());
  }
}
