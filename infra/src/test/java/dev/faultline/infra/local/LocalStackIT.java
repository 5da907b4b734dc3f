package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.Poll;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walking skeleton end to end, as a user drives it: a signed delivery over HTTP becomes an
 * Issue node, asserted with Cypher over Neo4j's HTTP API; after a stop and a start on the same data
 * directory it is there once, and the same delivery sent again adds nothing, the statistics equal a
 * recount of the graph's issues ({@link StatsRecount}) and nothing was dead-lettered.
 */
class LocalStackIT {
  private static final Duration STATS_DEADLINE = Duration.ofMinutes(3);
  @TempDir Path dataDir;

  private LocalOptions options() {
    return new LocalOptions(dataDir, 0, 0, 0, 0, 0);
  }

  private static byte[] fixture() throws Exception {
    try (InputStream in = LocalStackIT.class.getResourceAsStream("/fixtures/issue-opened.json")) {
      return in.readAllBytes();
    }
  }

  @Test
  void signedDeliveryBecomesAnIssueNodeOnceAcrossARestart() throws Exception {
    Map<String, String> env = Map.of();
    String id = "example-org/deepspeed-fork#4242";
    Map<String, Object> params = Map.<String, Object>of("id", id);
    String countIssue = "MATCH (i:Issue {id: $id}) RETURN count(i)";
    String deliveryId = UUID.randomUUID().toString();
    byte[] body = fixture();
    try (LocalStack stack = LocalStack.start(options(), env)) {
      StackClient client = StackClient.of(stack);
      Poll.until(Duration.ofSeconds(60), "/health 200", () -> status(client) == 200);
      assertEquals(202 / 100, client.deliver("issues", deliveryId, body).statusCode() / 100);
      Poll.until(
          Duration.ofSeconds(30), "Issue node " + id, () -> count(client, countIssue, params) == 1);
      assertEquals(
          "ZeRO-3 hangs at the first all-gather with 16 ranks",
          client
              .cypher("MATCH (i:Issue {id: $id}) RETURN i.title", params)
              .path(0)
              .path("row")
              .path(0)
              .asText());
      // The statistics job counts it from the classified-issue topic once event time has moved past
      // its day: the
      // recount's markers (later issues, one on each partition) move it.
      new StatsRecount(client, stack.statsConfig(), LocalStack.PARTITIONS)
          .awaitAgreement(STATS_DEADLINE);
      assertTrue(
          count(
                  client,
                  "MATCH (c:CategoryCount {dimension: 'symptom'}) WHERE c.count > 0 RETURN count(c)",
                  Map.of())
              > 0,
          "category counts");
    }
    try (LocalStack stack = LocalStack.start(options(), env)) {
      StackClient client = StackClient.of(stack);
      Poll.until(Duration.ofSeconds(60), "/health 200 after restart", () -> status(client) == 200);
      assertEquals(1, client.count(countIssue, params));
      // The same delivery again (a redelivery), then a marker issue to know the pipeline has caught
      // up.
      assertTrue(client.deliver("issues", deliveryId, body).statusCode() / 100 == 2);
      byte[] marker = new String(body).replace("4242", "4243").getBytes();
      client.deliver("issues", UUID.randomUUID().toString(), marker);
      Poll.until(
          Duration.ofSeconds(30),
          "marker issue",
          () -> count(client, countIssue, Map.of("id", "example-org/deepspeed-fork#4243")) == 1);
      assertEquals(1, client.count(countIssue, params));
      assertEquals(
          2,
          client.count(
              "MATCH (i:Issue)-[:IN_REPO]->(:Repository {fullName: 'example-org/deepspeed-fork'}) RETURN count(i)",
              Map.of()));
      // Counted before the restart, restored from the checkpoint, the redelivery not counted again.
      new StatsRecount(client, stack.statsConfig(), LocalStack.PARTITIONS)
          .awaitAgreement(STATS_DEADLINE);
      assertEquals(
          List.of(),
          DeadLetterTopic.read(stack.kafka().bootstrapServers()),
          "dead letters: nothing was poisoned");
    }
  }

  private static int status(StackClient client) {
    try {
      return client.health().statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  private static long count(StackClient client, String statement, Map<String, Object> params) {
    try {
      return client.count(statement, params);
    } catch (Exception e) {
      return -1;
    }
  }
}
