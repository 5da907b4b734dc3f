package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.WebhookController.Received;
import dev.faultline.ingest.WebhookController.Reply;
import dev.faultline.ingest.WebhookController.Request;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import io.javalin.http.HttpResponseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The receiver's decisions as pure functions, without a server (WebhookAppTest has the server). */
class WebhookDecisionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX = 1_000;
  private static final Instant NOW = Instant.parse("2025-03-10T12:00:00.123456Z");

  private static Request request(String mediaType, long length, String event, String id) {
    return new Request(mediaType, length, event, id, null);
  }

  private static int status(Request r) {
    return assertThrows(HttpResponseException.class, () -> WebhookController.checkHeaders(r, MAX))
        .getStatus();
  }

  private static Received received(String event, String payload) throws Exception {
    JsonNode node = JSON.readTree(payload);
    String action = node.path("action").isTextual() ? node.path("action").asText() : null;
    return new Received(event, "d-1", action, node, payload.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void headersAreCheckedInOrderContentTypeSizeEventDeliveryId() {
    assertDoesNotThrow(
        () ->
            WebhookController.checkHeaders(request("application/json", 10, "issues", "d-1"), MAX));
    assertDoesNotThrow(
        () ->
            WebhookController.checkHeaders(
                request("application/x-www-form-urlencoded", -1, "issues", "d-1"), MAX));
    // Each request is wrong in this and every later respect: the first check decides.
    assertEquals(415, status(request("text/plain", MAX + 1, null, null)));
    assertEquals(415, status(request("", 10, "issues", "d-1")));
    assertEquals(413, status(request("application/json", MAX + 1, null, null)));
    assertEquals(400, status(request("application/json", MAX, null, null)));
    assertEquals(400, status(request("application/json", MAX, " ", "d-1")));
    assertEquals(400, status(request("application/json", MAX, "Issues!", "d-1")));
    assertEquals(400, status(request("application/json", MAX, "issues", null)));
    assertEquals(400, status(request("application/json", MAX, "issues", "a b")));
    assertEquals(400, status(request("application/json", MAX, "issues", "x".repeat(129))));
  }

  @Test
  void theRejectionSaysWhichHeaderAndNeverEchoesControlCharacters() {
    var e =
        assertThrows(
            HttpResponseException.class,
            () ->
                WebhookController.checkHeaders(
                    request("text/\u0001plain", 10, "issues", "d-1"), MAX));
    assertTrue(e.getMessage().contains("'text/?plain'"), e.getMessage());
    var missing =
        assertThrows(
            HttpResponseException.class,
            () ->
                WebhookController.checkHeaders(request("application/json", 1, "issues", ""), MAX));
    assertTrue(missing.getMessage().contains(WebhookController.DELIVERY_HEADER));
  }

  @Test
  void aSignatureMustBePresentAndMatchTheBody() {
    WebhookSignature signature = new WebhookSignature(List.of("s3cret"));
    byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    String good = WebhookSignature.sign("s3cret", body);
    assertDoesNotThrow(() -> WebhookController.checkSignature(signature, body, good));
    for (String header : new String[] {null, "", WebhookSignature.sign("other", body)}) {
      var e =
          assertThrows(
              HttpResponseException.class,
              () -> WebhookController.checkSignature(signature, body, header));
      assertEquals(401, e.getStatus());
    }
  }

  @Test
  void aChangeOlderThanTheMaximumAgeIsStaleAndAZeroAgeTurnsTheCheckOff() throws Exception {
    Received old =
        received(
            "issues",
            "{\"action\":\"edited\",\"issue\":{\"updated_at\":\"2025-03-01T00:00:00Z\"}}");
    Received fresh =
        received(
            "issues",
            "{\"action\":\"edited\",\"issue\":{\"updated_at\":\"2025-03-09T00:00:00Z\"}}");
    Received undated = received("issues", "{\"action\":\"labeled\",\"issue\":{}}");
    Duration week = Duration.ofDays(7);
    assertEquals(
        Optional.of(Instant.parse("2025-03-01T00:00:00Z")),
        WebhookController.staleChange(old, week, NOW));
    assertEquals(Optional.empty(), WebhookController.staleChange(fresh, week, NOW));
    assertEquals(Optional.empty(), WebhookController.staleChange(undated, week, NOW));
    assertEquals(Optional.empty(), WebhookController.staleChange(old, Duration.ZERO, NOW));
    // exactly at the boundary is not older
    assertEquals(
        Optional.empty(),
        WebhookController.staleChange(
            old, Duration.between(Instant.parse("2025-03-01T00:00:00Z"), NOW), NOW));
  }

  @Test
  void theEnvelopeCarriesTheHeadersTheRepositoryAndThePayloadAsSent() throws Exception {
    String payload =
        "{\"action\":\"opened\",\"repository\":{\"full_name\":\"acme/trainer\"},\"x\":\"é\"}";
    Delivery d =
        AvroCodec.deliveries().decode(WebhookController.encoded(received("issues", payload), NOW));
    assertEquals("d-1", d.getDeliveryId());
    assertEquals("issues", d.getEvent());
    assertEquals("opened", d.getAction());
    assertEquals("acme/trainer", d.getRepository());
    assertEquals(Instant.parse("2025-03-10T12:00:00.123Z"), d.getReceivedAt());
    assertEquals(DeliverySource.WEBHOOK, d.getSource());
    assertEquals(payload, d.getPayloadJson());
  }

  @Test
  void aDurableDeliveryIsAnsweredBySpoolAndUse() throws Exception {
    Received used = received("issues", "{\"action\":\"opened\"}");
    Received unused = received("label", "{\"action\":\"created\"}");
    assertReply(
        202,
        "spooled",
        Map.of("status", "spooled", "used", true),
        WebhookController.handedOff(used, Handoff.SPOOLED, true));
    assertReply(
        202,
        "spooled",
        Map.of("status", "spooled", "used", false),
        WebhookController.handedOff(unused, Handoff.SPOOLED, false));
    assertReply(
        202,
        "unused",
        Map.of("status", "recorded", "used", false),
        WebhookController.handedOff(unused, Handoff.ACKNOWLEDGED, false));
    assertReply(
        200,
        "accepted",
        Map.of("status", "accepted", "used", true),
        WebhookController.handedOff(used, Handoff.ACKNOWLEDGED, true));
  }

  @Test
  void repliesNameTheDeliveryAndTheActionOnlyWhenThereIsOne() throws Exception {
    Reply withAction = WebhookController.duplicate(received("issues", "{\"action\":\"opened\"}"));
    Reply without = WebhookController.duplicate(received("push", "{}"));
    assertEquals(200, withAction.status());
    assertEquals(
        List.of("status", "deliveryId", "event", "action"),
        List.copyOf(withAction.body().keySet()));
    assertEquals("opened", withAction.body().get("action"));
    assertFalse(without.body().containsKey("action"));
    Reply stale = WebhookController.stale(received("issues", "{}"), Duration.ofDays(3));
    assertEquals(202, stale.status());
    assertEquals("the change is older than PT72H; treated as a replay", stale.body().get("reason"));
    assertEquals(503, WebhookController.failed("d-9").status());
    assertEquals("d-9", WebhookController.failed("d-9").body().get("deliveryId"));
    assertEquals(
        Map.of("status", "pong", "deliveryId", "d-2"), WebhookController.pong("d-2").body());
  }

  private static void assertReply(int status, String outcome, Map<String, Object> some, Reply r) {
    assertEquals(status, r.status());
    assertEquals(outcome, r.outcome());
    some.forEach((k, v) -> assertEquals(v, r.body().get(k), k));
    assertEquals("d-1", r.body().get("deliveryId"));
  }
}
