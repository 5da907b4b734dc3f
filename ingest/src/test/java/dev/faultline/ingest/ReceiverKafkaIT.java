package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.SECRET;
import static dev.faultline.ingest.TestSupport.resource;
import static dev.faultline.ingest.TestSupport.send;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receiver against a real KRaft broker. */
class ReceiverKafkaIT {
  private static EmbeddedKafka kafka;
  @TempDir static Path kafkaDir;
  @TempDir Path tmp;
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void startKafka() throws IOException {
    kafka = EmbeddedKafka.start(kafkaDir.resolve("kafka"), 0);
  }

  @AfterAll
  static void stopKafka() {
    kafka.close();
  }

  private static String newTopic() {
    String topic = "deliveries-" + UUID.randomUUID();
    kafka.createTopics(3, List.of(topic));
    return topic;
  }

  private static WebhookApp start(IngestConfig config, SpoolingPublisher publisher) {
    return new WebhookApp(
            config,
            publisher,
            List.of(new SpoolHealthCheck(publisher, 1000)),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            List.of())
        .start("127.0.0.1", 0);
  }

  @Test
  void signedDeliveryLandsOnTheTopicWithKeyValueAndDeliveryIdHeader() throws IOException {
    String topic = newTopic();
    IngestConfig config =
        IngestConfig.builder()
            .secret(SECRET)
            .bootstrapServers(kafka.bootstrapServers())
            .deliveryTopic(topic)
            .spoolDir(tmp.resolve("spool"))
            .build();
    byte[] body = resource("webhooks/issues.opened.json");
    try (SpoolingPublisher publisher =
        SpoolingPublisher.open(
            KafkaDeliveryPublisher.create(config), config.spoolDir(), config.handoffTimeout())) {
      WebhookApp app = start(config, publisher);
      try {
        HttpResponse<String> response =
            send(client, webhook(app.port(), "issues", "guid-1", body, SECRET).build());
        assertEquals(200, response.statusCode(), response.body());
      } finally {
        app.stop();
      }
    }

    List<ConsumerRecord<String, byte[]>> records =
        TopicReader.readAll(kafka.bootstrapServers(), topic);
    assertEquals(1, records.size(), "acknowledged means on the topic");
    ConsumerRecord<String, byte[]> record = records.get(0);
    assertEquals("microsoft/DeepSpeed#4242", record.key());
    assertEquals(
        "guid-1",
        new String(
            record.headers().lastHeader(KafkaDeliveryPublisher.DELIVERY_ID_HEADER).value(),
            StandardCharsets.UTF_8));
    Delivery delivery = AvroCodec.deliveries().decode(record.value());
    assertEquals("guid-1", delivery.getDeliveryId());
    assertEquals("issues", delivery.getEvent());
    assertEquals("opened", delivery.getAction());
    assertEquals("microsoft/DeepSpeed", delivery.getRepository());
    assertEquals(new String(body, StandardCharsets.UTF_8), delivery.getPayloadJson());
  }

  @Test
  void aReceiverKilledWithAFullSpoolIsDrainedByTheNextOneOnTheSameSpool() throws IOException {
    String topic = newTopic();
    Path spool = tmp.resolve("spool");
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // nothing listens there once closed: Kafka "unreachable"
    }
    IngestConfig unreachable =
        IngestConfig.builder()
            .secret(SECRET)
            .bootstrapServers("127.0.0.1:" + deadPort)
            .deliveryTopic(topic)
            .spoolDir(spool)
            .handoffTimeout(Duration.ofSeconds(1))
            .build();
    List<String> ids = IntStream.range(0, 5).mapToObj(i -> "kill-" + i).toList();

    SpoolingPublisher first =
        SpoolingPublisher.open(
            KafkaDeliveryPublisher.create(unreachable), spool, unreachable.handoffTimeout());
    WebhookApp dying = start(unreachable, first);
    for (String id : ids) {
      HttpResponse<String> r =
          send(
              client,
              webhook(dying.port(), "issues", id, resource("webhooks/issues.opened.json"), SECRET)
                  .build());
      assertEquals(202, r.statusCode(), r.body());
      assertTrue(r.body().contains("spooled"), r.body());
    }
    assertEquals(5, first.depth());
    // "Kill": nothing is drained on the way down, the objects are dropped.
    dying.stop();
    first.close();

    IngestConfig reachable =
        unreachable.toBuilder().bootstrapServers(kafka.bootstrapServers()).build();
    try (SpoolingPublisher second =
        SpoolingPublisher.open(
            KafkaDeliveryPublisher.create(reachable), spool, reachable.handoffTimeout())) {
      Poll.until(
          Duration.ofSeconds(60), () -> "spool depth " + second.depth(), () -> second.depth() == 0);
      List<ConsumerRecord<String, byte[]>> records =
          TopicReader.readAll(kafka.bootstrapServers(), topic);
      assertEquals(
          ids,
          records.stream()
              .map(
                  r ->
                      new String(
                          r.headers().lastHeader("delivery-id").value(), StandardCharsets.UTF_8))
              .sorted()
              .collect(Collectors.toList()),
          "each spooled delivery arrives exactly once");
    }
  }
}
