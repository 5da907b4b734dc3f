package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.backfill.BackfillCommand;
import dev.faultline.ingest.backfill.git.testing.GitHistoryFixture;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.Topic;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faultline backfill git} into the whole local stack: a history the test builds (squash
 * merges, merge commits, direct commits, closing references, release tags) becomes PullRequest
 * nodes with their sizes, FIXES edges and Release nodes, checked by Cypher against what the test
 * wrote; a run that dies midway (its publisher failing, and, in a test of its own, the backfill
 * process killed with SIGKILL) resumes from its checkpoint with nothing lost or doubled; an issue
 * arriving after the change that fixes it keeps the edge; and running the backfill again changes
 * nothing in the graph.
 */
class GitBackfillIT {
  private static final String REPO = "faultline-drills/git-history";
  private static final Instant T0 = Instant.parse("2025-01-06T10:00:00Z");
  private static final int CHANGES = 60;
  private static final Duration DEADLINE = Duration.ofMinutes(3);

  @TempDir Path dir;
  private final ObjectMapper json = new ObjectMapper();

  /** What the graph must hold for one change: its node id, sizes and the issues it closes. */
  private record Expected(
      String id, long additions, long deletions, long changedFiles, List<String> fixes) {}

  private static String lines(int n, int i) {
    return IntStream.rangeClosed(1, n)
        .mapToObj(k -> "value_" + i + "_" + k + " = " + k + "\n")
        .collect(Collectors.joining());
  }

  /** Builds the history and returns what each change must become, by id. */
  private Map<String, Expected> buildHistory(Path bare) throws Exception {
    Map<String, Expected> expected = new TreeMap<>();
    try (GitHistoryFixture git = GitHistoryFixture.create(bare)) {
      git.write("README.md", "# drills\nrevision 0\n");
      ObjectId initial = git.commit("Initial import", T0, "maintainer@example.org");
      expected.put(
          REPO + "@" + initial.name(),
          new Expected(REPO + "@" + initial.name(), 2, 0, 1, List.of()));
      for (int i = 1; i <= CHANGES; i++) {
        Instant at = T0.plusSeconds(3_600L * i);
        int n = i % 7 + 1;
        ObjectId commit;
        if (i % 15 == 0) {
          git.write("src/f" + i + ".py", lines(n, i));
          ObjectId side = git.sideCommit(git.head(), "feature " + i, at.minusSeconds(600));
          commit =
              git.commit(
                  "Merge pull request #"
                      + (1000 + i)
                      + " from dev/branch-"
                      + i
                      + "\n\nFeature "
                      + i
                      + "\n\nFixes #"
                      + i,
                  at,
                  "maintainer@example.org",
                  side);
          expected.put(
              REPO + "#" + (1000 + i),
              new Expected(REPO + "#" + (1000 + i), n, 0, 1, List.of(REPO + "#" + i)));
        } else if (i % 10 == 0) {
          git.write("README.md", "# drills\nrevision " + i + "\n");
          commit = git.commit("Update README to revision " + i, at, "maintainer@example.org");
          expected.put(
              REPO + "@" + commit.name(),
              new Expected(REPO + "@" + commit.name(), 1, 1, 1, List.of()));
        } else {
          git.write("src/f" + i + ".py", lines(n, i));
          String body =
              i % 4 == 0
                  ? "\n\nFixes #" + i
                  : i % 4 == 1
                      ? "\n\ncloses other-org/lib#" + i
                      : i % 4 == 2
                          ? "\n\nResolves https://github.com/" + REPO + "/issues/" + i
                          : "";
          commit =
              git.commit(
                  "Change " + i + " (#" + (1000 + i) + ")" + body,
                  at,
                  (1000 + i) + "+dev@users.noreply.github.com");
          List<String> fixes =
              i % 4 == 0 || i % 4 == 2
                  ? List.of(REPO + "#" + i)
                  : i % 4 == 1 ? List.of("other-org/lib#" + i) : List.of();
          expected.put(
              REPO + "#" + (1000 + i), new Expected(REPO + "#" + (1000 + i), n, 0, 1, fixes));
        }
        if (i == 20) {
          git.annotatedTag("v0.1.0", commit, at.plusSeconds(60));
        } else if (i == 40) {
          git.lightweightTag("v0.2.0", commit);
        } else if (i == 50) {
          git.lightweightTag("nightly", commit);
        }
      }
    }
    return expected;
  }

  /**
   * A publisher that sends the first {@code limit} deliveries to Kafka and then fails: a backfill
   * dying midway.
   */
  private static BiFunction<String, String, DeliveryPublisher> dyingAfter(int limit) {
    return (servers, topic) -> {
      DeliveryPublisher kafka = BackfillCommand.kafkaPublisher(servers, topic, Map.of());
      AtomicInteger sent = new AtomicInteger();
      return new DeliveryPublisher() {
        @Override
        public CompletableFuture<Void> publish(String key, Delivery delivery) {
          return sent.incrementAndGet() <= limit
              ? kafka.publish(key, delivery)
              : CompletableFuture.failedFuture(
                  new IllegalStateException("the backfill process died"));
        }

        @Override
        public void close() {
          kafka.close();
        }
      };
    };
  }

  private static int backfill(
      BiFunction<String, String, DeliveryPublisher> publishers,
      ByteArrayOutputStream out,
      String... args) {
    return new BackfillCommand(
            Map.of(), publishers, HttpClient.newHttpClient(), Clock.systemUTC(), d -> {})
        .execute(args, new PrintStream(out, true), new PrintStream(out, true));
  }

  @Test
  void backfillsAClonesFixHistoryResumesAfterACrashAndChangesNothingTheSecondTime()
      throws Exception {
    Path bare = dir.resolve("history.git");
    Map<String, Expected> expected = buildHistory(bare);
    Path checkpoint = dir.resolve("git-checkpoint.properties");
    try (LocalStack stack =
        LocalStack.start(new LocalOptions(dir.resolve("data"), 0, 0, 0, 0, 0), Map.of())) {
      StackClient client = StackClient.of(stack);
      Poll.until(Duration.ofSeconds(90), "/health 200", () -> status(client) == 200);
      String servers = stack.kafka().bootstrapServers();
      String[] args = {
        "git",
        "--repo",
        REPO,
        "--bootstrap-servers",
        servers,
        "--checkpoint",
        checkpoint.toString(),
        "--checkpoint-every",
        "10",
        bare.toString()
      };

      // Dies after the 2 releases and 25 changes: the checkpoint holds change 20.
      ByteArrayOutputStream crashed = new ByteArrayOutputStream();
      assertEquals(1, backfill(dyingAfter(2 + 25), crashed, args), crashed.toString());
      assertTrue(
          Files.readString(checkpoint).contains("git.faultline-drills/git-history.last="),
          Files.readString(checkpoint));

      ByteArrayOutputStream resumed = new ByteArrayOutputStream();
      assertEquals(
          0,
          backfill((s, t) -> BackfillCommand.kafkaPublisher(s, t, Map.of()), resumed, args),
          resumed.toString());
      assertTrue(resumed.toString().contains("(resumed after 20)"), resumed.toString());
      assertTrue(
          resumed.toString().contains("41 merged changes (35 squash, 3 merge commits, 3 direct)"),
          resumed.toString());

      awaitPipelineCaughtUp(servers);
      assertEquals(
          expected,
          graphChanges(client),
          "every change once, with its size and closing references");
      assertEquals(
          List.of(
              REPO + "@0.1.0 " + T0.plusSeconds(3_600L * 20 + 60),
              REPO + "@0.2.0 " + T0.plusSeconds(3_600L * 40)),
          releases(client));
      assertEquals(
          56,
          client.count(
              "MATCH (p:PullRequest {repo: $repo}) WHERE p.number IS NOT NULL AND p.changeKind IN ['SQUASH', 'MERGE'] RETURN count(p)",
              Map.of("repo", REPO)));

      // The issue a change closes arrives after the change: its node fills in, the FIXES edge
      // stays.
      client.deliver("issues", UUID.randomUUID().toString(), issuePayload(4));
      Poll.until(
          DEADLINE,
          "issue #4 in the graph",
          () ->
              count(
                      client,
                      "MATCH (i:Issue {id: $id}) WHERE i.title IS NOT NULL RETURN count(i)",
                      Map.of("id", REPO + "#4"))
                  == 1);
      assertEquals(
          1,
          client.count(
              "MATCH (:PullRequest {id: $pr})-[f:FIXES]->(:Issue {id: $id}) RETURN count(f)",
              Map.of("pr", REPO + "#1004", "id", REPO + "#4")));

      // A second run sends the same history again: the graph does not change.
      awaitPipelineCaughtUp(servers);
      JsonNode before = fingerprint(client);
      ByteArrayOutputStream again = new ByteArrayOutputStream();
      assertEquals(
          0,
          backfill((s, t) -> BackfillCommand.kafkaPublisher(s, t, Map.of()), again, args),
          again.toString());
      assertTrue(
          again
              .toString()
              .contains((CHANGES + 1) + " merged changes (52 squash, 4 merge commits, 5 direct)"),
          again.toString());
      awaitPipelineCaughtUp(servers);
      assertEquals(before, fingerprint(client));
      assertEquals(List.of(), DeadLetterTopic.read(servers), "dead letters: nothing was poisoned");
    }
  }

  /**
   * The backfill as its own process, killed with SIGKILL once its first checkpoint is written (no
   * shutdown hook, no final flush), then run again: it resumes after the checkpoint and every
   * change is in the graph once, with its size.
   */
  @Test
  void aBackfillProcessKilledMidwayResumesWithNothingLostOrDoubled() throws Exception {
    String repo = "faultline-drills/killed-backfill";
    int changes = 1_500;
    Path bare = dir.resolve("long-history.git");
    long additions = 0;
    try (GitHistoryFixture git = GitHistoryFixture.create(bare)) {
      for (int i = 1; i <= changes; i++) {
        int n = i % 5 + 1;
        additions += n;
        git.write("src/m" + (i % 40) + "/f" + i + ".py", lines(n, i));
        git.commit("Change " + i + " (#" + i + ")", T0.plusSeconds(60L * i), "dev@example.org");
      }
    }
    Path checkpoint = dir.resolve("killed-checkpoint.properties");
    try (LocalStack stack =
        LocalStack.start(new LocalOptions(dir.resolve("data-killed"), 0, 0, 0, 0, 0), Map.of())) {
      StackClient client = StackClient.of(stack);
      Poll.until(Duration.ofSeconds(90), "/health 200", () -> status(client) == 200);
      String servers = stack.kafka().bootstrapServers();
      List<String> args =
          List.of(
              "git",
              "--repo",
              repo,
              "--bootstrap-servers",
              servers,
              "--checkpoint",
              checkpoint.toString(),
              "--checkpoint-every",
              "100",
              bare.toString());

      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of("-cp", System.getProperty("java.class.path")));
      command.addAll(List.of("dev.faultline.infra.Faultline", "backfill"));
      command.addAll(args);
      Path log = dir.resolve("killed-backfill.log");
      Process child =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        Poll.until(
            DEADLINE,
            "the child's first checkpoint",
            () -> lastCommitIn(checkpoint) || !child.isAlive());
        assertTrue(
            child.isAlive(),
            "the backfill ended before it could be killed: " + Files.readString(log));
        child.destroyForcibly().waitFor();
      } finally {
        child.destroyForcibly();
      }
      assertTrue(
          Files.readString(checkpoint).contains(".last="),
          "a checkpoint of the last acknowledged commit: " + Files.readString(checkpoint));

      ByteArrayOutputStream resumed = new ByteArrayOutputStream();
      assertEquals(
          0,
          backfill(
              (s, t) -> BackfillCommand.kafkaPublisher(s, t, Map.of()),
              resumed,
              args.toArray(String[]::new)),
          resumed.toString());
      assertTrue(resumed.toString().contains("(resumed after "), resumed.toString());

      awaitPipelineCaughtUp(servers);
      Map<String, Object> params = Map.of("repo", repo);
      assertEquals(
          changes,
          client.count("MATCH (p:PullRequest {repo: $repo}) RETURN count(p)", params),
          "every change once");
      assertEquals(
          additions,
          client.count("MATCH (p:PullRequest {repo: $repo}) RETURN sum(p.additions)", params),
          "with its size, not doubled");
      assertEquals(
          0,
          client.count(
              "MATCH (p:PullRequest {repo: $repo}) WITH p.number AS n, count(*) AS c WHERE c > 1"
                  + " RETURN count(n)",
              params),
          "no change twice");
    }
  }

  /** Whether a checkpoint file names a last acknowledged commit yet (it names the range first). */
  private static boolean lastCommitIn(Path checkpoint) {
    try {
      return Files.exists(checkpoint) && Files.readString(checkpoint).contains(".last=");
    } catch (java.io.IOException e) {
      return false; // being replaced
    }
  }

  private byte[] issuePayload(int number) throws Exception {
    Map<String, Object> issue = new TreeMap<>();
    issue.put("number", number);
    issue.put("title", "Rank " + number + " stalls at the first barrier");
    issue.put("body", "Reported for the drill.");
    issue.put("state", "closed");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + number);
    issue.put("user", Map.of("login", "reporter"));
    issue.put("labels", List.of());
    issue.put("created_at", T0.toString());
    issue.put("updated_at", T0.plusSeconds(3_600L * number).toString());
    issue.put("closed_at", T0.plusSeconds(3_600L * number).toString());
    return json.writeValueAsBytes(
        Map.of("action", "closed", "issue", issue, "repository", Map.of("full_name", REPO)));
  }

  /** The changes of {@link #REPO} in the graph, as {@link Expected}s by id. */
  private static Map<String, Expected> graphChanges(StackClient client) throws Exception {
    Map<String, Expected> out = new TreeMap<>();
    JsonNode rows =
        client.cypher(
            "MATCH (p:PullRequest {repo: $repo}) OPTIONAL MATCH (p)-[:FIXES]->(i:Issue) WITH p, i ORDER BY i.id"
                + " WITH p, collect(i.id) AS fixes RETURN [p.id, p.additions, p.deletions, p.changedFiles, fixes]",
            Map.of("repo", REPO));
    for (JsonNode r : rows) {
      JsonNode v = r.path("row").path(0);
      List<String> fixes = new ArrayList<>();
      v.path(4).forEach(f -> fixes.add(f.asText()));
      Expected e =
          new Expected(
              v.path(0).asText(),
              v.path(1).asLong(),
              v.path(2).asLong(),
              v.path(3).asLong(),
              fixes);
      if (out.put(e.id(), e) != null) {
        throw new AssertionError("two nodes for " + e.id());
      }
    }
    return out;
  }

  private static List<String> releases(StackClient client) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode r :
        client.cypher(
            "MATCH (r:Release {repo: $repo}) RETURN r.id + ' ' + toString(r.publishedAt) ORDER BY r.publishedAt",
            Map.of("repo", REPO))) {
      out.add(r.path("row").path(0).asText());
    }
    return out;
  }

  /**
   * Everything the backfill writes: nodes and edges with their properties, ordered (compared as
   * JSON trees).
   */
  private static JsonNode fingerprint(StackClient client) throws Exception {
    return client.cypher(
        "MATCH (n) WHERE n:PullRequest OR n:Release OR n:Issue OR n:Repository OR n:Framework"
            + " OPTIONAL MATCH (n)-[r]->(m) WITH n, r, m ORDER BY type(r), elementId(m)"
            + " WITH n, collect([type(r), properties(r), coalesce(m.id, m.fullName, m.name, m.code)]) AS out"
            + " RETURN [labels(n), properties(n), out] ORDER BY coalesce(n.id, n.fullName, n.name)",
        Map.of());
  }

  /**
   * Waits until the issue pipeline has committed offsets up to the end of every partition of the
   * delivery topic: it commits them when a checkpoint completes, and the graph sink flushes on
   * every checkpoint, so then everything sent is in the graph.
   */
  private static void awaitPipelineCaughtUp(String servers) throws Exception {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
      String topic = Topic.DELIVERIES.topicName();
      List<TopicPartition> partitions =
          IntStream.range(0, LocalStack.PARTITIONS)
              .mapToObj(p -> new TopicPartition(topic, p))
              .toList();
      Map<TopicPartition, OffsetSpec> latest =
          new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
      partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
      Map<TopicPartition, Long> ends = new java.util.HashMap<>();
      admin.listOffsets(latest).all().get().forEach((p, info) -> ends.put(p, info.offset()));
      Poll.until(
          DEADLINE,
          "the issue pipeline to commit offsets up to " + ends,
          () -> {
            try {
              Map<TopicPartition, OffsetAndMetadata> committed =
                  admin
                      .listConsumerGroupOffsets("faultline-issue-pipeline")
                      .partitionsToOffsetAndMetadata()
                      .get();
              return ends.entrySet().stream()
                  .allMatch(
                      e ->
                          e.getValue() == 0
                              || (committed.get(e.getKey()) != null
                                  && committed.get(e.getKey()).offset() >= e.getValue()));
            } catch (Exception e) {
              return false;
            }
          });
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
