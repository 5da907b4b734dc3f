package dev.faultline.jobs.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.jobs.records.Rejected;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.exceptions.SecurityException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.exceptions.TransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

final class Neo4jIssueSinkWriter implements SinkWriter<IssueRow> {
  static final String STAGE = "issue-pipeline/neo4j-sink";
  private static final Logger LOG = LoggerFactory.getLogger(Neo4jIssueSinkWriter.class);

  private final SinkOptions options;
  private final KafkaDeadLetters deadLetters;
  private final ProcessingTimeService timers;
  private final Driver driver;
  private final IssueWriter writer;
  private final RowBuffer<IssueRow> buffer = new RowBuffer<>(IssueRow::id, IssueRow::updatedAtMillis);
  private final ObjectMapper json = new ObjectMapper();

  Neo4jIssueSinkWriter(GraphConfig graph, SinkOptions options, KafkaDeadLetters deadLetters, ProcessingTimeService timers) {
    this.options = options;
    this.deadLetters = deadLetters;
    this.timers = timers;
    this.driver = GraphDatabase.driver(graph.uri(), AuthTokens.basic(graph.user(), graph.password()));
    this.writer = new IssueWriter(driver, graph.database());
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
  public void write(IssueRow row, Context context) throws InterruptedException {
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

  /** Writes the batch; when Neo4j rejects it for its content, halves it until the bad rows are found and dead-lettered. */
  private void writeOrIsolate(List<IssueRow> rows) throws InterruptedException {
    try {
      writeRetrying(rows);
    } catch (ClientException e) {
      if (rows.size() == 1) {
        deadLetter(rows.get(0), e);
        return;
      }
      int half = rows.size() / 2;
      writeOrIsolate(rows.subList(0, half));
      writeOrIsolate(rows.subList(half, rows.size()));
    }
  }

  /** Retries, with capped exponential backoff, as long as Neo4j is unreachable: the job must outlive a Neo4j restart. */
  private void writeRetrying(List<IssueRow> rows) throws InterruptedException {
    long backoff = 100;
    int attempt = 0;
    while (true) {
      try {
        writer.write(rows);
        if (attempt > 0) {
          LOG.info("Neo4j write succeeded after {} retries", attempt);
        }
        return;
      } catch (ServiceUnavailableException | SessionExpiredException | TransientException e) {
        attempt++;
        LOG.warn("Neo4j unavailable ({}), retrying {} rows in {} ms (attempt {})", e.getMessage(), rows.size(), backoff, attempt);
      } catch (SecurityException e) {
        attempt++;
        LOG.error("Neo4j refused the credentials ({}); retrying in {} ms", e.getMessage(), backoff);
      } catch (ClientException e) {
        throw e;
      } catch (Neo4jException e) {
        attempt++;
        LOG.warn("Neo4j error ({}), retrying {} rows in {} ms (attempt {})", e.getMessage(), rows.size(), backoff, attempt);
      }
      Thread.sleep(backoff);
      backoff = Math.min(backoff * 2, options.maxBackoff().toMillis());
    }
  }

  private void deadLetter(IssueRow row, Exception e) throws InterruptedException {
    LOG.error("Neo4j rejected issue {}: {}; sent to the dead-letter topic", row.id(), e.getMessage());
    byte[] payload;
    try {
      payload = json.writeValueAsString(row.toParameters()).getBytes(StandardCharsets.UTF_8);
    } catch (IOException io) {
      payload = null;
    }
    deadLetters.send(new Rejected(STAGE, e.getClass().getSimpleName() + ": " + e.getMessage(), row.id(), null, payload, System.currentTimeMillis()));
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
