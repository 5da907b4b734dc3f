package dev.faultline.ingest.backfill;

import dev.faultline.ingest.DeliveryPublisher;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Publishes backfilled deliveries asynchronously with a bound on the number in flight, failing fast
 * on the first error. {@link #flush} waits until everything handed over so far is acknowledged.
 */
final class Publishing implements Consumer<BackfillDelivery> {
  private final DeliveryPublisher publisher;
  private final int maxInFlight;
  private final Semaphore permits;
  private final Duration timeout;
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  Publishing(DeliveryPublisher publisher, int maxInFlight, Duration timeout) {
    this.publisher = publisher;
    this.maxInFlight = maxInFlight;
    this.permits = new Semaphore(maxInFlight);
    this.timeout = timeout;
  }

  @Override
  public void accept(BackfillDelivery d) {
    throwIfFailed();
    try {
      if (!permits.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "Kafka did not acknowledge backfilled deliveries within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
    publisher
        .publishEncoded(d.key(), d.deliveryId(), d.value())
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                failure.compareAndSet(null, e);
              } else {
                acknowledged.incrementAndGet();
              }
              permits.release();
            });
  }

  /** Waits for every delivery handed over so far; throws the first failure. */
  void flush() throws IOException {
    try {
      if (!permits.tryAcquire(maxInFlight, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IOException("Kafka did not acknowledge backfilled deliveries within " + timeout);
      }
      permits.release(maxInFlight);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for Kafka", e);
    }
    throwIfFailed();
  }

  long acknowledged() {
    return acknowledged.get();
  }

  private void throwIfFailed() {
    Throwable t = failure.get();
    if (t != null) {
      throw new IllegalStateException("Kafka refused a backfilled delivery: " + t.getMessage(), t);
    }
  }
}
