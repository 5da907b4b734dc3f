package dev.faultline.jobs.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.graph.BatchWriter;
import dev.faultline.graph.GraphConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.neo4j.driver.Driver;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.exceptions.SecurityException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.exceptions.TransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

final class Neo4jBatchSinkWriter<R> implements SinkWriter<R> {
  private static final Logger LOG = LoggerFactory.getLogger(Neo4jBatchSinkWriter.class);

  /**
   * A database error seen this often for one batch is taken to be about its data, not a passing
   * condition.
   */
  private static final int MAX_DATA_ERROR_RETRIES = 3;

  private final String stage;
  private final SinkOptions options;
  private final KafkaDeadLetters deadLetters;
  private final ProcessingTimeService timers;
  private final Driver driver;
  private final BatchWriter<R> writer;
  private final RowBuffer<R> buffer;
  private final ObjectMapper json = new ObjectMapper();

  Neo4jBatchSinkWriter(
      String stage,
      GraphConfig graph,
      SinkOptions options,
      Neo4jBatchSink.WriterFactory<R> writers,
      KafkaDeadLetters deadLetters,
      ProcessingTimeService timers) {
    this.stage = stage;
    this.options = options;
    this.deadLetters = deadLetters;
    this.timers = timers;
    this.driver = graph.openDriver();
    this.writer = writers.create(driver, graph.database());
    this.buffer = new RowBuffer<>(writer::keyOf, writer::versionOf);
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
  public void write(R row, Context context) throws InterruptedException {
    buffer.add(row);
    if (buffer.size() >= options.batchSize()) {
      flushBuffer();
    }
  }

  @Override
  public void flush(boolean endOfInput) throws InterruptedException {
    flushBuffer();
  }

  private void flushBuffer() throws InterruptedException {
    if (!buffer.isEmpty()) {
      writeOrIsolate(buffer.drain());
    }
  }

  /**
   * Writes the batch; when Neo4j rejects it for its content, halves it until the bad rows are found
   * and dead-lettered.
   */
  private void writeOrIsolate(List<R> rows) throws InterruptedException {
    try {
      writeRetrying(rows);
    } catch (RejectedByNeo4j rejected) {
      Neo4jException e = rejected.cause;
      if (rows.size() == 1) {
        deadLetter(rows.get(0), e);
        return;
      }
      int half = rows.size() / 2;
      writeOrIsolate(rows.subList(0, half));
      writeOrIsolate(rows.subList(half, rows.size()));
    }
  }

  /** Neo4j refused the batch for what it contains: retrying it as it is would never succeed. */
  private static final class RejectedByNeo4j extends Exception {
    final Neo4jException cause;

    RejectedByNeo4j(Neo4jException cause) {
      super(cause);
      this.cause = cause;
    }
  }

  /**
   * Retries, with capped exponential backoff, as long as Neo4j is unreachable or busy: the job must
   * outlive a Neo4j restart. Errors about the data itself (a client error, or a database error that
   * repeats) end the retries, so the rows that cause them can be isolated and dead-lettered instead
   * of stalling the job.
   */
  private void writeRetrying(List<R> rows) throws InterruptedException, RejectedByNeo4j {
    long backoff = 100;
    int attempt = 0;
    int dataErrors = 0;
    while (true) {
      try {
        writer.write(rows);
        if (attempt > 0) {
          LOG.info("{}: Neo4j write succeeded after {} retries", stage, attempt);
        }
        return;
      } catch (ServiceUnavailableException | SessionExpiredException | TransientException e) {
        attempt++;
        LOG.warn(
            "{}: Neo4j unavailable ({}), retrying {} rows in {} ms (attempt {})",
            stage,
            e.getMessage(),
            rows.size(),
            backoff,
            attempt);
      } catch (SecurityException e) {
        attempt++;
        LOG.error(
            "{}: Neo4j refused the credentials ({}); retrying in {} ms",
            stage,
            e.getMessage(),
            backoff);
      } catch (ClientException e) {
        throw new RejectedByNeo4j(e);
      } catch (Neo4jException e) {
        attempt++;
        if (++dataErrors >= MAX_DATA_ERROR_RETRIES) {
          throw new RejectedByNeo4j(e);
        }
        LOG.warn(
            "{}: Neo4j error ({}), retrying {} rows in {} ms (attempt {})",
            stage,
            e.getMessage(),
            rows.size(),
            backoff,
            attempt);
      }
      Thread.sleep(backoff);
      backoff = Math.min(backoff * 2, options.maxBackoff().toMillis());
    }
  }

  private void deadLetter(R row, Exception e) throws InterruptedException {
    String key = writer.keyOf(row);
    LOG.error(
        "{}: Neo4j rejected {}: {}; sent to the dead-letter topic", stage, key, e.getMessage());
    byte[] payload;
    try {
      payload = json.writeValueAsString(writer.toParameters(row)).getBytes(StandardCharsets.UTF_8);
    } catch (IOException io) {
      payload = null;
    }
    deadLetters.send(
        new Rejected(
            stage,
            e.getClass().getSimpleName() + ": " + e.getMessage(),
            key,
            null,
            payload,
            System.currentTimeMillis()));
  }

  @Override
  public void close() throws Exception {
    try {
      deadLetters.close();
    } finally {
      driver.close();
    }
  }
}
