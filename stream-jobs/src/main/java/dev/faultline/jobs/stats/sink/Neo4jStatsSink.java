package dev.faultline.jobs.stats.sink;

import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.sink.SinkOptions;
import dev.faultline.jobs.stats.records.CategoryStat;
import dev.faultline.jobs.stats.records.StatAlert;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Batching Neo4j sink for statistics and alerts: rows wait in a buffer (newest per node id), flushed on size, on time
 * and on every checkpoint, so a completed checkpoint means everything before it is in the graph. Writes are MERGE on
 * constrained ids and replace whole values, so the at-least-once replay after a failure converges on the same graph.
 * While Neo4j is unavailable the writer retries with capped backoff (backpressure, not data loss).
 */
public final class Neo4jStatsSink<T> implements Sink<T> {
  private final GraphConfig graph;
  private final SinkOptions options;
  private final StatsGraphBatch<T> batch;

  public Neo4jStatsSink(GraphConfig graph, SinkOptions options, StatsGraphBatch<T> batch) {
    this.graph = graph;
    this.options = options;
    this.batch = batch;
  }

  public static Neo4jStatsSink<CategoryStat> counts(GraphConfig graph, SinkOptions options) {
    return new Neo4jStatsSink<>(graph, options, StatsGraphBatch.counts());
  }

  public static Neo4jStatsSink<StatAlert> alerts(GraphConfig graph, SinkOptions options) {
    return new Neo4jStatsSink<>(graph, options, StatsGraphBatch.alerts());
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    return new Neo4jStatsSinkWriter<>(graph, options, batch, context.getProcessingTimeService());
  }
}
