package dev.faultline.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.internal.RequestBodies;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.UsedEvent;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.http.UnsupportedMediaTypeResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /webhooks/github}: checks a GitHub delivery and hands it to the {@link
 * DeliveryPublisher}, answering only once it is durable. Never logs payloads or secrets.
 */
final class WebhookController {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookController.class);
  static final String EVENT_HEADER = "X-GitHub-Event";
  static final String DELIVERY_HEADER = "X-GitHub-Delivery";
  private static final String JSON = "application/json";
  private static final String FORM = "application/x-www-form-urlencoded";

  /** GitHub sends GUIDs; allow any short token without spaces or control characters. */
  private static final Pattern DELIVERY_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private final IngestConfig config;
  private final DeliveryPublisher publisher;
  private final WebhookSignature signature;
  private final RecentDeliveries recent;
  private final Metrics metrics;
  private final Clock clock;
  private final ObjectMapper mapper;

  WebhookController(
      IngestConfig config,
      DeliveryPublisher publisher,
      RecentDeliveries recent,
      Metrics metrics,
      Clock clock) {
    this.config = config;
    this.publisher = publisher;
    this.signature = config.verifiesSignatures() ? new WebhookSignature(config.secrets()) : null;
    this.recent = recent;
    this.metrics = metrics;
    this.clock = clock;
    this.mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    // A 25 MB payload may hold one long string (an issue body); Jackson's default cap is lower.
    mapper
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder()
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, config.maxBodyBytes()))
                .build());
  }

  void receive(Context ctx) throws IOException {
    String mediaType = mediaType(ctx.header("Content-Type"));
    if (!JSON.equals(mediaType) && !FORM.equals(mediaType)) {
      throw new UnsupportedMediaTypeResponse(
          "Content-Type must be application/json or application/x-www-form-urlencoded (the webhook's content"
              + " type setting), was "
              + (mediaType.isEmpty() ? "none" : "'" + printable(mediaType) + "'"));
    }
    long declared = ctx.req().getContentLengthLong();
    if (declared > config.maxBodyBytes()) {
      throw RequestBodies.tooLarge(declared, config.maxBodyBytes());
    }
    String event = ctx.header(EVENT_HEADER);
    if (event == null || event.isBlank()) {
      throw new BadRequestResponse(
          "Missing " + EVENT_HEADER + " header (the GitHub event name, e.g. issues)");
    }
    if (!GitHubEvents.isWellFormedEvent(event)) {
      throw new BadRequestResponse(
          EVENT_HEADER + " is not a GitHub event name (lower case letters and _)");
    }
    String deliveryId = ctx.header(DELIVERY_HEADER);
    if (deliveryId == null || deliveryId.isBlank()) {
      throw new BadRequestResponse("Missing " + DELIVERY_HEADER + " header (the delivery's GUID)");
    }
    if (!DELIVERY_ID.matcher(deliveryId).matches()) {
      throw new BadRequestResponse(
          DELIVERY_HEADER + " is not a delivery GUID (letters, digits and -, at most 128)");
    }
    byte[] body;
    try {
      body = RequestBodies.readLimited(ctx.req().getInputStream(), declared, config.maxBodyBytes());
    } catch (IOException e) {
      // The client went away or stalled past the idle timeout mid-body.
      throw new BadRequestResponse(
          "Request body could not be read completely (" + e.getClass().getSimpleName() + ")");
    }
    if (signature != null) {
      String header = ctx.header(WebhookSignature.HEADER);
      if (header == null || header.isBlank()) {
        throw new UnauthorizedResponse(
            "Missing " + WebhookSignature.HEADER + " header: set a secret on the GitHub webhook");
      }
      if (!signature.verify(body, header)) {
        throw new UnauthorizedResponse(
            WebhookSignature.HEADER + " does not match the body under any configured secret");
      }
    }
    byte[] payloadBytes = FORM.equals(mediaType) ? RequestBodies.formPayload(body) : body;
    JsonNode payload = parse(payloadBytes);
    String action = GitHubEvents.action(payload).orElse(null);

    if ("ping".equals(event)) {
      metrics.delivery(event, action, "ping");
      LOG.info(
          "Ping from GitHub (delivery {}, hook {})",
          deliveryId,
          payload.path("hook_id").asText("?"));
      respond(ctx, 200, Map.of("status", "pong", "deliveryId", deliveryId));
      return;
    }
    Optional<Instant> changedAt = GitHubEvents.changedAt(event, action, payload);
    if (!config.maxDeliveryAge().isZero()
        && changedAt.isPresent()
        && changedAt.get().isBefore(clock.instant().minus(config.maxDeliveryAge()))) {
      // GitHub redelivers for 3 days (GHES 7); anything older is a replay we may no longer
      // remember.
      metrics.delivery(event, action, "stale");
      LOG.info(
          "Delivery {} reports a change from {}, older than {}: not published again",
          deliveryId,
          changedAt.get(),
          config.maxDeliveryAge());
      respond(
          ctx,
          202,
          body(
              "stale",
              deliveryId,
              event,
              action,
              Map.of(
                  "reason",
                  "the change is older than "
                      + config.maxDeliveryAge()
                      + "; treated as a replay")));
      return;
    }

    CompletableFuture<Handoff> handoff = new CompletableFuture<>();
    CompletableFuture<Handoff> earlier = recent.claim(deliveryId, handoff);
    if (earlier != null) {
      ctx.future(
          () ->
              earlier.handle(
                  (h, error) -> {
                    if (error != null) {
                      fail(ctx, deliveryId, event, action, error);
                    } else {
                      metrics.delivery(event, action, "duplicate");
                      respond(ctx, 200, body("duplicate", deliveryId, event, action, Map.of()));
                    }
                    return null;
                  }));
      return;
    }

    Delivery delivery =
        Delivery.newBuilder()
            .setDeliveryId(deliveryId)
            .setEvent(event)
            .setAction(action)
            .setRepository(DeliveryKey.repository(payload).orElse(null))
            .setReceivedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS))
            .setSource(DeliverySource.WEBHOOK)
            .setPayloadJson(new String(payloadBytes, StandardCharsets.UTF_8))
            .build();
    String key = DeliveryKey.of(event, payload);
    boolean used = UsedEvent.isUsed(event, action);
    long started = System.nanoTime();
    CompletableFuture<Handoff> publishing;
    try {
      publishing = publisher.handOff(key, delivery);
    } catch (RuntimeException e) {
      publishing = CompletableFuture.failedFuture(e);
    }
    publishing.whenComplete(
        (h, e) -> {
          if (e != null) {
            handoff.completeExceptionally(e);
          } else {
            handoff.complete(h);
          }
        });
    ctx.future(
        () ->
            handoff.handle(
                (h, error) -> {
                  metrics.handoff(
                      System.nanoTime() - started,
                      error == null ? h.name().toLowerCase(Locale.ROOT) : "failed");
                  if (error != null) {
                    recent.release(deliveryId, handoff);
                    fail(ctx, deliveryId, event, action, error);
                  } else if (h == Handoff.SPOOLED) {
                    metrics.delivery(event, action, "spooled");
                    respond(
                        ctx, 202, body("spooled", deliveryId, event, action, Map.of("used", used)));
                  } else if (!used) {
                    metrics.delivery(event, action, "unused");
                    respond(
                        ctx,
                        202,
                        body("recorded", deliveryId, event, action, Map.of("used", false)));
                  } else {
                    metrics.delivery(event, action, "accepted");
                    respond(
                        ctx,
                        200,
                        body("accepted", deliveryId, event, action, Map.of("used", true)));
                  }
                  return null;
                }));
  }

  private void fail(Context ctx, String deliveryId, String event, String action, Throwable error) {
    metrics.delivery(event, action, "failed");
    LOG.error(
        "Delivery {} ({}) could not be stored durably: {}", deliveryId, event, error.toString());
    respond(
        ctx,
        503,
        Map.of(
            "status",
            503,
            "error",
            "The delivery could not be stored durably (Kafka and the local spool both failed); redeliver it"
                + " later",
            "deliveryId",
            deliveryId));
  }

  private JsonNode parse(byte[] payload) {
    JsonNode node;
    try {
      node = mapper.readTree(payload);
    } catch (JsonProcessingException e) {
      // The location says where; the original message would quote the payload.
      throw new BadRequestResponse(
          "Body is not valid JSON (" + reason(e) + " at " + location(e) + ")");
    } catch (IOException e) {
      throw new BadRequestResponse(
          "Body could not be read as JSON: " + e.getClass().getSimpleName());
    }
    if (node == null || !node.isObject()) {
      throw new BadRequestResponse("Body must be a JSON object (a GitHub webhook payload)");
    }
    return node;
  }

  /** Jackson's reason without the part that may quote the payload. */
  private static String reason(JsonProcessingException e) {
    String message =
        e.getOriginalMessage() == null ? "parse error" : e.getOriginalMessage().split("\n", 2)[0];
    int quote = message.indexOf('\'');
    int paren = message.indexOf('(');
    int cut = quote < 0 ? paren : paren < 0 ? quote : Math.min(quote, paren);
    return (cut < 0 ? message : message.substring(0, cut)).trim();
  }

  private static String location(JsonProcessingException e) {
    return e.getLocation() == null
        ? "unknown position"
        : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
  }

  private static Map<String, Object> body(
      String status, String deliveryId, String event, String action, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status);
    body.put("deliveryId", deliveryId);
    body.put("event", event);
    if (action != null) {
      body.put("action", action);
    }
    body.putAll(extra);
    return body;
  }

  private void respond(Context ctx, int status, Map<String, ?> body) {
    try {
      ctx.status(status).contentType("application/json").result(mapper.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
  }

  private static String printable(String s) {
    String cut = s.length() > 80 ? s.substring(0, 80) + "…" : s;
    return cut.replaceAll("[^\\x20-\\x7e]", "?");
  }

  /** The receiver's meters. */
  static final class Metrics {
    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> handoffTimers = new ConcurrentHashMap<>();

    Metrics(MeterRegistry registry) {
      this.registry = registry;
    }

    void delivery(String event, String action, String outcome) {
      registry
          .counter(
              "faultline.webhook.deliveries",
              "event",
              GitHubEvents.eventTag(event),
              "action",
              GitHubEvents.actionTag(action),
              "outcome",
              outcome)
          .increment();
    }

    void handoff(long nanos, String result) {
      handoffTimers
          .computeIfAbsent(
              result,
              r ->
                  Timer.builder("faultline.webhook.handoff")
                      .description(
                          "From a verified delivery to Kafka's acknowledgement or the spool's fsync")
                      .tag("result", r)
                      .publishPercentiles(0.5, 0.95, 0.99)
                      .register(registry))
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }
}
