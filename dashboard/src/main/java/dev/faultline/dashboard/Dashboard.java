package dev.faultline.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.graph.query.QueryLibrary;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The maintainers' dashboard: a page at {@code GET /}, its static assets under {@code /assets/}
 * (Chart.js from its webjar, so nothing is fetched from a CDN), a read-only JSON API under {@code
 * /api/} backed by the graph's {@link QueryLibrary}, and a server-sent event stream {@code
 * /api/events} that tells open pages when the graph changed. Registered into a Javalin config with
 * {@link #register}, so it can share a server with other routes.
 *
 * <p>Only GET is served, and POST {@code /api/similar} (a read-only search by a pasted report):
 * every other method on these paths is answered 405. Errors are JSON {@code {"status", "error",
 * "parameter"}}, mapped in one place ({@link #apiError}).
 */
public final class Dashboard implements AutoCloseable {
  /** The one path served by POST only: "find issues like this" for a pasted report. */
  static final String SIMILAR = "/api/similar";

  /** How often the graph is checked for changes while a page listens. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(1500);

  static final String WEB = "/dev/faultline/dashboard/web";
  static final String ASSETS = "/assets";
  static final String CHART_JS_POM = "/META-INF/maven/org.webjars.npm/chart.js/pom.properties";

  /** The page's policy: only this origin's scripts, styles and API; no framing. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
          + " object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private static final List<HandlerType> REFUSED =
      List.of(
          HandlerType.POST,
          HandlerType.PUT,
          HandlerType.PATCH,
          HandlerType.DELETE,
          HandlerType.OPTIONS);

  private final ObjectMapper mapper = new ObjectMapper();
  private final ApiController api;
  private final ChangeFeed changes;
  private final String page;

  /**
   * A dashboard on the graph behind {@code queries}, checking for changes every {@link
   * #DEFAULT_POLL_INTERVAL}.
   */
  public Dashboard(QueryLibrary queries) {
    this(queries, DEFAULT_POLL_INTERVAL);
  }

  /** A dashboard checking the graph for changes every {@code pollInterval} while a page listens. */
  public Dashboard(QueryLibrary queries, Duration pollInterval) {
    this(queries, pollInterval, null);
  }

  /**
   * A dashboard whose "find issues like this" encodes a pasted report with the pipeline's {@code
   * encoder} (null: it searches by words alone).
   */
  public Dashboard(QueryLibrary queries, Duration pollInterval, TextEncoder encoder) {
    Objects.requireNonNull(queries, "queries");
    this.api =
        new ApiController(
            queries, mapper, SeedFigures.load(mapper), new SimilarSearch(queries, encoder));
    this.changes = new ChangeFeed(api::marker, this::toJson, pollInterval);
    this.page = resource(WEB + "/index.html");
  }

  /** Adds the page, the assets, the API and the event stream to a Javalin config. */
  public void register(JavalinConfig cfg) {
    cfg.staticFiles.add(
        files -> {
          files.hostedPath = ASSETS;
          files.directory = WEB;
          files.location = Location.CLASSPATH;
          files.headers = Map.of("X-Content-Type-Options", "nosniff", "Cache-Control", "no-cache");
        });
    cfg.staticFiles.add(
        files -> {
          files.hostedPath = ASSETS + "/vendor/chart.js";
          // The webjar has no entry for dist/ itself, and Javalin needs the hosted directory to
          // exist as an entry.
          files.directory = "/META-INF/resources/webjars/chart.js/" + chartJsVersion();
          files.location = Location.CLASSPATH;
          files.headers = Map.of("X-Content-Type-Options", "nosniff");
        });

    cfg.routes.get("/", this::page);
    cfg.routes.get("/api/filters", api::filters);
    cfg.routes.get("/api/releases", api::releases);
    cfg.routes.get("/api/release-shifts", api::releaseShifts);
    cfg.routes.get("/api/trends", api::trends);
    cfg.routes.get("/api/heatmap", api::heatMap);
    cfg.routes.get("/api/shares", api::shares);
    cfg.routes.get("/api/studies", api::studies);
    cfg.routes.get("/api/fix-patterns", api::fixPatterns);
    cfg.routes.get("/api/distributed-share", api::distributedShare);
    cfg.routes.get("/api/headline", api::headline);
    cfg.routes.get("/api/alerts", api::alerts);
    cfg.routes.get("/api/alerts.atom", api::alertsAtom);
    cfg.routes.get("/api/issues", api::issues);
    cfg.routes.get("/api/issue", api::issue);
    cfg.routes.get("/api/label-sources", api::labelSources);
    cfg.routes.get("/api/changes", api::changes);
    // The one POST: a read-only search whose pasted text (a report with its traceback) would not
    // fit a URL. Registered before the refusals below, which match in registration order.
    cfg.routes.post(SIMILAR, api::similarToText);
    cfg.routes.get(SIMILAR, this::refuse);
    cfg.routes.sse("/api/events", changes::subscribe);
    // Registered last: routes match in registration order, so this only catches what no endpoint
    // took.
    cfg.routes.get("/api/*", api::unknownEndpoint);
    for (HandlerType method : REFUSED) {
      for (String path : List.of("/", "/api/*", ASSETS + "/*")) {
        cfg.routes.addHttpHandler(method, path, this::refuse);
      }
    }
    cfg.routes.addHttpHandler(HandlerType.HEAD, "/api/*", this::refuse);
    cfg.routes.exception(ApiError.class, this::apiError);
    cfg.events.serverStopping(changes::close);
  }

  /** {@code GET /}: the single page; its views are chosen by the URL fragment. */
  void page(Context ctx) {
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("Referrer-Policy", "no-referrer")
        .header("Cache-Control", "no-cache")
        .contentType("text/html; charset=utf-8")
        .result(page);
  }

  void refuse(Context ctx) {
    ctx.header("Allow", SIMILAR.equals(ctx.path()) ? "POST" : "GET");
    throw ApiError.methodNotAllowed(ctx.method().name(), ctx.path());
  }

  /** The one mapping of the dashboard's errors to responses. */
  void apiError(ApiError e, Context ctx) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", e.getStatus());
    body.put("error", e.getMessage());
    body.put("parameter", e.parameter());
    ctx.status(e.getStatus()).contentType("application/json").result(toJson(body));
  }

  /** Stops the change poller and ends open event streams. */
  @Override
  public void close() {
    changes.close();
  }

  private String toJson(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  /** The bundled Chart.js version, read from its webjar so a version bump needs no code change. */
  static String chartJsVersion() {
    try (InputStream in = Dashboard.class.getResourceAsStream(CHART_JS_POM)) {
      if (in == null) {
        throw new IllegalStateException(
            "Chart.js webjar (org.webjars.npm:chart.js) is not on the classpath");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String resource(String path) {
    try (InputStream in = Dashboard.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(
            "Missing resource " + path + ": the dashboard jar is incomplete");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
