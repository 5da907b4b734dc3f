package dev.faultline.ingest.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.backfill.git.GitHistoryReader;
import dev.faultline.ingest.backfill.git.ReleaseTagPatterns;
import dev.faultline.ingest.backfill.git.testing.GitHistoryFixture;
import dev.faultline.schemas.DeliverySource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitBackfillTest {
  private static final String REPO = "acme/trainer";
  private static final Instant T0 = Instant.parse("2025-02-01T00:00:00Z");
  private static final int CHANGES = 123;
  private static final int EVERY = 50;

  @TempDir Path tmp;
  private Path bare;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private final GitBackfill.Range everything =
      new GitBackfill.Range(Optional.empty(), Optional.empty(), Optional.empty());

  /** Records what it is given; fails on the n-th delivery when told to (a crash mid-run). */
  private static final class RecordingSink implements GitBackfill.Sink {
    final List<BackfillDelivery> accepted = new ArrayList<>();
    final List<BackfillDelivery> durable = new ArrayList<>();
    int failAt = -1;

    @Override
    public void accept(BackfillDelivery d) {
      if (accepted.size() == failAt) {
        throw new IllegalStateException("Kafka refused a backfilled delivery: broker went away");
      }
      accepted.add(d);
    }

    @Override
    public void flush() {
      durable.clear();
      durable.addAll(accepted);
    }
  }

  @BeforeEach
  void buildHistory() throws IOException {
    bare = tmp.resolve("trainer.git");
    try (GitHistoryFixture git = GitHistoryFixture.create(bare)) {
      for (int i = 1; i <= CHANGES; i++) {
        git.write("src/f" + (i % 7) + ".py", "value = " + i + "\n");
        String message =
            i % 10 == 0
                ? "Fix rank " + i + " (#" + i + ")\n\nFixes #" + (5000 + i)
                : "Change " + i + " (#" + i + ")";
        ObjectId c = git.commit(message, T0.plusSeconds(3_600L * i), "dev@example.org");
        if (i % 40 == 0) {
          git.annotatedTag("v0." + (i / 40) + ".0", c, T0.plusSeconds(3_600L * i + 60));
        }
      }
    }
  }

  private GitBackfill.Counts run(RecordingSink sink, Checkpoint checkpoint) throws IOException {
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      return new GitBackfill(
              reader,
              new GitDeliveries(mapper, REPO, clock),
              Optional.of(checkpoint),
              REPO,
              EVERY,
              List.of())
          .run(everything, ReleaseTagPatterns.forRepository(REPO), sink, quietProgress());
    }
  }

  private static Progress quietProgress() {
    return new Progress(
        "git",
        "changes",
        new PrintStream(new ByteArrayOutputStream()),
        false,
        Duration.ofHours(1),
        System::nanoTime);
  }

  @Test
  void sendsReleasesThenEveryChangeAsWebhookShapedDeliveries() throws IOException {
    RecordingSink sink = new RecordingSink();
    GitBackfill.Counts counts = run(sink, Checkpoint.load(tmp.resolve("cp.properties")));
    assertEquals(CHANGES, counts.changes());
    assertEquals(3, counts.releases());
    assertEquals(12, counts.withClosingReferences());
    assertEquals(CHANGES + 3, sink.accepted.size());
    BackfillDelivery release = sink.accepted.get(0);
    assertEquals("release", release.delivery().getEvent());
    assertEquals("published", release.delivery().getAction());
    assertEquals(REPO, release.key());
    assertEquals(DeliverySource.GIT, release.delivery().getSource());
    JsonNode r = mapper.readTree(release.delivery().getPayloadJson()).path("release");
    assertEquals("v0.1.0", r.path("tag_name").asText());
    assertEquals(T0.plusSeconds(3_600L * 40 + 60).toString(), r.path("published_at").asText());

    BackfillDelivery tenth = sink.accepted.get(3 + 9);
    assertEquals("pull_request", tenth.delivery().getEvent());
    assertEquals("closed", tenth.delivery().getAction());
    assertEquals("acme/trainer#10", tenth.key());
    JsonNode payload = mapper.readTree(tenth.delivery().getPayloadJson());
    JsonNode pr = payload.path("pull_request");
    assertEquals(10, pr.path("number").asInt());
    assertEquals("Fix rank 10", pr.path("title").asText());
    assertTrue(pr.path("merged").asBoolean());
    assertEquals(T0.plusSeconds(36_000).toString(), pr.path("merged_at").asText());
    assertEquals(pr.path("merged_at"), pr.path("updated_at"));
    assertEquals(1, pr.path("additions").asInt());
    assertEquals(1, pr.path("deletions").asInt());
    assertEquals(1, pr.path("changed_files").asInt());
    assertEquals(REPO, payload.path("repository").path("full_name").asText());
    // The source travels once, in the envelope.
    assertEquals(DeliverySource.GIT, tenth.delivery().getSource());
    assertTrue(payload.path("_backfill").path("source").isMissingNode());
    assertEquals("SQUASH", payload.path("_backfill").path("change_kind").asText());
    assertEquals(
        "acme/trainer#5010", payload.path("_backfill").path("closing_references").path(0).asText());
    assertEquals(
        "src/f3.py", payload.path("_backfill").path("files").path(0).path("filename").asText());
  }

  @Test
  void aSecondRunSendsTheSameDeliveriesWithTheSameIds() throws IOException {
    RecordingSink first = new RecordingSink();
    run(first, Checkpoint.load(tmp.resolve("cp.properties")));
    RecordingSink second = new RecordingSink();
    run(second, Checkpoint.load(tmp.resolve("cp.properties")));
    assertEquals(ids(first.accepted), ids(second.accepted));
    assertEquals(
        first.accepted.stream().map(d -> d.delivery().getPayloadJson()).toList(),
        second.accepted.stream().map(d -> d.delivery().getPayloadJson()).toList());
    assertEquals(CHANGES + 3, new LinkedHashSet<>(ids(first.accepted)).size(), "ids are unique");
  }

  @Test
  void resumesAfterTheLastCheckpointedCommitWithNothingLost() throws IOException {
    Path file = tmp.resolve("cp.properties");
    RecordingSink crashed = new RecordingSink();
    crashed.failAt = 3 + 110; // after two checkpoints (50, 100), before the end
    assertThrows(IllegalStateException.class, () -> run(crashed, Checkpoint.load(file)));
    assertTrue(Checkpoint.load(file).get("git.acme/trainer.last").isPresent());

    RecordingSink resumed = new RecordingSink();
    GitBackfill.Counts counts = run(resumed, Checkpoint.load(file));
    assertEquals(100, counts.resumedAfter());
    assertEquals(CHANGES - 100, counts.changes());

    // Everything the crashed run had made durable, plus the resumed run, is the whole history; the
    // only deliveries
    // sent twice are the ones after the last checkpoint, with the same ids.
    LinkedHashSet<String> union = new LinkedHashSet<>(ids(crashed.durable));
    union.addAll(ids(resumed.accepted));
    RecordingSink whole = new RecordingSink();
    run(whole, Checkpoint.load(tmp.resolve("fresh.properties")));
    assertEquals(new LinkedHashSet<>(ids(whole.accepted)), union);
    assertFalse(
        Checkpoint.load(file).get("git.acme/trainer.last").isPresent(),
        "a completed run clears its checkpoint");
  }

  @Test
  void aDifferentRangeDoesNotResumeAnotherRangesCheckpoint() throws IOException {
    Path file = tmp.resolve("cp.properties");
    RecordingSink crashed = new RecordingSink();
    crashed.failAt = 3 + 70;
    assertThrows(IllegalStateException.class, () -> run(crashed, Checkpoint.load(file)));
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      GitBackfill.Range since =
          new GitBackfill.Range(Optional.of(T0), Optional.empty(), Optional.empty());
      GitBackfill.Counts counts =
          new GitBackfill(
                  reader,
                  new GitDeliveries(mapper, REPO, clock),
                  Optional.of(Checkpoint.load(file)),
                  REPO,
                  EVERY,
                  List.of())
              .run(
                  since,
                  ReleaseTagPatterns.forRepository(REPO),
                  new RecordingSink(),
                  quietProgress());
      assertEquals(0, counts.resumedAfter());
      assertEquals(CHANGES, counts.changes());
    }
  }

  @Test
  void readersOnThreadsSendTheSameDeliveriesInHistoryOrder() throws IOException {
    RecordingSink alone = new RecordingSink();
    run(alone, Checkpoint.load(tmp.resolve("alone.properties")));
    RecordingSink threads = new RecordingSink();
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO);
        GitHistoryReader second = GitHistoryReader.open(bare, REPO);
        GitHistoryReader third = GitHistoryReader.open(bare, REPO)) {
      GitBackfill.Counts counts =
          new GitBackfill(
                  reader,
                  new GitDeliveries(mapper, REPO, clock),
                  Optional.of(Checkpoint.load(tmp.resolve("threads.properties"))),
                  REPO,
                  EVERY,
                  List.of(second, third))
              .run(everything, ReleaseTagPatterns.forRepository(REPO), threads, quietProgress());
      assertEquals(CHANGES, counts.changes());
    }
    assertEquals(ids(alone.accepted), ids(threads.accepted));
    assertEquals(
        alone.accepted.stream().map(d -> d.delivery().getPayloadJson()).toList(),
        threads.accepted.stream().map(d -> d.delivery().getPayloadJson()).toList());
  }

  @Test
  void refusesAnEmptyRange() throws IOException {
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      GitBackfill.Range later =
          new GitBackfill.Range(
              Optional.of(Instant.parse("2030-01-01T00:00:00Z")),
              Optional.empty(),
              Optional.empty());
      GitBackfill.EmptyRangeException e =
          assertThrows(
              GitBackfill.EmptyRangeException.class,
              () ->
                  new GitBackfill(
                          reader, new GitDeliveries(mapper, REPO, clock), Optional.empty(), REPO)
                      .run(
                          later,
                          ReleaseTagPatterns.forRepository(REPO),
                          new RecordingSink(),
                          quietProgress()));
      assertTrue(
          e.getMessage().contains("no commits on refs/heads/main since 2030-01-01T00:00:00Z"),
          e.getMessage());
    }
  }

  private static List<String> ids(List<BackfillDelivery> deliveries) {
    return deliveries.stream().map(d -> d.delivery().getDeliveryId()).toList();
  }
}
