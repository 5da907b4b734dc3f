package dev.faultline.infra.local;

import dev.faultline.infra.Command;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/** {@code faultline local}: runs the whole stack in this process until Ctrl-C or SIGTERM. */
public final class LocalCommand implements Command {
  @Override
  public String name() {
    return "local";
  }

  @Override
  public String summary() {
    return "run everything in one process: Kafka (KRaft), Neo4j, Flink MiniCluster, webhook receiver";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      out.print(LocalOptions.USAGE);
      return 0;
    }
    LocalOptions options = LocalOptions.parse(args);
    out.println("Starting faultline local stack in " + options.dataDir().toAbsolutePath() + " ...");
    long started = System.nanoTime();
    LocalStack stack = LocalStack.start(options, System.getenv());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  out.println("Stopping faultline local stack ...");
                  long t = System.nanoTime();
                  stack.close();
                  out.println("Stopped in " + Duration.ofNanos(System.nanoTime() - t).toMillis() + " ms.");
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
            s.webhookGenerated() ? "   (generated; set FAULTLINE_WEBHOOK_SECRET to choose one)" : "",
            s.neo4jPassword(),
            s.neo4jGenerated() ? "   (generated; set FAULTLINE_NEO4J_PASSWORD to choose one)" : "");
  }
}
