package dev.faultline.infra.cluster;

import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.HealthCheck;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.ingest.SpoolHealthCheck;
import dev.faultline.ingest.SpoolingPublisher;
import dev.faultline.ingest.WebhookApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code faultline ingest}: the webhook receiver alone, in front of an external Kafka (compose,
 * Kubernetes, a managed cluster). Configured by the {@code FAULTLINE_*} environment of {@link
 * IngestConfig#fromEnvironment}; a webhook secret is required. Runs until SIGTERM, then drains
 * in-flight requests and closes the producer; deliveries Kafka did not take yet stay in the spool
 * under {@code --data-dir} and go out on the next start.
 */
@Command(
    name = "ingest",
    description = {
      "Run the webhook receiver alone against an external Kafka.",
      "",
      "The GitHub webhook receiver alone (POST /webhooks/github, GET /health, GET /metrics), publishing to the",
      "Kafka named by FAULTLINE_KAFKA_BOOTSTRAP_SERVERS (security: FAULTLINE_KAFKA_PRODUCER_SECURITY_PROTOCOL,",
      "FAULTLINE_KAFKA_PRODUCER_SASL_JAAS_CONFIG, ...). FAULTLINE_WEBHOOK_SECRET is required. The spool (used while",
      "Kafka is unreachable) is kept under --data-dir unless FAULTLINE_SPOOL_DIR is set."
    })
public final class IngestCommand extends CliCommand {
  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "address to bind (0.0.0.0 in a container)")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "N", description = "HTTP port")
  int port = 8080;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "the spool's directory")
  Path dataDir = Path.of(".faultline-ingest");

  private final Map<String, String> env;

  public IngestCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public Integer call() throws Exception {
    Files.createDirectories(dataDir);
    IngestConfig config = IngestConfig.fromEnvironment(env, false, dataDir.toAbsolutePath());
    CountDownLatch stopped = new CountDownLatch(1);
    try (Admin admin = Admin.create(adminProperties(config));
        SpoolingPublisher publisher =
            SpoolingPublisher.open(
                KafkaDeliveryPublisher.create(config),
                config.spoolDir(),
                config.handoffTimeout())) {
      PrometheusMeterRegistry registry =
          new PrometheusMeterRegistry(
              PrometheusConfig.DEFAULT); // the app binds the publisher's meters
      List<HealthCheck> checks =
          List.of(
              new SpoolHealthCheck(publisher, SpoolHealthCheck.DEFAULT_MAX_DEPTH),
              kafkaCheck(admin, config.bootstrapServers()));
      WebhookApp app = new WebhookApp(config, publisher, checks, registry, List.of());
      app.start(host, port);
      out.println(
          "faultline ingest: receiving on http://"
              + host
              + ":"
              + app.port()
              + WebhookApp.WEBHOOK_PATH
              + " → Kafka "
              + config.bootstrapServers()
              + " topic "
              + config.deliveryTopic()
              + "; health on "
              + WebhookApp.HEALTH_PATH);
      Thread hook =
          new Thread(
              () -> {
                // Stop taking requests and let in-flight ones finish before the publisher closes.
                app.stop();
                stopped.countDown();
              },
              "faultline-ingest-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      stopped.await();
    }
    return 0;
  }

  static Map<String, Object> adminProperties(IngestConfig config) {
    Map<String, Object> props = new HashMap<>(config.producerProperties());
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, "faultline-ingest-health");
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
    return props;
  }

  /** Healthy while the brokers answer a metadata request within a second. */
  static HealthCheck kafkaCheck(Admin admin, String bootstrap) {
    return new HealthCheck() {
      @Override
      public String name() {
        return "kafka";
      }

      @Override
      public Optional<String> problem() {
        try {
          admin
              .describeCluster(new DescribeClusterOptions().timeoutMs(1000))
              .nodes()
              .get(1, TimeUnit.SECONDS);
          return Optional.empty();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.of("interrupted");
        } catch (Exception e) {
          return Optional.of(
              "Kafka at "
                  + bootstrap
                  + " not answering (deliveries go to the spool): "
                  + e.getClass().getSimpleName());
        }
      }
    };
  }
}
