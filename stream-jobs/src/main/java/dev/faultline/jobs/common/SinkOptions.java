package dev.faultline.jobs.common;

import java.io.Serializable;
import java.time.Duration;

/**
 * How the graph sink batches and retries.
 *
 * @param batchSize rows per transaction (1000 measured fastest: smaller batches were slower every
 *     run)
 * @param flushInterval longest time a row waits in the buffer
 * @param maxBackoff the longest pause between retries while Neo4j is unavailable
 */
public record SinkOptions(int batchSize, Duration flushInterval, Duration maxBackoff)
    implements Serializable {
  public static final SinkOptions DEFAULTS =
      new SinkOptions(1000, Duration.ofMillis(200), Duration.ofSeconds(10));

  public SinkOptions {
    if (batchSize < 1) {
      throw new IllegalArgumentException("sink batch size must be at least 1, was " + batchSize);
    }
    if (flushInterval.isNegative() || flushInterval.isZero()) {
      throw new IllegalArgumentException(
          "sink flush interval must be positive, was " + flushInterval);
    }
  }
}
