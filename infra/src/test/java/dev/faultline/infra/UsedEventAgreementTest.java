package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.SharedFixtures;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.WebhookApp;
import dev.faultline.ingest.testing.Receivers;
import dev.faultline.jobs.normalise.GitHubNormaliser;
import dev.faultline.jobs.normalise.PoisonRecordException;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.UsedEvent;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receiver and the issue pipeline's normaliser agree on which GitHub events and actions are
 * used: every payload of {@code ../shared/fixtures/github-webhooks/} goes through the real
 * receiver, and what it published goes through the normaliser. The receiver answers {@code used:
 * true} exactly for the deliveries the normaliser turns into records (the one exception, by payload
 * and not by event or action: a comment on a pull request's conversation, which is no issue of
 * ours). Skipped where the shared fixtures are absent.
 */
class UsedEventAgreementTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void receiverAnswersUsedExactlyForWhatTheNormaliserTurnsIntoRecords() throws Exception {
    String secret = "agreement";
    Map<String, Delivery> published = new ConcurrentHashMap<>();
    DeliveryPublisher publisher =
        new DeliveryPublisher() {
          @Override
          public CompletableFuture<Void> publish(String key, Delivery delivery) {
            published.put(delivery.getDeliveryId(), delivery);
            return CompletableFuture.completedFuture(null);
          }

          @Override
          public void close() {}
        };
    // GitHub's examples date from 2018-2021: no replay cut-off here.
    IngestConfig config =
        IngestConfig.builder().secret(secret).spoolDir(tmp).maxDeliveryAge(Duration.ZERO).build();
    WebhookApp app = Receivers.start(config, publisher);
    GitHubNormaliser normaliser = new GitHubNormaliser(JSON);
    HttpClient client = HttpClient.newHttpClient();
    List<String> disagreements = new ArrayList<>();
    TreeSet<String> usedSeen = new TreeSet<>();
    TreeSet<String> unusedSeen = new TreeSet<>();
    try {
      for (SharedFixtures.GithubWebhook fixture : SharedFixtures.githubWebhookPayloads()) {
        String name = fixture.name();
        String event = fixture.event();
        if (event.equals("ping")) {
          continue; // answered, never published
        }
        byte[] body = fixture.body();
        String id = "agreement-" + name;
        HttpResponse<String> response =
            Receivers.send(client, Receivers.webhook(app.port(), event, id, body, secret).build());
        Delivery delivery = published.get(id);
        if (response.statusCode() / 100 != 2 || delivery == null) {
          disagreements.add(
              name + ": not published, " + response.statusCode() + " " + response.body());
          continue;
        }
        boolean used = JSON.readTree(response.body()).path("used").asBoolean();
        String eventAction = event + "." + delivery.getAction();
        (used ? usedSeen : unusedSeen).add(eventAction);
        JsonNode payload = JSON.readTree(body);
        boolean commentOnPullRequest =
            event.equals("issue_comment") && payload.path("issue").has("pull_request");
        int records;
        try {
          records = normaliser.normalise(delivery).size();
        } catch (PoisonRecordException e) {
          disagreements.add(
              name + ": used " + used + ", but the normaliser dead-letters it: " + e.getMessage());
          continue;
        }
        if (used != UsedEvent.isUsed(event, delivery.getAction())) {
          disagreements.add(
              name + ": the receiver answered used " + used + ", the table says the opposite");
        }
        if ((records > 0) != (used && !commentOnPullRequest)) {
          disagreements.add(
              name
                  + ": the receiver answered used "
                  + used
                  + ", the normaliser made "
                  + records
                  + " records");
        }
      }
    } finally {
      app.stop();
    }
    assertEquals(List.of(), disagreements);
    assertTrue(usedSeen.contains("pull_request.synchronize"), "used: " + usedSeen);
    assertTrue(unusedSeen.contains("label.created"), "unused: " + unusedSeen);
    assertTrue(
        usedSeen.size() > 20 && unusedSeen.size() > 10,
        "used " + usedSeen + ", unused " + unusedSeen);
  }
}
