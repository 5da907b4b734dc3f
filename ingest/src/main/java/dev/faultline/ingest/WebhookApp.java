package dev.faultline.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.internal.JsonErrorHandler;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook receiver: {@code POST /webhooks/github}, {@code GET /health}, {@code GET /metrics},
 * plus any routes the caller registers (a dashboard on the same server). Separate from {@code main}
 * so tests start the real app on port 0.
 *
 * <p>Every error is answered as JSON {@code {"status":<code>,"error":"<what was wrong>"}}; the
 * mapping lives in {@link #configure}.
 */
public final class WebhookApp {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookApp.class);
  public static final String WEBHOOK_PATH = "/webhooks/github";
  public static final String HEALTH_PATH = "/health";
  public static final String METRICS_PATH = "/metrics";

  private final IngestConfig config;
  private final DeliveryPublisher publisher;
  private final PrometheusMeterRegistry registry;
  private final List<Consumer<JavalinConfig>> extraRoutes;
  private final RecentDeliveries recent;
  private final Clock clock;
  private final HealthController health;
  private final WebhookController.Metrics metrics;
  private final ObjectMapper mapper = new ObjectMapper();
  private Javalin javalin;
  private WebhookController webhooks;
  private ExecutorService answers;

  /**
   * @param publisher where deliveries go; usually a {@link SpoolingPublisher} over a {@link
   *     KafkaDeliveryPublisher}. Not closed by {@link #stop()}: its owner closes it after the app
   *     stopped.
   * @param healthChecks all must pass for {@code /health} to answer 200
   * @param extraRoutes further route registrations on the same server
   */
  public WebhookApp(
      IngestConfig config,
      DeliveryPublisher publisher,
      List<HealthCheck> healthChecks,
      PrometheusMeterRegistry registry,
      List<Consumer<JavalinConfig>> extraRoutes) {
    this(config, publisher, healthChecks, registry, extraRoutes, Clock.systemUTC());
  }

  /** As above, with the clock that judges delivery age. */
  public WebhookApp(
      IngestConfig config,
      DeliveryPublisher publisher,
      List<HealthCheck> healthChecks,
      PrometheusMeterRegistry registry,
      List<Consumer<JavalinConfig>> extraRoutes,
      Clock clock) {
    this.config = config;
    this.publisher = publisher;
    this.registry = registry;
    this.extraRoutes = List.copyOf(extraRoutes);
    this.metrics = new WebhookController.Metrics(registry);
    this.recent = new RecentDeliveries(config.dedupeCapacity());
    this.clock = clock;
    this.health = new HealthController(healthChecks);
  }

  /**
   * Starts listening on {@code host:port} (port 0: a free port, see {@link #port()}).
   *
   * @throws IllegalArgumentException in local mode when {@code host} is not a loopback address
   */
  public synchronized WebhookApp start(String host, int port) {
    if (javalin != null) {
      throw new IllegalStateException("Already started on port " + port());
    }
    if (config.localMode() && !isLoopback(host)) {
      throw new IllegalArgumentException(
          "Local mode listens on loopback only; start on 127.0.0.1 (was " + host + ")");
    }
    if (!config.verifiesSignatures()) {
      LOG.warn("No webhook secret configured: accepting unsigned deliveries (local mode only)");
    }
    if (publisher instanceof MeterBinder binder) {
      binder.bindTo(registry);
    }
    answers = answerExecutor();
    webhooks = new WebhookController(config, publisher, recent, metrics, clock, answers);
    javalin = Javalin.create(cfg -> configure(cfg, host, port));
    javalin.start();
    LOG.info("Webhook receiver listening on http://{}:{}{}", host, port(), WEBHOOK_PATH);
    return this;
  }

  private void configure(JavalinConfig cfg, String host, int port) {
    cfg.startup.showJavalinBanner = false;
    cfg.startup.showOldJavalinVersionWarning = false;
    cfg.http.maxRequestSize = config.maxBodyBytes();
    // Kafka's hand-off and the spool both finish within the hand-off timeout; this is a last
    // resort.
    cfg.http.asyncTimeout = config.handoffTimeout().toMillis() * 3;
    cfg.jetty.timeoutStatus = 503;
    cfg.jetty.modifyHttpConfiguration(
        http -> {
          http.setRequestHeaderSize(config.maxHeaderBytes());
          http.setSendServerVersion(false);
          http.setSendXPoweredBy(false);
        });
    cfg.jetty.modifyServer(
        server -> {
          // Graceful stop: refuse new requests, let in-flight ones finish (their hand-off) up to
          // the timeout.
          GracefulHandler graceful = new GracefulHandler();
          // Idle keep-alive connections need not hold the shutdown up for long: they have nothing
          // in flight.
          graceful.setShutdownIdleTimeout(200);
          server.setHandler(graceful);
          server.setStopTimeout(config.shutdownTimeout().toMillis());
          server.setErrorHandler(new JsonErrorHandler());
        });
    cfg.jetty.addConnector(
        (server, http) -> {
          ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
          connector.setHost(host);
          connector.setPort(port);
          connector.setIdleTimeout(config.idleTimeout().toMillis());
          return connector;
        });

    cfg.routes.post(WEBHOOK_PATH, webhooks::receive);
    cfg.routes.get(HEALTH_PATH, health::health);
    cfg.routes.get(METRICS_PATH, this::metrics);
    cfg.routes.exception(HttpResponseException.class, this::httpError);
    cfg.routes.exception(Exception.class, this::unexpectedError);
    cfg.routes.error(
        404, ctx -> errorBody(ctx, 404, "No such endpoint: " + ctx.method() + " " + ctx.path()));
    cfg.routes.error(
        405,
        ctx -> errorBody(ctx, 405, "Method " + ctx.method() + " not allowed on " + ctx.path()));
    extraRoutes.forEach(r -> r.accept(cfg));
  }

  private void metrics(Context ctx) {
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape());
  }

  /** The one place typed HTTP exceptions become answers. */
  private void httpError(HttpResponseException e, Context ctx) {
    if (WEBHOOK_PATH.equals(ctx.path())) {
      metrics.delivery(ctx.header(WebhookController.EVENT_HEADER), null, outcome(e.getStatus()));
      LOG.warn(
          "Refused delivery {} ({}): {} {}",
          printable(ctx.header(WebhookController.DELIVERY_HEADER)),
          GitHubEvents.eventTag(ctx.header(WebhookController.EVENT_HEADER)),
          e.getStatus(),
          e.getMessage());
    }
    errorBody(ctx, e.getStatus(), e.getMessage());
  }

  private void unexpectedError(Exception e, Context ctx) {
    LOG.error("Unexpected error on {} {}", ctx.method(), ctx.path(), e);
    if (WEBHOOK_PATH.equals(ctx.path())) {
      metrics.delivery(ctx.header(WebhookController.EVENT_HEADER), null, "error");
    }
    errorBody(
        ctx, 500, "Internal error (" + e.getClass().getSimpleName() + "); see the receiver's log");
  }

  private void errorBody(Context ctx, int status, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status);
    body.put("error", message);
    try {
      ctx.status(status).contentType("application/json").result(mapper.writeValueAsBytes(body));
    } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
      ctx.status(status).result("{\"status\":" + status + "}");
    }
  }

  private static String outcome(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 413 -> "too_large";
      case 415 -> "unsupported_media_type";
      default -> "error_" + status;
    };
  }

  private static String printable(String s) {
    if (s == null) {
      return "-";
    }
    String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
    return cut.replaceAll("[^\\x21-\\x7e]", "?");
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * The threads that write a delivery's answer once it is durable: as many as cores, so answers of
   * a burst are written in parallel while Kafka's I/O thread only sends.
   */
  private static ExecutorService answerExecutor() {
    AtomicInteger threads = new AtomicInteger();
    ThreadFactory factory =
        r -> {
          Thread t = new Thread(r, "faultline-webhook-answer-" + threads.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    return Executors.newFixedThreadPool(
        Math.max(2, Runtime.getRuntime().availableProcessors()), factory);
  }

  /** The port listened on. */
  public int port() {
    if (javalin == null) {
      throw new IllegalStateException("Not started");
    }
    return javalin.port();
  }

  /**
   * Stops gracefully: stops accepting connections, lets in-flight requests finish their hand-off
   * (up to the shutdown timeout), then stops the server. Does not close the publisher.
   */
  public synchronized void stop() {
    if (javalin == null) {
      return;
    }
    javalin.stop();
    javalin = null;
    // After the server: the graceful stop let in-flight hand-offs finish and answer first.
    answers.shutdown();
    try {
      if (!answers.awaitTermination(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("Answer threads still busy after {}", config.shutdownTimeout());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("Webhook receiver stopped");
  }
}
