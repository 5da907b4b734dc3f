package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SpoolingPublisher#handOffEncoded}, the receiver's way in: the encoded bytes reach Kafka,
 * or the spool and then Kafka, as the same deliveries.
 */
class SpoolingPublisherEncodedTest {
  private static final AvroCodec<Delivery> CODEC = AvroCodec.deliveries();

  @TempDir Path dir;

  @Test
  void sendsTheEncodedDeliveryWhileKafkaAcknowledges() throws Exception {
    RecordingPublisher kafka = new RecordingPublisher();
    Delivery d = SpoolingPublisherTest.delivery("e-1");
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofSeconds(5))) {
      assertEquals(
          Handoff.ACKNOWLEDGED,
          publisher.handOffEncoded("k-1", "e-1", CODEC.encode(d)).get(5, TimeUnit.SECONDS));
    }
    assertEquals(List.of(new RecordingPublisher.Published("k-1", d)), kafka.published());
  }

  @Test
  void spoolsTheEncodedBytesWhenKafkaFailsAndDrainsThemAsTheSameDeliveries() throws Exception {
    RecordingPublisher kafka =
        new RecordingPublisher().failing(new IllegalStateException("broker down"));
    List<Delivery> sent = new ArrayList<>();
    try (SpoolingPublisher publisher = SpoolingPublisher.open(kafka, dir, Duration.ofSeconds(5))) {
      List<CompletableFuture<Handoff>> handoffs = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        Delivery d = SpoolingPublisherTest.delivery("e-" + i);
        sent.add(d);
        handoffs.add(publisher.handOffEncoded("k-" + i, "e-" + i, CODEC.encode(d)));
      }
      for (CompletableFuture<Handoff> h : handoffs) {
        assertEquals(Handoff.SPOOLED, h.get(5, TimeUnit.SECONDS));
      }
      assertTrue(publisher.isSpooling());
      List<RecordingPublisher.Published> drained = new CopyOnWriteArrayList<>();
      kafka.answering(
          p -> {
            drained.add(p);
            return CompletableFuture.completedFuture(null);
          });
      Poll.until(
          Duration.ofSeconds(10),
          () -> "spool drained, depth " + publisher.depth(),
          () -> !publisher.isSpooling());
      assertEquals(5, drained.size());
      for (int i = 0; i < 5; i++) {
        assertEquals("k-" + i, drained.get(i).key());
        assertEquals(sent.get(i), drained.get(i).delivery());
      }
    }
  }
}
