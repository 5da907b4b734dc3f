package dev.faultline.jobs.stats.sink;

import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.stats.StatsWriter;
import dev.faultline.jobs.sink.RowBuffer;
import dev.faultline.jobs.sink.SinkOptions;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.Neo4jException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

final class Neo4jStatsSinkWriter<T> implements SinkWriter<T> {
  private static final Logger LOG = LoggerFactory.getLogger(Neo4jStatsSinkWriter.class);

  private final SinkOptions options;
  private final StatsGraphBatch<T> batch;
  private final ProcessingTimeService timers;
  private final Driver driver;
  private final StatsWriter writer;
  private final RowBuffer<T> buffer;

  Neo4jStatsSinkWriter(GraphConfig graph, SinkOptions options, StatsGraphBatch<T> batch, ProcessingTimeService timers) {
    this.options = options;
    this.batch = batch;
    this.timers = timers;
    this.driver = GraphDatabase.driver(graph.uri(), AuthTokens.basic(graph.user(), graph.password()));
    this.writer = new StatsWriter(driver, graph.database());
    // Version 0 for all: ties go to the later arrival, and rows of one id arrive in the order they were computed.
    this.buffer = new RowBuffer<>(batch::key, row -> 0L);
    scheduleFlush();
  }

  private void scheduleFlush() {
    timers.registerTimer(
        timers.getCurrentProcessingTime() + options.flushInterval().toMillis(),
        time -> {
          flushBuffer();
          scheduleFlush();
        });
  }

  @Override
  public void write(T row, Context context) throws InterruptedException {
    buffer.add(row);
    if (buffer.size() >= options.batchSize()) {
      flushBuffer();
    }
  }

  /** Called on every checkpoint (and at end of input): the checkpoint completes only after the graph has the rows. */
  @Override
  public void flush(boolean endOfInput) throws InterruptedException {
    flushBuffer();
  }

  private void flushBuffer() throws InterruptedException {
    if (!buffer.isEmpty()) {
      writeRetrying(buffer.drain());
    }
  }

  /**
   * Retries with capped exponential backoff while Neo4j is unreachable or refuses for a transient reason. A {@link
   * ClientException} means our statement or data is wrong (e.g. a constraint is missing): retrying cannot help, so
   * the job fails and its restart strategy takes over.
   */
  private void writeRetrying(List<T> rows) throws InterruptedException {
    long backoff = 100;
    int attempt = 0;
    while (true) {
      try {
        batch.write(writer, rows);
        if (attempt > 0) {
          LOG.info("Neo4j statistics write succeeded after {} retries", attempt);
        }
        return;
      } catch (ClientException e) {
        throw e;
      } catch (Neo4jException e) {
        attempt++;
        LOG.warn("Neo4j unavailable ({}), retrying {} statistics rows in {} ms (attempt {})", e.getMessage(), rows.size(), backoff, attempt);
      }
      Thread.sleep(backoff);
      backoff = Math.min(backoff * 2, options.maxBackoff().toMillis());
    }
  }

  @Override
  public void close() {
    driver.close();
  }
}
