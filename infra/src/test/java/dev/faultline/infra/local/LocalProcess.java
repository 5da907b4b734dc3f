package dev.faultline.infra.local;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code faultline local} as a child JVM on fixed free ports, as a user runs it, for drills and
 * benchmarks.
 */
public final class LocalProcess implements AutoCloseable {
  public static final String WEBHOOK_SECRET = "child-stack-webhook-secret";
  public static final String NEO4J_PASSWORD = "child-stack-neo4j-password";

  private final Path dataDir;
  private final Path logDir;
  private final int http;
  private final int kafka;
  private final int bolt;
  private final int neo4jHttp;
  private final List<Process> processes = new ArrayList<>();

  public LocalProcess(Path dataDir, Path logDir) throws IOException {
    this.dataDir = dataDir;
    this.logDir = logDir;
    // four different ports: picked one by one, the HTTP port once came out equal to Kafka's, and
    // the child died
    // binding it ("Port already in use") while the health probe talked HTTP to its broker
    int[] ports = dev.faultline.embedded.FreePorts.pick(4);
    this.http = ports[0];
    this.kafka = ports[1];
    this.bolt = ports[2];
    this.neo4jHttp = ports[3];
    Files.createDirectories(logDir);
  }

  /** Starts the stack in a new JVM; its output goes to {@code logDir/logName}. */
  public Process launch(String logName) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String opt : System.getProperty("faultline.addOpens", "").split(" ")) {
      if (!opt.isBlank()) {
        command.add(opt);
      }
    }
    command.addAll(
        List.of(
            "-Xmx2g",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.faultline.infra.Faultline",
            "local"));
    command.addAll(
        List.of(
            "--data-dir", dataDir.toString(),
            "--http-port", Integer.toString(http),
            "--kafka-port", Integer.toString(kafka),
            "--bolt-port", Integer.toString(bolt),
            "--neo4j-http-port", Integer.toString(neo4jHttp),
            "--flink-rest-port", "0"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve(logName).toFile());
    builder
        .environment()
        .putAll(
            Map.of(
                "FAULTLINE_WEBHOOK_SECRET",
                WEBHOOK_SECRET,
                "FAULTLINE_NEO4J_PASSWORD",
                NEO4J_PASSWORD));
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  /**
   * Waits for the stack's {@code /health} to answer 200; on a timeout the error carries whether the
   * process still runs and the end of its log, which the temporary directory would otherwise take
   * with it.
   */
  public void awaitHealthy(Process process, String logName, Duration timeout, String what)
      throws Exception {
    StackClient client = client();
    try {
      Poll.until(
          timeout,
          what,
          () -> {
            try {
              return client.health().statusCode() == 200;
            } catch (Exception e) {
              return false;
            }
          });
    } catch (AssertionError e) {
      List<String> log =
          Files.exists(logDir.resolve(logName))
              ? Files.readAllLines(logDir.resolve(logName))
              : List.of();
      String state = process.isAlive() ? "still running" : "exited with " + process.exitValue();
      throw new AssertionError(
          e.getMessage()
              + "; the stack "
              + state
              + "; last lines of "
              + logName
              + ":\n"
              + String.join("\n", log.subList(Math.max(0, log.size() - 40), log.size())),
          e);
    }
  }

  /** A client for the stack's receiver and Neo4j HTTP API. */
  public StackClient client() {
    return new StackClient(
        http, URI.create("http://127.0.0.1:" + neo4jHttp + "/"), NEO4J_PASSWORD, WEBHOOK_SECRET);
  }

  /** The stack's Kafka bootstrap servers. */
  public String kafkaBootstrap() {
    return "127.0.0.1:" + kafka;
  }

  /** The stack's Neo4j over Bolt, as its jobs reach it. */
  public GraphConfig graph() {
    return new GraphConfig("bolt://127.0.0.1:" + bolt, "neo4j", NEO4J_PASSWORD, "neo4j");
  }

  /** Resident set size now and at its peak, in MiB, from /proc (Linux). */
  public static long[] rssMiB(Process p) throws IOException {
    long rss = 0;
    long hwm = 0;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("\\D", "")) / 1024;
      } else if (line.startsWith("VmHWM:")) {
        hwm = Long.parseLong(line.replaceAll("\\D", "")) / 1024;
      }
    }
    return new long[] {rss, hwm};
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }
}
