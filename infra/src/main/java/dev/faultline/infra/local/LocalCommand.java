package dev.faultline.infra.local;

import dev.faultline.cli.CliCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code faultline local}: runs the whole stack in this process until Ctrl-C or SIGTERM. */
@Command(
    name = "local",
    description = {
      "Run everything in one process: Kafka (KRaft), Neo4j, Flink MiniCluster, webhook receiver.",
      "",
      "Starts the whole stack in this process, on 127.0.0.1 only: a Kafka broker (KRaft), a Neo4j server, a Flink",
      "MiniCluster running the issue pipeline, and the webhook receiver. Stop with Ctrl-C or SIGTERM; a later start",
      "on the same --data-dir resumes where it stopped."
    },
    footer = {
      "",
      "Environment: FAULTLINE_WEBHOOK_SECRET, FAULTLINE_NEO4J_PASSWORD (generated, kept in DIR/secrets.properties",
      "and printed when unset)."
    })
public final class LocalCommand extends CliCommand {
  @Option(names = "--data-dir", paramLabel = "DIR", description = "state directory")
  Path dataDir = Path.of(".faultline");

  @Option(
      names = "--http-port",
      paramLabel = "N",
      converter = Port.class,
      description = "webhook receiver, /health, /metrics")
  int httpPort = 8080;

  @Option(
      names = "--kafka-port",
      paramLabel = "N",
      converter = Port.class,
      description = "Kafka broker")
  int kafkaPort = 9092;

  @Option(
      names = "--bolt-port",
      paramLabel = "N",
      converter = Port.class,
      description = "Neo4j Bolt")
  int boltPort = 7687;

  @Option(
      names = "--neo4j-http-port",
      paramLabel = "N",
      converter = Port.class,
      description = "Neo4j HTTP API")
  int neo4jHttpPort = 7474;

  @Option(
      names = "--flink-rest-port",
      paramLabel = "N",
      converter = Port.class,
      description = "Flink REST API (0 picks a free port)")
  int flinkRestPort = 8081;

  private final Map<String, String> env;

  /** A command starting the stack with the settings and secrets of {@code env}. */
  public LocalCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** A port number from 0 to 65535. */
  static final class Port implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        int port = Integer.parseInt(value);
        if (port >= 0 && port <= 65535) {
          return port;
        }
      } catch (NumberFormatException e) {
        // the message below
      }
      throw new CommandLine.TypeConversionException(
          "must be a port number between 0 and 65535, got '" + value + "'");
    }
  }

  @Override
  public Integer call() throws Exception {
    LocalOptions options =
        new LocalOptions(dataDir, httpPort, kafkaPort, boltPort, neo4jHttpPort, flinkRestPort);
    out.println("Starting faultline local stack in " + options.dataDir().toAbsolutePath() + " ...");
    long started = System.nanoTime();
    LocalStack stack = LocalStack.start(options, env);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  out.println("Stopping faultline local stack ...");
                  long t = System.nanoTime();
                  stack.close();
                  out.println(
                      "Stopped in " + Duration.ofNanos(System.nanoTime() - t).toMillis() + " ms.");
                  stopped.countDown();
                },
                "faultline-shutdown"));
    out.print(summary(stack, Duration.ofNanos(System.nanoTime() - started)));
    out.flush();
    stopped.await();
    return 0;
  }

  static String summary(LocalStack stack, Duration took) {
    LocalSecrets s = stack.secrets();
    int http = stack.receiver().port();
    return """

        faultline is up (%d ms).
          Webhook receiver   http://127.0.0.1:%d/webhooks/github
          Health, metrics    http://127.0.0.1:%d/health   http://127.0.0.1:%d/metrics
          Kafka (KRaft)      %s
          Neo4j Bolt         %s
          Neo4j HTTP API     %s   (user neo4j)
          Flink REST         %s   (jobs %s, %s)
          Dashboard          http://127.0.0.1:%d/
          Data directory     %s

          Webhook secret     %s%s
          Neo4j password     %s%s

        Ctrl-C or SIGTERM stops everything; a later start on the same data directory resumes.
        """
        .formatted(
            took.toMillis(),
            http,
            http,
            http,
            stack.kafka().bootstrapServers(),
            stack.neo4j().boltUri(),
            stack.neo4j().httpUri(),
            stack.flink().restAddress(),
            stack.pipelineJob(),
            stack.statsJob(),
            http,
            stack.dataDir(),
            s.webhookSecret(),
            s.webhookGenerated()
                ? "   (generated; set FAULTLINE_WEBHOOK_SECRET to choose one)"
                : "",
            s.neo4jPassword(),
            s.neo4jGenerated() ? "   (generated; set FAULTLINE_NEO4J_PASSWORD to choose one)" : "");
  }
}
