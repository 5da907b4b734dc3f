package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.SECRET;
import static dev.faultline.ingest.TestSupport.resource;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.testing.Poll;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka stops in the middle of a stream of deliveries and comes back: nothing is lost, nothing
 * doubled.
 */
class KafkaOutageIT {
  @TempDir Path tmp;

  @Test
  void deliveriesDuringAKafkaOutageAreSpooledAnswered2xxAndArriveExactlyOnceWhenKafkaReturns()
      throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path logDir = tmp.resolve("kafka");
    EmbeddedKafka kafka = EmbeddedKafka.start(logDir, port);
    String topic = "deliveries-outage";
    kafka.createTopics(3, List.of(topic));
    IngestConfig config =
        IngestConfig.builder()
            .secret(SECRET)
            .bootstrapServers(kafka.bootstrapServers())
            .deliveryTopic(topic)
            .spoolDir(tmp.resolve("spool"))
            .handoffTimeout(Duration.ofSeconds(2))
            .build();
    HttpClient client = HttpClient.newHttpClient();
    SpoolingPublisher publisher =
        SpoolingPublisher.open(
            KafkaDeliveryPublisher.create(config), config.spoolDir(), config.handoffTimeout());
    WebhookApp app =
        new WebhookApp(
                config,
                publisher,
                List.of(new SpoolHealthCheck(publisher, 1000)),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of())
            .start("127.0.0.1", 0);
    Function<String, CompletableFuture<HttpResponse<String>>> post =
        id ->
            client.sendAsync(
                webhook(app.port(), "issues", id, resource("webhooks/issues.opened.json"), SECRET)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    try {
      List<String> before = ids("before", 5);
      for (String id : before) {
        assertEquals(200, post.apply(id).get(30, TimeUnit.SECONDS).statusCode());
      }

      kafka.close();
      List<String> during = ids("during", 10);
      List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      during.forEach(id -> answers.add(post.apply(id)));
      for (CompletableFuture<HttpResponse<String>> a : answers) {
        HttpResponse<String> r = a.get(30, TimeUnit.SECONDS);
        assertEquals(202, r.statusCode(), r.body());
      }
      assertEquals(10, publisher.depth(), "all deliveries of the outage are in the spool");

      kafka = EmbeddedKafka.start(logDir, port);
      SpoolingPublisher p = publisher;
      Poll.until(Duration.ofSeconds(90), () -> "spool depth " + p.depth(), () -> p.depth() == 0);
      List<String> after = ids("after", 3);
      for (String id : after) {
        assertEquals(200, post.apply(id).get(30, TimeUnit.SECONDS).statusCode());
      }

      List<ConsumerRecord<String, byte[]>> records =
          TopicReader.readAll(kafka.bootstrapServers(), topic);
      Map<String, Long> counts =
          records.stream()
              .collect(
                  Collectors.groupingBy(
                      r ->
                          new String(
                              r.headers().lastHeader("delivery-id").value(),
                              StandardCharsets.UTF_8),
                      Collectors.counting()));
      List<String> all = new ArrayList<>(before);
      all.addAll(during);
      all.addAll(after);
      assertEquals(all.stream().sorted().toList(), counts.keySet().stream().sorted().toList());
      assertEquals(all.size(), records.size(), "exactly once each: " + counts);
    } finally {
      app.stop();
      publisher.close();
      kafka.close();
    }
  }

  private static List<String> ids(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> prefix + "-" + i).toList();
  }
}
