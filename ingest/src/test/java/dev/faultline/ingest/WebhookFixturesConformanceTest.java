package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.send;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.SharedFixtures;
import dev.faultline.ingest.testing.Receivers;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.UsedEvent;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every real GitHub payload in {@code ../shared/fixtures/github-webhooks/} is accepted, and those
 * of used events are recorded with the right event, action, repository and key. Skipped where the
 * shared fixtures are absent.
 */
class WebhookFixturesConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "conformance";

  @TempDir Path tmp;

  @Test
  void acceptsEverySharedFixtureAndRecordsUsedEventsWithTheirIssueKey() throws IOException {
    List<SharedFixtures.GithubWebhook> files = SharedFixtures.githubWebhookPayloads();
    assertTrue(files.size() > 50, "expected the octokit examples, found " + files.size());

    RecordingPublisher publisher = new RecordingPublisher();
    // The examples date from 2018-2021: judge replays by delivery id only here.
    IngestConfig config =
        IngestConfig.builder().secret(SECRET).spoolDir(tmp).maxDeliveryAge(Duration.ZERO).build();
    WebhookApp app = Receivers.start(config, publisher);
    List<String> failures = new ArrayList<>();
    int used = 0;
    try {
      HttpClient client = HttpClient.newHttpClient();
      for (SharedFixtures.GithubWebhook fixture : files) {
        String name = fixture.name();
        String event = fixture.event();
        byte[] body = fixture.body();
        JsonNode payload = JSON.readTree(body);
        String deliveryId = UUID.randomUUID().toString();
        HttpResponse<String> response =
            send(client, webhook(app.port(), event, deliveryId, body, SECRET).build());
        if (response.statusCode() / 100 != 2) {
          failures.add(name + ": " + response.statusCode() + " " + response.body());
          continue;
        }
        String action = payload.path("action").isTextual() ? payload.path("action").asText() : null;
        if (event.equals("ping") || !UsedEvent.isUsed(event, action)) {
          continue;
        }
        used++;
        Delivery recorded =
            publisher.published().stream()
                .filter(p -> p.delivery().getDeliveryId().equals(deliveryId))
                .map(RecordingPublisher.Published::delivery)
                .findFirst()
                .orElse(null);
        if (recorded == null) {
          failures.add(name + ": not recorded");
          continue;
        }
        String repo = payload.path("repository").path("full_name").asText();
        String key =
            publisher.published().stream()
                .filter(p -> p.delivery().getDeliveryId().equals(deliveryId))
                .findFirst()
                .orElseThrow()
                .key();
        String expectedKey = expectedKey(event, payload, repo);
        if (!event.equals(recorded.getEvent())
            || !java.util.Objects.equals(action, recorded.getAction())
            || !repo.equals(recorded.getRepository())
            || !expectedKey.equals(key)) {
          failures.add(
              name
                  + ": recorded "
                  + recorded.getEvent()
                  + "/"
                  + recorded.getAction()
                  + " "
                  + recorded.getRepository()
                  + " key "
                  + key
                  + ", expected "
                  + event
                  + "/"
                  + action
                  + " "
                  + repo
                  + " key "
                  + expectedKey);
        }
      }
    } finally {
      app.stop();
    }
    assertEquals(List.of(), failures);
    assertTrue(used > 30, "used events checked: " + used);
  }

  /** Worked out from the payload independently of DeliveryKey. */
  private static String expectedKey(String event, JsonNode payload, String repo) {
    return switch (event) {
      case "issues", "issue_comment" -> repo + "#" + payload.path("issue").path("number").asInt();
      case "pull_request" -> repo + "#" + payload.path("pull_request").path("number").asInt();
      default -> repo;
    };
  }
}
