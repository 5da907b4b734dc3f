package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.stats.StatsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faultline local} killed with -9 while signed deliveries are in flight, then started again
 * on the same data directory: every delivery answered 2xx is in the graph exactly once, in its
 * latest state; the statistics equal a recount of the graph's issues ({@link StatsRecount}); the
 * dead-letter topic is empty.
 */
class KillAndRestartIT {
  private static final int ISSUES = 40;
  @TempDir Path dir;

  @Test
  void killedLocalStackResumesWithNothingLostOrDoubled() throws Exception {
    try (LocalProcess stack = new LocalProcess(dir.resolve("data"), dir)) {
      StackClient client = stack.client();
      Process first = stack.launch("first.log");
      stack.awaitHealthy(first, "first.log", Duration.ofSeconds(120), "first start healthy");
      Process second;
      try (DeliveryStream stream = new DeliveryStream("acme/kill-drill", ISSUES)) {
        Future<?> sending = stream.start(client, Duration.ofMillis(50));
        Poll.until(
            Duration.ofSeconds(60),
            "first deliveries answered",
            () -> stream.answered() >= ISSUES / 2);
        first.destroyForcibly();
        first.waitFor(30, TimeUnit.SECONDS);
        // The sender keeps retrying unanswered deliveries (as GitHub's redelivery would) until the
        // stack is back.
        second = stack.launch("second.log");
        sending.get(5, TimeUnit.MINUTES);
        assertEquals(List.of(), stream.failures(), "deliveries never answered 2xx");
      }
      stack.awaitHealthy(second, "second.log", Duration.ofSeconds(120), "second start healthy");
      Poll.until(
          Duration.ofSeconds(120),
          ISSUES + " closed issues after the restart",
          () ->
              count(
                      client,
                      "MATCH (i:Issue {repo: 'acme/kill-drill', state: 'closed'}) RETURN count(i)")
                  == ISSUES);
      assertEquals(
          ISSUES, count(client, "MATCH (i:Issue {repo: 'acme/kill-drill'}) RETURN count(i)"));
      // the child's environment sets no FAULTLINE_MIN_CONFIDENCE: the calibrated bars
      StatsConfig stats =
          LocalStack.statsConfig(
              stack.kafkaBootstrap(), stack.graph(), ConfidencePolicy.calibrated());
      new StatsRecount(client, stats, LocalStack.PARTITIONS).awaitAgreement(Duration.ofMinutes(3));
      assertEquals(
          List.of(),
          DeadLetterTopic.read(stack.kafkaBootstrap()),
          "dead letters: the drill poisons nothing");
    }
  }

  private static long count(StackClient client, String statement) {
    try {
      return client.count(statement, Map.of());
    } catch (Exception e) {
      return -1;
    }
  }
}
