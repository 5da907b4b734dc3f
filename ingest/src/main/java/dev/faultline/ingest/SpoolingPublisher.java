package dev.faultline.ingest;

import dev.faultline.ingest.internal.SpoolFile;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DeliveryPublisher} that never loses an accepted delivery when Kafka is away.
 *
 * <p>Normally it hands each delivery to the delegate (Kafka). When the delegate fails or does not
 * acknowledge within the hand-off timeout, the delivery is appended to a local append-only spool
 * file and fsynced, and the future completes normally: the delivery is durable. While the spool
 * holds anything, new deliveries go to the spool too, behind the older ones, and a drainer thread
 * sends the spool to the delegate in order, batch by batch, recording its read position after each
 * acknowledged batch. When the spool is empty it is truncated and deliveries go straight to Kafka
 * again. The spool is drained on open, so a receiver restarted after a crash sends what its
 * predecessor spooled.
 *
 * <p>Delivery is at-least-once: a crash between a batch's acknowledgement and its position being
 * recorded sends the batch again. Consumers dedupe by delivery id (the {@code delivery-id} header).
 *
 * <p>Closing closes the delegate; the spool stays on disk for the next start.
 */
public final class SpoolingPublisher implements DeliveryPublisher, MeterBinder {
  private static final Logger LOG = LoggerFactory.getLogger(SpoolingPublisher.class);
  private static final int DRAIN_BATCH_RECORDS = 500;
  private static final long DRAIN_BATCH_BYTES = 8L * 1024 * 1024;
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  private static final Duration MIN_BACKOFF = Duration.ofMillis(100);

  private final DeliveryPublisher delegate;
  private final SpoolFile spool;
  private final Duration handoffTimeout;
  private final AvroCodec<Delivery> codec = AvroCodec.deliveries();
  private final LinkedBlockingQueue<PendingAppend> appends = new LinkedBlockingQueue<>();

  /** Guards the spool file between appends and reset, and the spooling flag's transitions. */
  private final ReentrantLock lock = new ReentrantLock();

  private final Condition spoolChanged = lock.newCondition();
  private final AtomicLong spooledTotal = new AtomicLong();
  private final AtomicLong drainedTotal = new AtomicLong();
  private final AtomicReference<String> writeProblem = new AtomicReference<>();
  private final AtomicReference<Instant> spoolingSince = new AtomicReference<>();
  private final Thread writer;
  private final Thread drainer;
  private volatile boolean spooling;
  private volatile boolean running = true;

  private record PendingAppend(SpoolFile.Entry entry, CompletableFuture<Void> done) {}

  private SpoolingPublisher(DeliveryPublisher delegate, SpoolFile spool, Duration handoffTimeout) {
    this.delegate = delegate;
    this.spool = spool;
    this.handoffTimeout = handoffTimeout;
    this.spooling = spool.depth() > 0;
    if (spooling) {
      spoolingSince.set(Instant.now());
    }
    this.writer = new Thread(this::writeLoop, "faultline-spool-writer");
    this.drainer = new Thread(this::drainLoop, "faultline-spool-drainer");
    writer.setDaemon(true);
    drainer.setDaemon(true);
  }

  /**
   * Opens the spool in {@code spoolDir} (creating it) and starts draining whatever an earlier run
   * left there.
   *
   * @param delegate usually a {@link KafkaDeliveryPublisher}; owned from now on
   * @param handoffTimeout how long a delivery waits for the delegate before it is spooled instead
   */
  public static SpoolingPublisher open(
      DeliveryPublisher delegate, Path spoolDir, Duration handoffTimeout) throws IOException {
    SpoolFile spool = SpoolFile.open(spoolDir);
    SpoolingPublisher publisher = new SpoolingPublisher(delegate, spool, handoffTimeout);
    if (spool.depth() > 0) {
      LOG.info(
          "Spool {} holds {} deliveries from an earlier run; draining them to Kafka",
          spoolDir,
          spool.depth());
    }
    publisher.writer.start();
    publisher.drainer.start();
    return publisher;
  }

  @Override
  public CompletableFuture<Void> publish(String key, Delivery delivery) {
    return handOff(key, delivery).thenApply(h -> null);
  }

  @Override
  public CompletableFuture<Handoff> handOff(String key, Delivery delivery) {
    return handOff(
        key,
        delivery.getDeliveryId(),
        () -> delegate.publish(key, delivery),
        () -> codec.encode(delivery));
  }

  /** As {@link #handOff(String, Delivery)}, the bytes sent, or spooled, as they are. */
  @Override
  public CompletableFuture<Handoff> handOffEncoded(String key, String deliveryId, byte[] value) {
    return handOff(
        key, deliveryId, () -> delegate.publishEncoded(key, deliveryId, value), () -> value);
  }

  /**
   * @param send hands the delivery to the delegate
   * @param value the delivery's Avro encoding, for the spool
   */
  private CompletableFuture<Handoff> handOff(
      String key,
      String deliveryId,
      Supplier<CompletableFuture<Void>> send,
      Supplier<byte[]> value) {
    if (!running) {
      return CompletableFuture.failedFuture(new IllegalStateException("Publisher is closed"));
    }
    if (spooling) {
      return spool(key, value).thenApply(v -> Handoff.SPOOLED);
    }
    CompletableFuture<Void> direct;
    try {
      direct = send.get();
    } catch (RuntimeException e) {
      direct = CompletableFuture.failedFuture(e);
    }
    return direct
        .copy()
        .orTimeout(handoffTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .thenApply(v -> Handoff.ACKNOWLEDGED)
        .exceptionallyCompose(
            error -> {
              if (spoolingSince.compareAndSet(null, Instant.now())) {
                LOG.warn(
                    "Kafka did not take delivery {} ({}); spooling deliveries to disk until it is back",
                    deliveryId,
                    describe(error));
              }
              return spool(key, value).thenApply(v -> Handoff.SPOOLED);
            });
  }

  private CompletableFuture<Void> spool(String key, Supplier<byte[]> encoded) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    byte[] value;
    try {
      value = encoded.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    // The append happens on the writer thread: it may fsync, which must not block a Kafka callback
    // or HTTP thread.
    PendingAppend pending = new PendingAppend(new SpoolFile.Entry(key, value, -1), done);
    appends.add(pending);
    if (!running && appends.remove(pending)) {
      // The writer may have exited already: nobody would ever complete this one.
      done.completeExceptionally(new IllegalStateException("Publisher is closed"));
    }
    return done;
  }

  private void writeLoop() {
    List<PendingAppend> batch = new ArrayList<>();
    while (running || !appends.isEmpty()) {
      try {
        PendingAppend first = appends.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        appends.drainTo(batch, 999);
        List<SpoolFile.Entry> entries = new ArrayList<>(batch.size());
        batch.forEach(p -> entries.add(p.entry()));
        lock.lock();
        try {
          // Group commit: one fsync for everything that queued up meanwhile.
          spool.append(entries);
          spooling = true;
          spoolChanged.signalAll();
        } finally {
          lock.unlock();
        }
        writeProblem.set(null);
        spooledTotal.addAndGet(batch.size());
        batch.forEach(p -> p.done().complete(null));
      } catch (IOException e) {
        writeProblem.set("cannot write the spool: " + e.getMessage());
        LOG.error(
            "Could not write {} deliveries to the spool; answering them with an error",
            batch.size(),
            e);
        batch.forEach(p -> p.done().completeExceptionally(e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        batch.forEach(p -> p.done().completeExceptionally(e));
        return;
      } catch (RuntimeException e) {
        LOG.error("Spool writer failed", e);
        batch.forEach(p -> p.done().completeExceptionally(e));
      } finally {
        batch.clear();
      }
    }
  }

  private void drainLoop() {
    Duration backoff = MIN_BACKOFF;
    boolean failing = false;
    while (running) {
      try {
        awaitSpooled();
        if (!running) {
          return;
        }
        List<SpoolFile.Entry> batch = spool.read(DRAIN_BATCH_RECORDS, DRAIN_BATCH_BYTES);
        if (batch.isEmpty()) {
          finishDrainIfEmpty();
          continue;
        }
        List<CompletableFuture<Void>> sends = new ArrayList<>(batch.size());
        for (SpoolFile.Entry entry : batch) {
          if (!sends.isEmpty() && sends.get(sends.size() - 1).isCompletedExceptionally()) {
            // Kafka refused an earlier one: sending the rest would only put them ahead of it on the
            // retry.
            break;
          }
          sends.add(delegate.publish(entry.key(), codec.decode(entry.value())));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
            .get(handoffTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        spool.commit(batch.get(batch.size() - 1).nextPosition(), batch.size());
        drainedTotal.addAndGet(batch.size());
        if (failing) {
          LOG.info("Kafka takes deliveries again; draining the spool ({} left)", spool.depth());
          failing = false;
        }
        backoff = MIN_BACKOFF;
        finishDrainIfEmpty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (!running) {
          return;
        }
        if (!failing) {
          LOG.warn("Could not drain the spool to Kafka ({}); retrying with back-off", describe(e));
          failing = true;
        }
        try {
          // Back-off between attempts against an unreachable broker, not a wait for a test.
          Thread.sleep(backoff.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
        backoff =
            backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                ? MAX_BACKOFF
                : backoff.multipliedBy(2);
      }
    }
  }

  private void awaitSpooled() throws InterruptedException {
    lock.lock();
    try {
      while (running && spool.depth() == 0) {
        spoolChanged.await(200, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  private void finishDrainIfEmpty() throws IOException {
    lock.lock();
    try {
      if (spool.depth() == 0 && appends.isEmpty() && spooling) {
        spool.reset();
        spooling = false;
        Instant since = spoolingSince.getAndSet(null);
        LOG.info("Spool drained; deliveries go straight to Kafka again (spooling began {})", since);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Deliveries in the spool not yet acknowledged by Kafka. */
  public long depth() {
    return spool.depth();
  }

  /** True while deliveries are being spooled rather than sent straight to Kafka. */
  public boolean isSpooling() {
    return spooling;
  }

  /** Why the spool cannot be written, if it cannot. */
  public Optional<String> writeProblem() {
    return Optional.ofNullable(writeProblem.get());
  }

  /** When spooling began, if it is spooling. */
  public Optional<Instant> spoolingSince() {
    return Optional.ofNullable(spoolingSince.get());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("faultline.spool.depth", spool, SpoolFile::depth)
        .description("Deliveries in the local spool waiting for Kafka")
        .register(registry);
    Gauge.builder("faultline.spool.bytes", spool, SpoolFile::sizeBytes)
        .description("Size of the local spool file")
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder("faultline.spool.spooled", spooledTotal, AtomicLong::get)
        .description("Deliveries written to the spool")
        .register(registry);
    FunctionCounter.builder("faultline.spool.drained", drainedTotal, AtomicLong::get)
        .description("Spooled deliveries acknowledged by Kafka")
        .register(registry);
  }

  /**
   * Stops the threads without waiting for the spool to drain (what is spooled stays for the next
   * start), then closes the delegate. Deliveries already queued for the spool are written first.
   */
  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    drainer.interrupt();
    try {
      writer.join(10_000);
      drainer.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      delegate.close();
    } finally {
      try {
        spool.close();
      } catch (IOException e) {
        LOG.warn("Could not close the spool file", e);
      }
    }
  }

  private static String describe(Throwable error) {
    Throwable t = error;
    while ((t instanceof java.util.concurrent.CompletionException
            || t instanceof java.util.concurrent.ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }
}
