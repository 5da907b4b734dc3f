package dev.faultline.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.internal.EncodedDelivery;
import dev.faultline.ingest.internal.PayloadFields;
import dev.faultline.ingest.internal.RequestBodies;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
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
  private static final byte[] NO_BYTES = new byte[0];

  /** GitHub sends GUIDs; allow any short token without spaces or control characters. */
  private static final Pattern DELIVERY_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private final IngestConfig config;
  private final DeliveryPublisher publisher;
  private final WebhookSignature signature;
  private final RecentDeliveries recent;
  private final Metrics metrics;
  private final Clock clock;
  private final Executor answers;
  private final ObjectMapper mapper;

  /**
   * @param answers where a delivery's answer is written once its hand-off completed: never the
   *     thread that completes it (Kafka's single I/O thread, which would otherwise write every HTTP
   *     answer in between its sends)
   */
  WebhookController(
      IngestConfig config,
      DeliveryPublisher publisher,
      RecentDeliveries recent,
      Metrics metrics,
      Clock clock,
      Executor answers) {
    this.config = config;
    this.answers = answers;
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

  /** What the handler reads from a request before its body: the headers the checks look at. */
  record Request(
      String mediaType, long declaredLength, String event, String deliveryId, String signature) {
    static Request of(Context ctx) {
      return new Request(
          WebhookController.mediaType(ctx.header("Content-Type")),
          ctx.req().getContentLengthLong(),
          ctx.header(EVENT_HEADER),
          ctx.header(DELIVERY_HEADER),
          ctx.header(WebhookSignature.HEADER));
    }
  }

  /**
   * A delivery whose headers, body and signature passed: what every later decision reads. {@code
   * payload} holds only the fields the receiver reads ({@link PayloadFields}); {@code payloadBytes}
   * the whole payload.
   */
  record Received(
      String event, String deliveryId, String action, JsonNode payload, byte[] payloadBytes) {}

  /** An answer: the HTTP status, the outcome the metrics count, the JSON body. */
  record Reply(int status, String outcome, Map<String, ?> body) {}

  void receive(Context ctx) throws IOException {
    Request request = Request.of(ctx);
    checkHeaders(request, config.maxBodyBytes());
    byte[] body = readBody(ctx, request.declaredLength());
    if (signature != null) {
      checkSignature(signature, body, request.signature());
    }
    Received delivery = read(request, body);
    if (isPing(delivery.event())) {
      LOG.info(
          "Ping from GitHub (delivery {}, hook {})",
          delivery.deliveryId(),
          delivery.payload().path("hook_id").asText("?"));
      answer(ctx, delivery, pong(delivery.deliveryId()));
      return;
    }
    Optional<Instant> staleChange = staleChange(delivery, config.maxDeliveryAge(), clock.instant());
    if (staleChange.isPresent()) {
      // GitHub redelivers for 3 days (GHES 7); anything older is a replay we may no longer
      // remember.
      LOG.info(
          "Delivery {} reports a change from {}, older than {}: not published again",
          delivery.deliveryId(),
          staleChange.get(),
          config.maxDeliveryAge());
      answer(ctx, delivery, stale(delivery, config.maxDeliveryAge()));
      return;
    }
    CompletableFuture<Handoff> handoff = new CompletableFuture<>();
    CompletableFuture<Handoff> earlier = recent.claim(delivery.deliveryId(), handoff);
    if (earlier != null) {
      answerAfter(ctx, delivery, earlier);
    } else {
      handOff(ctx, delivery, handoff);
    }
  }

  /**
   * The header checks, in order: 415 for a content type GitHub's webhook settings do not send, 413
   * for a declared body over the limit, 400 for a missing or malformed event or delivery id.
   */
  static void checkHeaders(Request request, long maxBodyBytes) {
    String mediaType = request.mediaType();
    if (!JSON.equals(mediaType) && !FORM.equals(mediaType)) {
      throw new UnsupportedMediaTypeResponse(
          "Content-Type must be application/json or application/x-www-form-urlencoded (the webhook's content"
              + " type setting), was "
              + (mediaType.isEmpty() ? "none" : "'" + printable(mediaType) + "'"));
    }
    if (request.declaredLength() > maxBodyBytes) {
      throw RequestBodies.tooLarge(request.declaredLength(), maxBodyBytes);
    }
    String event = request.event();
    if (event == null || event.isBlank()) {
      throw new BadRequestResponse(
          "Missing " + EVENT_HEADER + " header (the GitHub event name, e.g. issues)");
    }
    if (!GitHubEvents.isWellFormedEvent(event)) {
      throw new BadRequestResponse(
          EVENT_HEADER + " is not a GitHub event name (lower case letters and _)");
    }
    String deliveryId = request.deliveryId();
    if (deliveryId == null || deliveryId.isBlank()) {
      throw new BadRequestResponse("Missing " + DELIVERY_HEADER + " header (the delivery's GUID)");
    }
    if (!DELIVERY_ID.matcher(deliveryId).matches()) {
      throw new BadRequestResponse(
          DELIVERY_HEADER + " is not a delivery GUID (letters, digits and -, at most 128)");
    }
  }

  private byte[] readBody(Context ctx, long declared) {
    try {
      return RequestBodies.readLimited(ctx.req().getInputStream(), declared, config.maxBodyBytes());
    } catch (IOException e) {
      // The client went away or stalled past the idle timeout mid-body.
      throw new BadRequestResponse(
          "Request body could not be read completely (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** 401 unless the body is signed under one of the configured secrets. */
  static void checkSignature(WebhookSignature signature, byte[] body, String header) {
    if (header == null || header.isBlank()) {
      throw new UnauthorizedResponse(
          "Missing " + WebhookSignature.HEADER + " header: set a secret on the GitHub webhook");
    }
    if (!signature.verify(body, header)) {
      throw new UnauthorizedResponse(
          WebhookSignature.HEADER + " does not match the body under any configured secret");
    }
  }

  /** The payload (a form's {@code payload} field, or the body itself) parsed; 400 if not JSON. */
  Received read(Request request, byte[] body) {
    byte[] payloadBytes = FORM.equals(request.mediaType()) ? RequestBodies.formPayload(body) : body;
    JsonNode payload = parse(payloadBytes);
    return new Received(
        request.event(),
        request.deliveryId(),
        GitHubEvents.action(payload).orElse(null),
        payload,
        payloadBytes);
  }

  static boolean isPing(String event) {
    return "ping".equals(event);
  }

  /**
   * The time of the reported change when it is older than {@code maxAge} before {@code now} (a zero
   * age: nothing is stale); empty when the delivery is fresh or its age cannot be judged.
   */
  static Optional<Instant> staleChange(Received delivery, Duration maxAge, Instant now) {
    if (maxAge.isZero()) {
      return Optional.empty();
    }
    return GitHubEvents.changedAt(delivery.event(), delivery.action(), delivery.payload())
        .filter(changedAt -> changedAt.isBefore(now.minus(maxAge)));
  }

  /**
   * The raw topic's record of a delivery received at {@code now}, as its Avro single-object
   * encoding written from the payload's bytes (the payload never becomes a {@code String}).
   */
  static byte[] encoded(Received delivery, Instant now) {
    byte[] payload = delivery.payloadBytes();
    return EncodedDelivery.encode(
        new EncodedDelivery.Fields(
            delivery.deliveryId(),
            delivery.event(),
            delivery.action(),
            DeliveryKey.repository(delivery.payload()).orElse(null),
            now.truncatedTo(ChronoUnit.MILLIS),
            DeliverySource.WEBHOOK),
        payload,
        0,
        payload.length,
        NO_BYTES);
  }

  static Reply pong(String deliveryId) {
    return new Reply(200, "ping", Map.of("status", "pong", "deliveryId", deliveryId));
  }

  static Reply stale(Received delivery, Duration maxAge) {
    return new Reply(
        202,
        "stale",
        body(
            "stale",
            delivery,
            Map.of("reason", "the change is older than " + maxAge + "; treated as a replay")));
  }

  static Reply duplicate(Received delivery) {
    return new Reply(200, "duplicate", body("duplicate", delivery, Map.of()));
  }

  /** The answer once the delivery is durable: spooled, recorded (unused event) or accepted. */
  static Reply handedOff(Received delivery, Handoff handoff, boolean used) {
    if (handoff == Handoff.SPOOLED) {
      return new Reply(202, "spooled", body("spooled", delivery, Map.of("used", used)));
    }
    if (!used) {
      return new Reply(202, "unused", body("recorded", delivery, Map.of("used", false)));
    }
    return new Reply(200, "accepted", body("accepted", delivery, Map.of("used", true)));
  }

  static Reply failed(String deliveryId) {
    return new Reply(
        503,
        "failed",
        Map.of(
            "status",
            503,
            "error",
            "The delivery could not be stored durably (Kafka and the local spool both failed); redeliver it"
                + " later",
            "deliveryId",
            deliveryId));
  }

  /** A redelivery while (or after) the first copy is handed off: answered as that one ends. */
  private void answerAfter(Context ctx, Received delivery, CompletableFuture<Handoff> earlier) {
    ctx.future(
        () ->
            earlier.handle(
                (h, error) -> {
                  if (error != null) {
                    fail(ctx, delivery, error);
                  } else {
                    answer(ctx, delivery, duplicate(delivery));
                  }
                  return null;
                }));
  }

  /** Publishes the delivery and answers once Kafka acknowledged it or the spool holds it. */
  private void handOff(Context ctx, Received delivery, CompletableFuture<Handoff> handoff) {
    byte[] record = encoded(delivery, clock.instant());
    String key = DeliveryKey.of(delivery.event(), delivery.payload());
    boolean used = UsedEvent.isUsed(delivery.event(), delivery.action());
    long started = System.nanoTime();
    CompletableFuture<Handoff> publishing;
    try {
      publishing = publisher.handOffEncoded(key, delivery.deliveryId(), record);
    } catch (RuntimeException e) {
      publishing = CompletableFuture.failedFuture(e);
    }
    // Completed on the answer executor: whatever runs on completion (this answer, and a redelivery
    // waiting on it) must not run on Kafka's I/O thread.
    publishing.whenCompleteAsync(
        (h, e) -> {
          if (e != null) {
            handoff.completeExceptionally(e);
          } else {
            handoff.complete(h);
          }
        },
        answers);
    ctx.future(
        () ->
            handoff.handle(
                (h, error) -> {
                  metrics.handoff(
                      System.nanoTime() - started,
                      error == null ? h.name().toLowerCase(Locale.ROOT) : "failed");
                  if (error != null) {
                    recent.release(delivery.deliveryId(), handoff);
                    fail(ctx, delivery, error);
                  } else {
                    answer(ctx, delivery, handedOff(delivery, h, used));
                  }
                  return null;
                }));
  }

  private void fail(Context ctx, Received delivery, Throwable error) {
    LOG.error(
        "Delivery {} ({}) could not be stored durably: {}",
        delivery.deliveryId(),
        delivery.event(),
        error.toString());
    answer(ctx, delivery, failed(delivery.deliveryId()));
  }

  private void answer(Context ctx, Received delivery, Reply reply) {
    metrics.delivery(delivery.event(), delivery.action(), reply.outcome());
    respond(ctx, reply.status(), reply.body());
  }

  private JsonNode parse(byte[] payload) {
    JsonNode node;
    try {
      node = PayloadFields.read(mapper, payload);
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
      String status, Received delivery, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status);
    body.put("deliveryId", delivery.deliveryId());
    body.put("event", delivery.event());
    if (delivery.action() != null) {
      body.put("action", delivery.action());
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
