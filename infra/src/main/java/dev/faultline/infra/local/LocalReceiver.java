package dev.faultline.infra.local;

import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.ingest.HealthCheck;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.ingest.SpoolHealthCheck;
import dev.faultline.ingest.SpoolingPublisher;
import dev.faultline.ingest.WebhookApp;
import io.javalin.config.JavalinConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The webhook receiver of the local stack, wired to the embedded broker, with the stack's health
 * checks.
 */
public final class LocalReceiver implements AutoCloseable {
  private final WebhookApp app;
  private final SpoolingPublisher publisher;

  private LocalReceiver(WebhookApp app, SpoolingPublisher publisher) {
    this.app = app;
    this.publisher = publisher;
  }

  /** A named check from a supplier of "what is wrong", empty when healthy. */
  public static HealthCheck check(String name, Supplier<Optional<String>> problem) {
    return new HealthCheck() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<String> problem() {
        return problem.get();
      }
    };
  }

  static LocalReceiver start(
      LocalOptions options,
      LocalSecrets secrets,
      EmbeddedKafka kafka,
      Path dataDir,
      Map<String, String> env,
      List<HealthCheck> stackChecks)
      throws Exception {
    return start(options, secrets, kafka, dataDir, env, stackChecks, List.of());
  }

  /** As above, with further routes on the same server (the dashboard's {@code register}). */
  static LocalReceiver start(
      LocalOptions options,
      LocalSecrets secrets,
      EmbeddedKafka kafka,
      Path dataDir,
      Map<String, String> env,
      List<HealthCheck> stackChecks,
      List<Consumer<JavalinConfig>> extraRoutes)
      throws Exception {
    Map<String, String> ingestEnv = new HashMap<>(env);
    ingestEnv.put(IngestConfig.ENV_SECRET, secrets.webhookSecret());
    ingestEnv.put(IngestConfig.ENV_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
    // Locally, history is posted by hand (old fixtures, backfill tests): judge replays by delivery
    // id only, unless
    // the user asks for an age limit too.
    ingestEnv.putIfAbsent(IngestConfig.ENV_MAX_DELIVERY_AGE, "PT0S");
    IngestConfig config = IngestConfig.fromEnvironment(ingestEnv, true, dataDir);
    SpoolingPublisher publisher =
        SpoolingPublisher.open(
            KafkaDeliveryPublisher.create(config), config.spoolDir(), config.handoffTimeout());
    PrometheusMeterRegistry registry =
        new PrometheusMeterRegistry(
            PrometheusConfig.DEFAULT); // the app binds the publisher's meters
    List<HealthCheck> checks = new ArrayList<>(stackChecks);
    checks.add(new SpoolHealthCheck(publisher, SpoolHealthCheck.DEFAULT_MAX_DEPTH));
    WebhookApp app = new WebhookApp(config, publisher, checks, registry, extraRoutes);
    app.start("127.0.0.1", options.httpPort());
    return new LocalReceiver(app, publisher);
  }

  public int port() {
    return app.port();
  }

  /**
   * Stops taking requests (in-flight ones finish), then closes the publisher; the spool stays for
   * the next start.
   */
  @Override
  public void close() {
    try {
      app.stop();
    } finally {
      publisher.close();
    }
  }
}
