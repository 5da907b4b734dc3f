package dev.faultline.ingest.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitHubRestBackfillTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REPO = "deepspeedai/DeepSpeed";
  private static final String ISSUES =
      "/repos/" + REPO + "/issues?state=all&sort=updated&direction=asc&per_page=100";
  private static final String PULLS =
      "/repos/" + REPO + "/pulls?state=all&sort=updated&direction=asc&per_page=100";
  private static final String COMMENTS =
      "/repos/" + REPO + "/issues/comments?sort=updated&direction=asc&per_page=100";
  private static final String RELEASES = "/repos/" + REPO + "/releases?per_page=100";

  @TempDir Path tmp;
  private FakeGitHub github;
  private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
  private final Sleeper sleeper =
      d -> {
        sleeps.add(d);
        clock.advance(d);
      };

  /** A clock that moves only when the fake sleeper sleeps. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** Records deliveries; acknowledges at once. */
  static final class Recording implements DeliveryPublisher {
    final List<BackfillDelivery> published = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<Void> publish(String key, Delivery delivery) {
      published.add(new BackfillDelivery(key, delivery));
      return CompletableFuture.completedFuture(null);
    }

    List<String> ids() {
      return published.stream().map(d -> d.delivery().getDeliveryId()).toList();
    }

    @Override
    public void close() {}
  }

  @BeforeEach
  void startFakeGitHub() throws IOException {
    github = new FakeGitHub();
    github.on(
        "/repos/" + REPO,
        FakeGitHub.Answer.ok(
            "{\"id\":235860204,\"name\":\"DeepSpeed\",\"full_name\":\"deepspeedai/DeepSpeed\",\"owner\":{\"login\":\"deepspeedai\"}}"));
    github.on(
        RELEASES,
        FakeGitHub.Answer.ok(
            "[{\"id\":501,\"tag_name\":\"v0.16.0\",\"draft\":false,\"author\":{\"login\":\"rel\"},"
                + "\"created_at\":\"2025-01-01T00:00:00Z\",\"published_at\":\"2025-01-02T00:00:00Z\"}]"));
    github.on(
        ISSUES + "&page=1",
        page(
            "[{\"id\":1001,\"number\":1,\"title\":\"hang\",\"state\":\"open\",\"user\":{\"login\":\"a\"},"
                + "\"updated_at\":\"2025-02-01T00:00:00Z\"},"
                + "{\"id\":1002,\"number\":2,\"title\":\"a PR as an issue\",\"state\":\"open\",\"pull_request\":{},"
                + "\"updated_at\":\"2025-02-02T00:00:00Z\"}]",
            github.link(ISSUES, 1, 2)));
    github.on(
        ISSUES,
        page(
            "[{\"id\":1001,\"number\":1,\"title\":\"hang\",\"state\":\"open\",\"user\":{\"login\":\"a\"},"
                + "\"updated_at\":\"2025-02-01T00:00:00Z\"},"
                + "{\"id\":1002,\"number\":2,\"title\":\"a PR as an issue\",\"state\":\"open\",\"pull_request\":{},"
                + "\"updated_at\":\"2025-02-02T00:00:00Z\"}]",
            github.link(ISSUES, 1, 2)));
    github.on(
        ISSUES + "&page=2",
        page(
            "[{\"id\":1003,\"number\":3,\"title\":\"oom\",\"state\":\"closed\",\"user\":{\"login\":\"b\"},"
                + "\"updated_at\":\"2025-02-03T00:00:00Z\"}]",
            github.link(ISSUES, 2, 2)));
    github.on(
        PULLS,
        FakeGitHub.Answer.ok(
            "[{\"id\":2002,\"number\":2,\"title\":\"fix\",\"state\":\"closed\",\"merged_at\":\"2025-02-04T00:00:00Z\","
                + "\"user\":{\"login\":\"c\"},\"updated_at\":\"2025-02-04T00:00:00Z\"}]"));
    github.on(
        COMMENTS,
        FakeGitHub.Answer.ok(
            "[{\"id\":3001,\"issue_url\":\"https://api.github.com/repos/deepspeedai/DeepSpeed/issues/1\","
                + "\"body\":\"same\",\"user\":{\"login\":\"d\"},\"updated_at\":\"2025-02-05T00:00:00Z\"}]"));
  }

  private static FakeGitHub.Answer page(String body, String link) {
    return new FakeGitHub.Answer(200, body, Map.of("Link", link));
  }

  @AfterEach
  void stop() {
    github.close();
  }

  private BackfillCommand command(Recording publisher) {
    return new BackfillCommand(
        Map.of("GITHUB_TOKEN", "ghp_test"),
        (s, t) -> publisher,
        HttpClient.newHttpClient(),
        clock,
        sleeper);
  }

  private int run(Recording publisher, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "github",
                "--repo",
                REPO,
                "--api-url",
                github.baseUrl(),
                "--checkpoint",
                tmp.resolve("cp").toString()));
    args.addAll(List.of(extra));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        command(publisher)
            .execute(
                args.toArray(String[]::new),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
    if (code != 0) {
      System.out.println("backfill stderr: " + err);
    }
    return code;
  }

  @Test
  void backfillsReleasesIssuesPullRequestsAndCommentsAsWebhookShapedDeliveries()
      throws IOException {
    Recording publisher = new Recording();
    assertEquals(0, run(publisher));

    assertEquals(
        List.of(
            "rest-release-501-2025-01-02T00:00:00Z",
            "rest-issue-1001-2025-02-01T00:00:00Z",
            "rest-issue-1003-2025-02-03T00:00:00Z",
            "rest-pr-2002-2025-02-04T00:00:00Z",
            "rest-comment-3001-2025-02-05T00:00:00Z"),
        publisher.ids(),
        "the pull request listed among issues comes from the pulls listing only");
    assertEquals(
        List.of(
            "deepspeedai/DeepSpeed",
            "deepspeedai/DeepSpeed#1",
            "deepspeedai/DeepSpeed#3",
            "deepspeedai/DeepSpeed#2",
            "deepspeedai/DeepSpeed#1"),
        publisher.published.stream().map(BackfillDelivery::key).toList());
    Delivery closedIssue = publisher.published.get(2).delivery();
    assertEquals("issues", closedIssue.getEvent());
    assertEquals("closed", closedIssue.getAction());
    assertEquals(DeliverySource.REST_API, closedIssue.getSource());
    JsonNode payload = JSON.readTree(closedIssue.getPayloadJson());
    assertEquals("deepspeedai/DeepSpeed", payload.path("repository").path("full_name").asText());
    assertEquals("b", payload.path("sender").path("login").asText());
    assertTrue(
        payload.path("_backfill").isMissingNode(), "the source travels in the envelope only");
    JsonNode comment = JSON.readTree(publisher.published.get(4).delivery().getPayloadJson());
    assertEquals(1, comment.path("issue").path("number").asInt());
    assertTrue(
        github.authorizations.stream().allMatch("Bearer ghp_test"::equals),
        "token from GITHUB_TOKEN");
  }

  @Test
  void sleepsUntilTheRateLimitResetsWhenItIsUsedUp() {
    long reset = clock.instant().plusSeconds(120).getEpochSecond();
    github.on(
        ISSUES,
        new FakeGitHub.Answer(
            200,
            "[{\"id\":1001,\"number\":1,\"state\":\"open\",\"updated_at\":\"2025-02-01T00:00:00Z\"}]",
            Map.of(
                "Link",
                github.link(ISSUES, 1, 2),
                "X-RateLimit-Remaining",
                "0",
                "X-RateLimit-Reset",
                Long.toString(reset))));
    github.on(
        COMMENTS,
        new FakeGitHub.Answer(
            403,
            "{\"message\":\"API rate limit exceeded\"}",
            Map.of("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", Long.toString(reset + 3600))),
        FakeGitHub.Answer.ok("[]"));
    Recording publisher = new Recording();

    assertEquals(0, run(publisher));
    assertEquals(2, sleeps.size(), "slept for the used-up limit and for the 403: " + sleeps);
    assertEquals(Duration.ofSeconds(121), sleeps.get(0));
    assertTrue(sleeps.get(1).toSeconds() >= 3600 - 1, sleeps.toString());
    assertEquals(
        2,
        github.requests.stream().filter(COMMENTS::equals).count(),
        "the refused page is fetched again");
  }

  @Test
  void resumesFromTheCheckpointAfterAnInterruption() {
    github.on(
        ISSUES + "&page=2", new FakeGitHub.Answer(404, "{\"message\":\"Not Found\"}", Map.of()));
    Recording first = new Recording();
    assertEquals(1, run(first), "the run stops at the failing page");
    assertEquals(
        List.of("rest-release-501-2025-01-02T00:00:00Z", "rest-issue-1001-2025-02-01T00:00:00Z"),
        first.ids());

    github.on(
        ISSUES + "&page=2",
        page(
            "[{\"id\":1003,\"number\":3,\"state\":\"closed\",\"updated_at\":\"2025-02-03T00:00:00Z\"}]",
            github.link(ISSUES, 2, 2)));
    github.requests.clear();
    Recording second = new Recording();
    assertEquals(0, run(second));

    assertFalse(github.requests.contains(ISSUES), "page 1 of the issues is not fetched again");
    assertFalse(github.requests.contains(RELEASES), "finished listings are not fetched again");
    assertEquals(
        List.of(
            "rest-issue-1003-2025-02-03T00:00:00Z",
            "rest-pr-2002-2025-02-04T00:00:00Z",
            "rest-comment-3001-2025-02-05T00:00:00Z"),
        second.ids());
  }

  @Test
  void aLaterRunAsksOnlyForWhatChangedSinceTheLastCompletedRun() {
    assertEquals(0, run(new Recording()));
    clock.advance(Duration.ofDays(1));
    String since = "&since=2025-06-01T00%3A00%3A00Z";
    github.on(ISSUES + since, FakeGitHub.Answer.ok("[]"));
    github.on(COMMENTS + since, FakeGitHub.Answer.ok("[]"));
    github.on(
        PULLS.replace("direction=asc", "direction=desc"),
        FakeGitHub.Answer.ok(
            "[{\"id\":2002,\"number\":2,\"state\":\"closed\",\"updated_at\":\"2025-02-04T00:00:00Z\"}]"));
    github.requests.clear();
    Recording second = new Recording();

    assertEquals(0, run(second));
    assertTrue(github.requests.contains(ISSUES + since), github.requests.toString());
    assertEquals(List.of(), second.ids(), "nothing changed since the first run");
  }

  @Test
  void explainsAMissingRepository() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        command(new Recording())
            .execute(
                new String[] {
                  "github",
                  "--repo",
                  "nobody/nothing",
                  "--api-url",
                  github.baseUrl(),
                  "--checkpoint",
                  tmp.resolve("cp").toString()
                },
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
    assertEquals(1, code);
    assertTrue(err.toString().contains("check the repository name"), err.toString());
  }

  @Test
  void gitHubApiFollowsLinkHeaders() throws Exception {
    GitHubApi api =
        new GitHubApi(HttpClient.newHttpClient(), github.base(), null, JSON, clock, sleeper);
    GitHubApi.Page page = api.get(api.resolve(ISSUES));
    assertEquals(Optional.of(2), page.lastPage());
    assertEquals(github.baseUrl() + ISSUES + "&page=2", page.next().orElseThrow().toString());
    assertThrows(IOException.class, () -> api.get(api.resolve("/nope")));
  }
}
