package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.ingest.internal.SpoolFile;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolingPublisherTest {
  @TempDir Path dir;

  static Delivery delivery(String id) {
    return Delivery.newBuilder()
        .setDeliveryId(id)
        .setEvent("issues")
        .setAction("opened")
        .setRepository("o/r")
        .setReceivedAt(Instant.parse("2025-01-01T00:00:00Z"))
        .setSource(DeliverySource.WEBHOOK)
        .setPayloadJson("{\"id\":\"" + id + "\"}")
        .build();
  }

  private static List<String> ids(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "d-" + i).toList();
  }

  @Test
  void sendsStraightToKafkaWhileItAcknowledges() throws Exception {
    RecordingPublisher kafka = new RecordingPublisher();
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofSeconds(5))) {
      assertEquals(
          Handoff.ACKNOWLEDGED, publisher.handOff("k", delivery("d-1")).get(5, TimeUnit.SECONDS));
      assertEquals(0, publisher.depth());
      assertFalse(publisher.isSpooling());
    }
    assertTrue(kafka.closed, "closing the spooling publisher closes Kafka's");
  }

  @Test
  void spoolsWhenKafkaFailsAndDrainsInOrderWhenItIsBack() throws Exception {
    RecordingPublisher kafka =
        new RecordingPublisher().failing(new IllegalStateException("broker down"));
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofSeconds(5))) {
      List<CompletableFuture<Handoff>> handoffs = new ArrayList<>();
      for (String id : ids(0, 50)) {
        handoffs.add(publisher.handOff("k", delivery(id)));
      }
      for (CompletableFuture<Handoff> h : handoffs) {
        assertEquals(Handoff.SPOOLED, h.get(5, TimeUnit.SECONDS));
      }
      assertTrue(publisher.isSpooling());

      List<String> delivered = new java.util.concurrent.CopyOnWriteArrayList<>();
      kafka.answering(
          p -> {
            delivered.add(p.delivery().getDeliveryId());
            return CompletableFuture.completedFuture(null);
          });
      Poll.until(
          Duration.ofSeconds(10),
          () -> "spool drained, depth " + publisher.depth(),
          () -> !publisher.isSpooling());
      assertEquals(ids(0, 50), delivered, "drained in the order they were accepted");
      assertEquals(0, publisher.depth());

      assertEquals(
          Handoff.ACKNOWLEDGED,
          publisher.handOff("k", delivery("d-after")).get(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void aRefusedSendStopsItsDrainBatchSoNothingOvertakesItOrIsSentTwice() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean down =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.AtomicInteger refusalsLeft =
        new java.util.concurrent.atomic.AtomicInteger(1);
    List<String> delivered = new java.util.concurrent.CopyOnWriteArrayList<>();
    RecordingPublisher kafka =
        new RecordingPublisher()
            .answering(
                p -> {
                  // The broker is down; then it refuses one send of the drain; then it takes
                  // everything.
                  if (down.get() || refusalsLeft.getAndDecrement() > 0) {
                    return CompletableFuture.failedFuture(new IllegalStateException("broker down"));
                  }
                  delivered.add(p.delivery().getDeliveryId());
                  return CompletableFuture.completedFuture(null);
                });
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofSeconds(5))) {
      for (String id : ids(0, 30)) {
        assertEquals(
            Handoff.SPOOLED, publisher.handOff("k", delivery(id)).get(5, TimeUnit.SECONDS));
      }
      down.set(false);
      Poll.until(
          Duration.ofSeconds(10),
          () -> "spool drained, depth " + publisher.depth(),
          () -> !publisher.isSpooling());
      assertEquals(ids(0, 30), delivered, "each once, in the order accepted");
    }
  }

  @Test
  void spoolsWhenKafkaDoesNotAnswerWithinTheHandoffTimeout() throws Exception {
    RecordingPublisher kafka = new RecordingPublisher().answering(p -> new CompletableFuture<>());
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofMillis(200))) {
      assertEquals(
          Handoff.SPOOLED, publisher.handOff("k", delivery("d-1")).get(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void drainsWhatAnEarlierRunSpooledWhenOpened() throws Exception {
    RecordingPublisher down =
        new RecordingPublisher().failing(new IllegalStateException("broker down"));
    SpoolingPublisher first = SpoolingPublisher.open(down, dir, Duration.ofSeconds(5));
    for (String id : ids(0, 20)) {
      assertEquals(Handoff.SPOOLED, first.handOff("k", delivery(id)).get(5, TimeUnit.SECONDS));
    }
    first.close(); // as if killed: nothing drained

    RecordingPublisher up = new RecordingPublisher();
    try (SpoolingPublisher second = SpoolingPublisher.open(up, dir, Duration.ofSeconds(5))) {
      assertTrue(second.depth() > 0 || !up.published().isEmpty());
      Poll.until(
          Duration.ofSeconds(10), () -> "drained " + up.deliveryIds(), () -> !second.isSpooling());
      assertEquals(ids(0, 20), up.deliveryIds());
    }
  }

  @Test
  void cutsOffATornRecordAtTheEndOfTheSpool() throws IOException {
    try (SpoolFile spool = SpoolFile.open(dir)) {
      spool.append(
          List.of(
              new SpoolFile.Entry("a", "one".getBytes(StandardCharsets.UTF_8), -1),
              new SpoolFile.Entry("b", "two".getBytes(StandardCharsets.UTF_8), -1)));
    }
    try (FileChannel ch =
        FileChannel.open(dir.resolve("deliveries.spool"), StandardOpenOption.WRITE)) {
      ch.write(
          ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 0, 0, 0, 9, 'c'}),
          ch.size()); // a crash mid-append
    }
    try (SpoolFile spool = SpoolFile.open(dir)) {
      assertEquals(2, spool.depth());
      List<SpoolFile.Entry> entries = spool.read(10, 1 << 20);
      assertEquals(List.of("a", "b"), entries.stream().map(SpoolFile.Entry::key).toList());
      spool.commit(entries.get(0).nextPosition(), 1);
    }
    try (SpoolFile spool = SpoolFile.open(dir)) {
      assertEquals(1, spool.depth(), "the committed read position survives a restart");
      assertEquals("b", spool.read(10, 1 << 20).get(0).key());
    }
  }
}
