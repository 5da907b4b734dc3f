package dev.faultline.jobs.sink;

import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.IssueRow;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Batching, idempotent Neo4j sink for issue rows: flushed on size, on time and on every checkpoint (so a completed
 * checkpoint means the rows before it are in the graph: at-least-once, made exactly-once in effect by idempotent
 * MERGE writes). Rows Neo4j rejects for their content go to the dead-letter topic; unavailability is retried.
 */
public final class Neo4jIssueSink implements Sink<IssueRow> {
  private final GraphConfig graph;
  private final SinkOptions options;
  private final Properties deadLetterKafka;
  private final String deadLetterTopic;

  /**
   * @param deadLetterKafka producer properties (bootstrap servers, security) for dead-lettering rows
   */
  public Neo4jIssueSink(GraphConfig graph, SinkOptions options, Properties deadLetterKafka, String deadLetterTopic) {
    this.graph = graph;
    this.options = options;
    this.deadLetterKafka = deadLetterKafka;
    this.deadLetterTopic = deadLetterTopic;
  }

  @Override
  public SinkWriter<IssueRow> createWriter(WriterInitContext context) {
    return new Neo4jIssueSinkWriter(
        graph, options, new KafkaDeadLetters(deadLetterKafka, deadLetterTopic), context.getProcessingTimeService());
  }
}
