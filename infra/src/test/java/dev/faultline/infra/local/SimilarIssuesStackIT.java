package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.Poll;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Similar issues on the real stack (issue #35): a signed delivery becomes an issue whose full-text
 * and vector index entries are written by the same transaction, so "find issues like this" ({@code
 * POST /api/similar}) and the drill-down find it as soon as its node is there, by its words and by
 * its meaning; an edit is found by its new words at once. The times are printed: the delivery's way
 * through Kafka, Flink and the sink, and the lag from the node's write to the search finding it.
 */
class SimilarIssuesStackIT {
  /** A delivery's way through Kafka, the job's checkpoint (5 s) and Neo4j on a busy machine. */
  private static final Duration PIPELINE = Duration.ofSeconds(90);

  /** From the node's write to the search finding it: the indexes are updated by the write. */
  private static final long INDEX_LAG_MILLIS = 2_000;

  private static final String REPO = "example-org/deepspeed-fork";
  private static final String WATCHDOG =
      "torch.distributed.DistBackendError: NCCL watchdog timeout after 1800000 milliseconds";

  @TempDir Path dataDir;
  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private StackClient client;
  private String dashboard;

  @Test
  void aNewOrEditedIssueIsFoundWithinSecondsOfLanding() throws Exception {
    try (LocalStack stack = LocalStack.start(new LocalOptions(dataDir, 0, 0, 0, 0, 0), Map.of())) {
      client = StackClient.of(stack);
      dashboard = "http://127.0.0.1:" + stack.receiver().port();
      Poll.until(Duration.ofSeconds(60), "/health 200", this::healthy);
      // something else in the graph first, so a search has a choice
      deliver(
          issue(
              7000,
              "opened",
              "Docs: typo in the ZeRO tutorial",
              "The tutorial says 'stage3_prefech'.",
              "2024-06-01T08:00:00Z"));
      awaitNode(7000, "Docs: typo in the ZeRO tutorial");

      String report =
          "Every rank stalls in allgather at the first step.\n\nTraceback (most recent call last):\n"
              + "  File \"engine.py\", line 3, in step\n"
              + WATCHDOG;
      long sent = System.nanoTime();
      deliver(
          issue(
              7001,
              "opened",
              "ZeRO-3 allgather stalls until the NCCL watchdog fires",
              report,
              "2024-06-02T08:00:00Z"));
      Found found =
          awaitFound(
              7001,
              "ZeRO-3 allgather stalls until the NCCL watchdog fires",
              () -> similar("Stuck in allgather on 16 GPUs", "It never returns.\n" + WATCHDOG));
      System.out.printf(
          "similar: new issue searchable %d ms after its delivery, %d ms after its node%n",
          (found.foundAt - sent) / 1_000_000, (found.foundAt - found.nodeAt) / 1_000_000);
      assertTrue(found.foundAt - found.nodeAt <= INDEX_LAG_MILLIS * 1_000_000, found.toString());
      // by its words and by its meaning: the vector the pipeline stored is in the vector index
      assertTrue(found.row.path("textRank").isInt(), found.row.toString());
      assertTrue(found.row.path("vectorRank").isInt(), found.row.toString());
      assertEquals(WATCHDOG, found.row.path("errorLines").asText());

      // the drill-down of another issue like it lists it
      deliver(
          issue(
              7002,
              "opened",
              "allgather hangs with NCCL watchdog timeout on 2 nodes",
              "Same stall, " + WATCHDOG,
              "2024-06-03T08:00:00Z"));
      awaitNode(7002, "allgather hangs with NCCL watchdog timeout on 2 nodes");
      JsonNode drill =
          get("/api/issue?id=" + URLEncoder.encode(REPO + "#7002", StandardCharsets.UTF_8));
      assertEquals(
          REPO + "#7001", drill.path("similar").path(0).path("id").asText(), drill.toString());

      // edited: found by its new words, no longer by the words it lost
      long edited = System.nanoTime();
      deliver(
          issue(
              7001,
              "edited",
              "Checkpoint shards vanish on Lustre after resume",
              "The optimizer shards of rank 5 are missing after the second save.",
              "2024-06-02T08:00:00Z"));
      Found again =
          awaitFound(
              7001,
              "Checkpoint shards vanish on Lustre after resume",
              () -> similar("optimizer shards missing on Lustre", null));
      System.out.printf(
          "similar: edited issue found by its new words %d ms after the edit's delivery, %d ms after"
              + " its node%n",
          (again.foundAt - edited) / 1_000_000, (again.foundAt - again.nodeAt) / 1_000_000);
      assertTrue(again.foundAt - again.nodeAt <= INDEX_LAG_MILLIS * 1_000_000, again.toString());
      assertEquals(1, again.row.path("textRank").asInt());
      JsonNode old = similar("NCCL watchdog allgather stalls", null).path("similar");
      for (JsonNode r : old) {
        assertFalse(
            r.path("id").asText().equals(REPO + "#7001") && r.path("textRank").isInt(),
            "the edited issue is still found by words it lost: " + r);
      }
    }
  }

  /** When the node was first seen with this title, when the search first found it, and its row. */
  private record Found(long nodeAt, long foundAt, JsonNode row) {}

  private interface Search {
    JsonNode run() throws Exception;
  }

  /**
   * Polls the graph and the search together every 50 ms until the search finds the issue with this
   * title, noting when the node first had it.
   */
  private Found awaitFound(int number, String title, Search search) throws Exception {
    long deadline = System.nanoTime() + PIPELINE.toNanos();
    long nodeAt = -1;
    while (System.nanoTime() < deadline) {
      if (nodeAt < 0 && hasTitle(number, title)) {
        nodeAt = System.nanoTime();
      }
      for (JsonNode r : search.run().path("similar")) {
        if (r.path("id").asText().equals(REPO + "#" + number)
            && r.path("title").asText().equals(title)) {
          long foundAt = System.nanoTime();
          return new Found(nodeAt < 0 ? foundAt : nodeAt, foundAt, r);
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "#" + number + " '" + title + "' never found; node written: " + (nodeAt >= 0));
  }

  private void awaitNode(int number, String title) {
    Poll.until(PIPELINE, "issue #" + number, () -> hasTitle(number, title));
  }

  private boolean hasTitle(int number, String title) throws Exception {
    return client.count(
            "MATCH (i:Issue {id: $id}) WHERE i.title = $title RETURN count(i)",
            Map.of("id", REPO + "#" + number, "title", title))
        == 1;
  }

  private JsonNode similar(String title, String text) throws Exception {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("title", title);
    request.put("text", text);
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(dashboard + "/api/similar"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(request)))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    JsonNode body = json.readTree(response.body());
    assertTrue(body.path("byMeaning").asBoolean(), "the stack's dashboard has the encoder");
    return body;
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(dashboard + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return json.readTree(response.body());
  }

  private byte[] issue(int number, String action, String title, String body, String created)
      throws Exception {
    Map<String, Object> issue = new LinkedHashMap<>();
    issue.put("number", number);
    issue.put("title", title);
    issue.put("body", body);
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + number);
    issue.put("user", Map.of("login", "someone", "type", "User"));
    issue.put("labels", java.util.List.of(Map.of("name", "bug")));
    issue.put("created_at", created);
    // an edit is newer than what it replaces
    issue.put("updated_at", action.equals("edited") ? "2024-06-05T08:00:00Z" : created);
    issue.put("closed_at", null);
    issue.put("author_association", "NONE");
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("action", action);
    payload.put("issue", issue);
    payload.put(
        "repository",
        Map.of(
            "id",
            1,
            "name",
            "deepspeed-fork",
            "full_name",
            REPO,
            "owner",
            Map.of("login", "example-org")));
    payload.put("sender", Map.of("login", "someone"));
    return json.writeValueAsBytes(payload);
  }

  private void deliver(byte[] body) throws Exception {
    HttpResponse<String> response = client.deliver("issues", UUID.randomUUID().toString(), body);
    assertEquals(2, response.statusCode() / 100, response.body());
  }

  private boolean healthy() {
    try {
      return client.health().statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }
}
