package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.SECRET;
import static dev.faultline.ingest.TestSupport.resource;
import static dev.faultline.ingest.TestSupport.send;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.UsedEvent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock NOW =
      Clock.fixed(Instant.parse("2099-01-05T00:00:00Z"), ZoneOffset.UTC);

  @TempDir Path tmp;
  private final HttpClient client = HttpClient.newHttpClient();
  private final RecordingPublisher publisher = new RecordingPublisher();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private WebhookApp app;

  private IngestConfig.Builder config() {
    return IngestConfig.builder().secret(SECRET).spoolDir(tmp.resolve("spool"));
  }

  private WebhookApp start(
      IngestConfig config, DeliveryPublisher publisher, List<HealthCheck> checks) {
    app =
        new WebhookApp(
                config,
                publisher,
                checks,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.<Consumer<io.javalin.config.JavalinConfig>>of(),
                NOW)
            .start("127.0.0.1", 0);
    return app;
  }

  private WebhookApp start() {
    return start(config().build(), publisher, List.of());
  }

  @AfterEach
  void stop() throws Exception {
    if (app != null) {
      app.stop();
    }
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private HttpResponse<String> post(String event, String id, byte[] body) {
    return send(client, webhook(app.port(), event, id, body, SECRET).build());
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    assertTrue(
        response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
        "JSON answer expected, got " + response.headers().firstValue("Content-Type"));
    return JSON.readTree(response.body());
  }

  @Test
  void acceptsSignedIssuesDeliveryAndPublishesItKeyedByIssue() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> response = post("issues", "d-1", body);

    assertEquals(200, response.statusCode(), response.body());
    assertEquals("accepted", json(response).path("status").asText());
    assertEquals(1, publisher.published().size());
    RecordingPublisher.Published p = publisher.published().get(0);
    assertEquals("microsoft/DeepSpeed#4242", p.key());
    Delivery d = p.delivery();
    assertEquals("d-1", d.getDeliveryId());
    assertEquals("issues", d.getEvent());
    assertEquals("opened", d.getAction());
    assertEquals("microsoft/DeepSpeed", d.getRepository());
    assertEquals(DeliverySource.WEBHOOK, d.getSource());
    assertEquals(NOW.instant(), d.getReceivedAt());
    assertEquals(
        new String(body, StandardCharsets.UTF_8), d.getPayloadJson(), "payload kept byte for byte");
  }

  @Test
  void rejectsDeliveryWithoutSignature() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> response =
        send(client, webhook(app.port(), "issues", "d-1", body, null).build());

    assertEquals(401, response.statusCode());
    assertTrue(
        json(response).path("error").asText().contains("Missing X-Hub-Signature-256"),
        response.body());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void rejectsDeliveryWithBadSignature() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> response =
        send(client, webhook(app.port(), "issues", "d-1", body, "another secret").build());

    assertEquals(401, response.statusCode());
    assertTrue(json(response).path("error").asText().contains("does not match"), response.body());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void acceptsSignatureMadeWithPreviousSecretDuringRotation() {
    start(config().secrets(List.of("new secret", SECRET)).build(), publisher, List.of());
    HttpResponse<String> response = post("issues", "d-1", resource("webhooks/issues.opened.json"));
    assertEquals(200, response.statusCode(), response.body());
  }

  @Test
  void rejectsMalformedJsonWith400() throws IOException {
    start();
    HttpResponse<String> truncated =
        post("issues", "d-1", "{\"action\": \"opened\", ".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> array = post("issues", "d-2", "[1,2]".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> trailing = post("issues", "d-3", "{} {}".getBytes(StandardCharsets.UTF_8));

    assertEquals(400, truncated.statusCode());
    assertTrue(
        json(truncated).path("error").asText().startsWith("Body is not valid JSON"),
        truncated.body());
    assertEquals(400, array.statusCode());
    assertTrue(json(array).path("error").asText().contains("JSON object"), array.body());
    assertEquals(400, trailing.statusCode());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void rejectsDeliveryWithoutEventOrDeliveryHeaderWith400() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpRequest noEvent =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.port() + WebhookApp.WEBHOOK_PATH))
            .header("Content-Type", "application/json")
            .header("X-GitHub-Delivery", "d-1")
            .header(WebhookSignature.HEADER, WebhookSignature.sign(SECRET, body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpRequest noDelivery =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.port() + WebhookApp.WEBHOOK_PATH))
            .header("Content-Type", "application/json")
            .header("X-GitHub-Event", "issues")
            .header(WebhookSignature.HEADER, WebhookSignature.sign(SECRET, body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();

    HttpResponse<String> a = send(client, noEvent);
    HttpResponse<String> b = send(client, noDelivery);
    assertEquals(400, a.statusCode());
    assertTrue(json(a).path("error").asText().contains("X-GitHub-Event"), a.body());
    assertEquals(400, b.statusCode());
    assertTrue(json(b).path("error").asText().contains("X-GitHub-Delivery"), b.body());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void refusesBodyOverLimitByContentLengthWithoutReadingIt() throws IOException {
    start();
    try (Socket socket = new Socket("127.0.0.1", app.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      long declared = IngestConfig.DEFAULT_MAX_BODY_BYTES + 1;
      out.write(
          ("POST "
                  + WebhookApp.WEBHOOK_PATH
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "X-GitHub-Event: issues\r\nX-GitHub-Delivery: d-big\r\nContent-Length: "
                  + declared
                  + "\r\n\r\n{\"a\":")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // Only 5 of the 25 MB were sent: an answer now proves the receiver did not wait to read the
      // rest.
      String response = readHead(socket.getInputStream());
      assertTrue(response.startsWith("HTTP/1.1 413"), response);
    }
    assertTrue(publisher.published().isEmpty());
  }

  private static String readHead(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      sb.append((char) c);
      if (sb.length() >= 4 && sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
        break;
      }
    }
    return sb.toString();
  }

  @Test
  void refusesChunkedBodyOverLimitWhileStreaming() throws IOException {
    start(config().maxBodyBytes(1024).build(), publisher, List.of());
    byte[] big = new byte[64 * 1024];
    java.util.Arrays.fill(big, (byte) ' ');
    HttpRequest request =
        webhook(app.port(), "issues", "d-1", big, SECRET)
            // ofInputStream has no known length: the client sends it chunked.
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
            .build();
    HttpResponse<String> response = send(client, request);

    assertEquals(413, response.statusCode());
    assertTrue(
        json(response).path("error").asText().contains("over the limit of 1024 bytes"),
        response.body());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void answersPingWith200WithoutPublishing() throws IOException {
    start();
    HttpResponse<String> response = post("ping", "d-ping", resource("webhooks/ping.json"));
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("pong", json(response).path("status").asText());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void recordsUnusedEventsAndActionsWith202() throws IOException {
    start();
    HttpResponse<String> unusedAction =
        post("pull_request", "d-1", resource("webhooks/pull_request.labeled.json"));
    HttpResponse<String> unusedEvent =
        post(
            "workflow_run",
            "d-2",
            "{\"action\":\"completed\",\"repository\":{\"full_name\":\"a/b\"}}".getBytes());
    HttpResponse<String> label = post("label", "d-3", resource("webhooks/label.created.json"));

    for (HttpResponse<String> unused : List.of(unusedAction, unusedEvent, label)) {
      assertEquals(202, unused.statusCode(), unused.body());
      assertEquals("recorded", json(unused).path("status").asText(), unused.body());
      assertFalse(json(unused).path("used").asBoolean(true), unused.body());
    }
    assertEquals(
        List.of("d-1", "d-2", "d-3"),
        publisher.deliveryIds(),
        "unused deliveries still go to the raw topic");
    assertEquals("NVIDIA/Megatron-LM#77", publisher.published().get(0).key());
    assertEquals("a/b", publisher.published().get(1).key());
  }

  /**
   * The receiver counts as used exactly the rows of {@link UsedEvent}, the table the pipeline's
   * normaliser reads (infra's {@code UsedEventAgreementTest} feeds what the receiver publishes to
   * the normaliser): every listed action (and any action of an event used whole) is answered 200
   * accepted, another action of a listed event 202 recorded.
   */
  @Test
  void answersEveryEventAndActionOfTheUsedEventTableAsUsedAndNoOther() throws IOException {
    start();
    List<String> wrong = new ArrayList<>();
    int n = 0;
    for (UsedEvent event : UsedEvent.values()) {
      List<String> used =
          event.actions().isEmpty()
              ? List.of("opened", "any_action")
              : List.copyOf(event.actions());
      for (String action : used) {
        expectUsed(event.eventName(), action, true, "d-used-" + n++, wrong);
      }
      if (!event.actions().isEmpty()) {
        expectUsed(
            event.eventName(), "not_an_action_of_the_table", false, "d-unused-" + n++, wrong);
      }
    }
    expectUsed("label", "created", false, "d-label", wrong);
    assertEquals(List.of(), wrong);
    assertTrue(
        UsedEvent.isUsed("pull_request", "synchronize"),
        "new commits change a pull request's size");
    assertFalse(
        UsedEvent.of("label").isPresent(), "a label's own events give the pipeline nothing");
  }

  private void expectUsed(String event, String action, boolean used, String id, List<String> wrong)
      throws IOException {
    String body = "{\"action\":\"" + action + "\",\"repository\":{\"full_name\":\"a/b\"}}";
    HttpResponse<String> response = post(event, id, body.getBytes(StandardCharsets.UTF_8));
    int status = used ? 200 : 202;
    if (response.statusCode() != status || json(response).path("used").asBoolean(!used) != used) {
      wrong.add(
          event
              + "."
              + action
              + ": expected "
              + status
              + " used="
              + used
              + ", was "
              + response.statusCode()
              + " "
              + response.body());
    }
  }

  @Test
  void refusesWrongContentTypeWith415() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> response =
        send(
            client,
            webhook(app.port(), "issues", "d-1", body, SECRET)
                .setHeader("Content-Type", "text/plain")
                .build());
    assertEquals(415, response.statusCode());
    assertTrue(json(response).path("error").asText().contains("application/json"), response.body());
    assertTrue(publisher.published().isEmpty());
  }

  @Test
  void acceptsFormEncodedDeliverySignedOverTheRawForm() {
    start();
    String payload = new String(resource("webhooks/issues.opened.json"), StandardCharsets.UTF_8);
    byte[] form =
        ("payload=" + URLEncoder.encode(payload, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.US_ASCII);
    HttpResponse<String> response =
        send(
            client,
            webhook(app.port(), "issues", "d-form", form, SECRET)
                .setHeader("Content-Type", "application/x-www-form-urlencoded")
                .build());

    assertEquals(200, response.statusCode(), response.body());
    Delivery d = publisher.published().get(0).delivery();
    assertEquals(payload, d.getPayloadJson());
    assertEquals("microsoft/DeepSpeed#4242", publisher.published().get(0).key());
  }

  @Test
  void refusesFormWithoutPayloadFieldWith400() throws IOException {
    start();
    byte[] form = "other=1".getBytes(StandardCharsets.US_ASCII);
    HttpResponse<String> response =
        send(
            client,
            webhook(app.port(), "issues", "d-form", form, SECRET)
                .setHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .build());
    assertEquals(400, response.statusCode());
    assertTrue(json(response).path("error").asText().contains("payload"), response.body());
  }

  @Test
  void publishesARedeliveryOnlyOnce() throws IOException {
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> first = post("issues", "d-same", body);
    HttpResponse<String> again = post("issues", "d-same", body);

    assertEquals(200, first.statusCode());
    assertEquals(200, again.statusCode());
    assertEquals("duplicate", json(again).path("status").asText());
    assertEquals(List.of("d-same"), publisher.deliveryIds());
  }

  @Test
  void answersOnlyOnceThePublisherAcknowledged() throws Exception {
    CompletableFuture<Void> ack = new CompletableFuture<>();
    publisher.answering(p -> ack);
    start();
    CompletableFuture<HttpResponse<String>> response =
        client.sendAsync(
            webhook(app.port(), "issues", "d-1", resource("webhooks/issues.opened.json"), SECRET)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Poll.until(
        Duration.ofSeconds(10), () -> "publish called", () -> publisher.published().size() == 1);
    assertFalse(response.isDone(), "no answer before Kafka acknowledged");

    ack.complete(null);
    assertEquals(200, response.get(10, TimeUnit.SECONDS).statusCode());
  }

  @Test
  void answers503WhenHandOffFailsAndAcceptsTheRedeliveryLater() throws IOException {
    publisher.failing(new IllegalStateException("disk full"));
    start();
    byte[] body = resource("webhooks/issues.opened.json");
    HttpResponse<String> failed = post("issues", "d-1", body);
    assertEquals(503, failed.statusCode());
    assertTrue(json(failed).path("error").asText().contains("redeliver"), failed.body());

    publisher.succeeding();
    HttpResponse<String> redelivered = post("issues", "d-1", body);
    assertEquals(200, redelivered.statusCode(), "a failed delivery id is not remembered as seen");
    assertEquals(List.of("d-1", "d-1"), publisher.deliveryIds());
  }

  @Test
  void answers202WhenKafkaIsAwayAndTheDeliveryIsSpooled() throws Exception {
    publisher.failing(new IllegalStateException("Kafka unreachable"));
    SpoolingPublisher spooling =
        SpoolingPublisher.open(publisher, tmp.resolve("spool"), Duration.ofSeconds(5));
    toClose.add(spooling);
    start(config().build(), spooling, List.of(new SpoolHealthCheck(spooling, 100)));

    HttpResponse<String> response = post("issues", "d-1", resource("webhooks/issues.opened.json"));
    assertEquals(202, response.statusCode(), response.body());
    assertEquals("spooled", json(response).path("status").asText());
    assertTrue(spooling.depth() >= 1);

    HttpResponse<String> health =
        send(
            client,
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/health"))
                .build());
    assertEquals(200, health.statusCode(), health.body());
    assertTrue(
        json(health).path("checks").path("spool").path("depth").asLong() >= 1, health.body());
  }

  @Test
  void acknowledgesButDoesNotPublishADeliveryOlderThanTheMaximumAge() throws IOException {
    start(config().maxDeliveryAge(Duration.ofDays(7)).build(), publisher, List.of());
    HttpResponse<String> old = post("issues", "d-old", resource("webhooks/issues.edited.old.json"));
    HttpResponse<String> fresh = post("issues", "d-new", resource("webhooks/issues.opened.json"));
    HttpResponse<String> noTimestamp =
        post("label", "d-label", resource("webhooks/label.created.json"));

    assertEquals(202, old.statusCode());
    assertEquals("stale", json(old).path("status").asText());
    assertEquals(200, fresh.statusCode());
    assertEquals(
        "recorded",
        json(noTimestamp).path("status").asText(),
        "without a timestamp the age cannot be judged: published");
    assertEquals(List.of("d-new", "d-label"), publisher.deliveryIds());
  }

  @Test
  void healthAnswers200WhenAllChecksPassAnd503WithTheReasonsOtherwise() throws IOException {
    HealthCheck ok = check("kafka", Optional.empty());
    HealthCheck bad = check("neo4j", Optional.of("Bolt unreachable at 127.0.0.1:7687"));
    HealthCheck throwing =
        new HealthCheck() {
          @Override
          public String name() {
            return "flink";
          }

          @Override
          public Optional<String> problem() {
            throw new IllegalStateException("boom");
          }
        };
    start(config().build(), publisher, List.of(ok));
    HttpResponse<String> up =
        send(client, HttpRequest.newBuilder(URI.create(url("/health"))).build());
    assertEquals(200, up.statusCode());
    assertEquals("UP", json(up).path("status").asText());
    app.stop();

    start(config().build(), publisher, List.of(ok, bad, throwing));
    HttpResponse<String> down =
        send(client, HttpRequest.newBuilder(URI.create(url("/health"))).build());
    assertEquals(503, down.statusCode());
    JsonNode body = json(down);
    assertEquals("DOWN", body.path("status").asText());
    assertEquals("UP", body.path("checks").path("kafka").path("status").asText());
    assertEquals(
        "neo4j: Bolt unreachable at 127.0.0.1:7687", body.path("problems").get(0).asText());
    assertTrue(
        body.path("problems").get(1).asText().startsWith("flink: the check itself failed"),
        down.body());
  }

  private static HealthCheck check(String name, Optional<String> problem) {
    return new HealthCheck() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<String> problem() {
        return problem;
      }
    };
  }

  private String url(String path) {
    return "http://127.0.0.1:" + app.port() + path;
  }

  @Test
  void metricsCountDeliveriesByEventActionAndOutcome() {
    start();
    post("issues", "d-1", resource("webhooks/issues.opened.json"));
    send(client, webhook(app.port(), "issues", "d-2", "{}".getBytes(), "wrong").build());

    HttpResponse<String> metrics =
        send(client, HttpRequest.newBuilder(URI.create(url("/metrics"))).build());
    assertEquals(200, metrics.statusCode());
    String text = metrics.body();
    assertTrue(
        text.contains(
            "faultline_webhook_deliveries_total{action=\"opened\",event=\"issues\",outcome=\"accepted\"} 1.0"),
        text);
    assertTrue(text.contains("outcome=\"unauthorized\""), text);
    assertTrue(text.contains("faultline_webhook_handoff_seconds"), text);
  }

  @Test
  void stopDrainsInFlightRequests() throws Exception {
    CompletableFuture<Void> ack = new CompletableFuture<>();
    publisher.answering(p -> ack);
    start();
    CompletableFuture<HttpResponse<String>> response =
        client.sendAsync(
            webhook(app.port(), "issues", "d-1", resource("webhooks/issues.opened.json"), SECRET)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Poll.until(
        Duration.ofSeconds(10), () -> "publish called", () -> publisher.published().size() == 1);

    CompletableFuture<Void> stopped = CompletableFuture.runAsync(app::stop);
    ack.complete(null);

    assertEquals(
        200,
        response.get(20, TimeUnit.SECONDS).statusCode(),
        "in-flight request finished during stop");
    stopped.get(20, TimeUnit.SECONDS);
    app = null;
  }

  @Test
  void localModeWithoutSecretAcceptsUnsignedDeliveriesOnLoopbackOnly() {
    IngestConfig local = IngestConfig.builder().localMode(true).spoolDir(tmp).build();
    WebhookApp remote =
        new WebhookApp(
            local,
            publisher,
            List.of(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            List.of());
    assertThrows(IllegalArgumentException.class, () -> remote.start("0.0.0.0", 0));

    start(local, publisher, List.of());
    HttpResponse<String> response =
        send(
            client,
            webhook(app.port(), "issues", "d-1", resource("webhooks/issues.opened.json"), null)
                .build());
    assertEquals(200, response.statusCode(), response.body());
  }

  @Test
  void unknownRoutesAndOversizedHeadersAreAnsweredWithJsonErrors() throws IOException {
    start(config().maxHeaderBytes(2048).build(), publisher, List.of());
    HttpResponse<String> missing =
        send(client, HttpRequest.newBuilder(URI.create(url("/nope"))).build());
    assertEquals(404, missing.statusCode());
    assertTrue(json(missing).path("error").asText().contains("/nope"));

    HttpResponse<String> bigHeaders =
        send(
            client,
            webhook(app.port(), "issues", "d-1", "{}".getBytes(), SECRET)
                .header("X-Padding", "x".repeat(4096))
                .build());
    assertEquals(431, bigHeaders.statusCode());
    assertNull(publisher.published().isEmpty() ? null : "published");
  }

  @Test
  void extraRouteRegistrationsShareTheServer() {
    app =
        new WebhookApp(
                config().build(),
                publisher,
                List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of(cfg -> cfg.routes.get("/dashboard", ctx -> ctx.result("hello"))))
            .start("127.0.0.1", 0);
    HttpResponse<String> response =
        send(client, HttpRequest.newBuilder(URI.create(url("/dashboard"))).build());
    assertEquals("hello", response.body());
  }

  @SuppressWarnings("unused")
  private static String id() {
    return UUID.randomUUID().toString();
  }
}
