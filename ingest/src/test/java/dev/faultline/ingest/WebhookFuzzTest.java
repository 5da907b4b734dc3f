package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.send;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.PayloadMutator;
import dev.faultline.embedded.testing.SharedFixtures;
import dev.faultline.ingest.testing.Receivers;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of mutated, truncated, oversized, wrongly-typed, deeply nested and odd-Unicode
 * payloads, signed and unsigned: the receiver answers every one with a 2xx or a 4xx that says what
 * was wrong, never a 5xx, and keeps serving. Seeded, so a failure replays.
 */
class WebhookFuzzTest {
  private static final long SEED = 20261122L;
  private static final int REQUESTS = 2_000;
  private static final String SECRET = "fuzz-secret";
  private static final String[] EVENTS = {
    "issues", "issue_comment", "pull_request", "release", "label", "ping", "push"
  };

  @TempDir Path tmp;

  @Test
  void neverAnswers5xxForAClientsFaultAndKeepsServing() throws IOException {
    List<byte[]> seeds = seedPayloads();
    PayloadMutator mutator = new PayloadMutator(SEED);
    Random random = new Random(SEED);
    RecordingPublisher publisher = new RecordingPublisher();
    IngestConfig config =
        IngestConfig.builder()
            .secret(SECRET)
            .spoolDir(tmp)
            .maxBodyBytes(256 * 1024)
            .maxDeliveryAge(Duration.ZERO)
            .build();
    WebhookApp app = Receivers.start(config, publisher);
    TreeMap<Integer, Integer> statuses = new TreeMap<>();
    List<String> serverFaults = new ArrayList<>();
    try {
      HttpClient client = HttpClient.newHttpClient();
      for (int i = 0; i < REQUESTS; i++) {
        byte[] body = mutator.mutate(seeds.get(random.nextInt(seeds.size())));
        String event = EVENTS[random.nextInt(EVENTS.length)];
        boolean signed = random.nextInt(4) != 0;
        HttpResponse<String> response =
            send(
                client,
                webhook(
                        app.port(),
                        event,
                        UUID.randomUUID().toString(),
                        body,
                        signed ? SECRET : "wrong-secret")
                    .build());
        statuses.merge(response.statusCode(), 1, Integer::sum);
        if (response.statusCode() >= 500) {
          serverFaults.add(
              "request "
                  + i
                  + " ("
                  + event
                  + ", "
                  + body.length
                  + " bytes): "
                  + response.statusCode()
                  + " "
                  + response.body());
        } else if (response.statusCode() >= 400) {
          assertTrue(
              response.body().contains("\"error\""),
              "error body is JSON that says what was wrong: " + response.body());
        }
      }
      assertEquals(
          List.of(), serverFaults, "5xx answers for client faults; status counts " + statuses);
      // Still serving: a clean delivery after the storm is accepted.
      HttpResponse<String> clean =
          send(
              client,
              webhook(app.port(), "issues", UUID.randomUUID().toString(), seeds.get(0), SECRET)
                  .build());
      assertEquals(2, clean.statusCode() / 100, clean.body());
      assertTrue(
          statuses.getOrDefault(401, 0) > 0
              && statuses.keySet().stream().anyMatch(s -> s / 100 == 2),
          "mix of outcomes " + statuses);
    } finally {
      app.stop();
    }
  }

  /** The project's own fixtures, plus GitHub's examples from ../shared when present. */
  private static List<byte[]> seedPayloads() throws IOException {
    List<Path> dirs = new ArrayList<>();
    dirs.add(Path.of("src/test/resources/webhooks"));
    SharedFixtures.githubWebhooks().ifPresent(dirs::add);
    List<byte[]> seeds = new ArrayList<>();
    for (Path dir : dirs) {
      for (Path f : SharedFixtures.jsonFiles(dir)) {
        seeds.add(Files.readAllBytes(f));
      }
    }
    assertTrue(!seeds.isEmpty(), "no seed payloads found");
    return seeds;
  }
}
