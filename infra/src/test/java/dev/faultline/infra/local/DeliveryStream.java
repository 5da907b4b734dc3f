package dev.faultline.infra.local;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A stream of signed deliveries for fault drills: for each of N issues of one repository an {@code
 * opened} and a later {@code closed} event, sent at a steady pace from a background thread while
 * the test injects a fault.
 *
 * <p>Event times: odd issues open and close on June 2nd, even ones on June 1st (08:00 and 20:00
 * UTC). The June 2nd events move the statistics job's watermark past June 1st early, so the even
 * issues reach its daily window late and fire it again, during the fault. Each issue's events fall
 * on one day, so every statistics window either holds all of an issue's history or none of it, and
 * a recount from the graph is exact ({@link StatsRecount}).
 */
final class DeliveryStream implements AutoCloseable {
  final String repo;
  final int issues;
  private final Map<String, Integer> answers = new ConcurrentHashMap<>();
  private final ExecutorService sender = Executors.newSingleThreadExecutor();

  DeliveryStream(String repo, int issues) {
    this.repo = repo;
    this.issues = issues;
  }

  /** Starts sending through {@code client}, pausing {@code pace} between deliveries. */
  Future<?> start(StackClient client, Duration pace) {
    return sender.submit(
        () -> {
          for (int n = 1; n <= issues; n++) {
            String day = n % 2 == 0 ? "2024-06-01" : "2024-06-02";
            send(client, n, "opened", "open", day + "T08:00:00Z", day + "T08:00:00Z");
            send(client, n, "closed", "closed", day + "T08:00:00Z", day + "T20:00:00Z");
            sleep(pace);
          }
          return null;
        });
  }

  private void send(
      StackClient client,
      int number,
      String action,
      String state,
      String createdAt,
      String updatedAt)
      throws Exception {
    String id = UUID.randomUUID().toString();
    byte[] body =
        payload(repo, number, action, state, createdAt, updatedAt).getBytes(StandardCharsets.UTF_8);
    int status = -1;
    // A client retries on connection errors and 5xx, as GitHub's redelivery would; each delivery
    // keeps its id.
    for (int attempt = 0; attempt < 360 && (status < 200 || status >= 300); attempt++) {
      try {
        status = client.deliver("issues", id, body).statusCode();
      } catch (java.io.IOException e) {
        status = -1;
      }
      if (status < 200 || status >= 300) {
        sleep(Duration.ofMillis(500));
      }
    }
    answers.put(id, status);
  }

  static String payload(
      String repo, int number, String action, String state, String createdAt, String updatedAt) {
    return """
        {"action": "%s", "issue": {"number": %d, "title": "Rank %d hangs in all_reduce", "body": "NCCL watchdog timeout", "state": "%s",
          "html_url": "https://github.com/%s/issues/%d", "user": {"login": "someone"}, "labels": [],
          "created_at": "%s", "updated_at": "%s", "closed_at": %s},
         "repository": {"full_name": "%s"}}
        """
        .formatted(
            action,
            number,
            number,
            state,
            repo,
            number,
            createdAt,
            updatedAt,
            "closed".equals(state) ? "\"" + updatedAt + "\"" : "null",
            repo);
  }

  /** Statuses of deliveries that were not answered 2xx. */
  List<Integer> failures() {
    List<Integer> bad = new ArrayList<>();
    answers
        .values()
        .forEach(
            s -> {
              if (s < 200 || s >= 300) {
                bad.add(s);
              }
            });
    return bad;
  }

  int answered() {
    return answers.size();
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}
