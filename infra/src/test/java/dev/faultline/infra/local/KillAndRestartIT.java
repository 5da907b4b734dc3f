package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faultline local} killed with -9 while signed deliveries are in flight, then started again on the same data
 * directory: every delivery answered 2xx is in the graph exactly once, in its latest state.
 */
class KillAndRestartIT {
  private static final String WEBHOOK_SECRET = "kill-drill-webhook-secret";
  private static final String NEO4J_PASSWORD = "kill-drill-neo4j-password";
  private static final int ISSUES = 40;
  @TempDir Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopChildren() throws InterruptedException {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void killedLocalStackResumesWithNothingLostOrDoubled() throws Exception {
    int http = freePort();
    int kafka = freePort();
    int bolt = freePort();
    int neo4jHttp = freePort();
    Path dataDir = dir.resolve("data");
    StackClient client = new StackClient(http, URI.create("http://127.0.0.1:" + neo4jHttp + "/"), NEO4J_PASSWORD, WEBHOOK_SECRET);

    Process first = launch(dataDir, http, kafka, bolt, neo4jHttp, "first.log");
    StackClient.await(() -> healthy(client), Duration.ofSeconds(120), "first start healthy");
    try (DeliveryStream stream = new DeliveryStream("acme/kill-drill", ISSUES)) {
      Future<?> sending = stream.start(client, Duration.ofMillis(50));
      StackClient.await(() -> stream.answered() >= ISSUES / 2, Duration.ofSeconds(60), "first deliveries answered");
      first.destroyForcibly();
      first.waitFor(30, TimeUnit.SECONDS);
      // The sender keeps retrying unanswered deliveries (as GitHub's redelivery would) until the stack is back.
      launch(dataDir, http, kafka, bolt, neo4jHttp, "second.log");
      sending.get(5, TimeUnit.MINUTES);
      assertEquals(List.of(), stream.failures(), "deliveries never answered 2xx");
    }
    StackClient.await(() -> healthy(client), Duration.ofSeconds(120), "second start healthy");
    StackClient.await(
        () -> count(client, "MATCH (i:Issue {repo: 'acme/kill-drill', state: 'closed'}) RETURN count(i)") == ISSUES,
        Duration.ofSeconds(120),
        ISSUES + " closed issues after the restart");
    assertEquals(ISSUES, count(client, "MATCH (i:Issue {repo: 'acme/kill-drill'}) RETURN count(i)"));
  }

  private Process launch(Path dataDir, int http, int kafka, int bolt, int neo4jHttp, String log) throws IOException {
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(System.getProperty("faultline.addOpens", "").split(" ")).stream().filter(s -> !s.isBlank()).toList());
    command.addAll(List.of("-Xmx1g", "-cp", System.getProperty("java.class.path"), "dev.faultline.infra.Faultline", "local"));
    command.addAll(
        List.of(
            "--data-dir", dataDir.toString(),
            "--http-port", Integer.toString(http),
            "--kafka-port", Integer.toString(kafka),
            "--bolt-port", Integer.toString(bolt),
            "--neo4j-http-port", Integer.toString(neo4jHttp),
            "--flink-rest-port", "0"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile());
    builder.environment().putAll(Map.of("FAULTLINE_WEBHOOK_SECRET", WEBHOOK_SECRET, "FAULTLINE_NEO4J_PASSWORD", NEO4J_PASSWORD));
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  private static boolean healthy(StackClient client) {
    try {
      return client.health().statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private static long count(StackClient client, String statement) {
    try {
      return client.count(statement, Map.of());
    } catch (Exception e) {
      return -1;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }
}
