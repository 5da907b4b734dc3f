package dev.faultline.ingest.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackfillCommandTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final GitHubRestBackfillTest.Recording publisher = new GitHubRestBackfillTest.Recording();
  private final AtomicReference<String> servers = new AtomicReference<>();

  private int run(String... args) {
    return new BackfillCommand(
            Map.of(),
            (s, topic) -> {
              servers.set(s + " " + topic);
              return publisher;
            },
            HttpClient.newHttpClient(),
            Clock.systemUTC(),
            d -> {})
        .execute(args, new PrintStream(out), new PrintStream(err));
  }

  private Path gzipped(String name) throws IOException {
    Path file = tmp.resolve(name);
    try (InputStream in = getClass().getResourceAsStream("/gharchive/events.json");
        OutputStream gz = new GZIPOutputStream(Files.newOutputStream(file))) {
      in.transferTo(gz);
    }
    return file;
  }

  @Test
  void printsHelp() {
    assertEquals(0, run("backfill", "--help"));
    assertTrue(out.toString().contains("faultline backfill gharchive"), out.toString());
    assertTrue(out.toString().contains("GITHUB_TOKEN"));
  }

  @Test
  void refusesUnknownSourcesAndOptionsWithExitCode2() {
    assertEquals(2, run("svn"));
    assertTrue(
        err.toString().contains("Unmatched argument at index 0: 'svn'")
            && err.toString().contains("Usage: backfill"),
        err.toString());
    assertEquals(2, run("gharchive", "--frobnicate", "x"));
    assertEquals(2, run("gharchive"));
    assertEquals(2, run());
  }

  @Test
  void backfillsGhArchiveFilesToTheConfiguredKafka() throws IOException {
    Path file = gzipped("2024-03-01-10.json.gz");
    assertEquals(
        0, run("gharchive", "--bootstrap-servers", "kafka:1234", file.toString()), err.toString());

    assertEquals("kafka:1234 faultline.deliveries", servers.get());
    assertEquals(4, publisher.published.size());
    assertTrue(out.toString().contains("7 events read, 4 kept"), out.toString());
  }

  @Test
  void gharchiveReplaysGiveTheSameDeliveryIds() throws IOException {
    Path file = gzipped("a.json.gz");
    run("gharchive", "--repos", "NVIDIA/Megatron-LM", file.toString());
    run("gharchive", "--repos", "NVIDIA/Megatron-LM", file.toString());
    assertEquals(List.of("gharchive-40000000004", "gharchive-40000000004"), publisher.ids());
  }

  private Path gitHistory() throws IOException {
    Path dir = tmp.resolve("trainer.git");
    try (dev.faultline.ingest.backfill.git.testing.GitHistoryFixture git =
        dev.faultline.ingest.backfill.git.testing.GitHistoryFixture.create(dir)) {
      java.time.Instant t = java.time.Instant.parse("2025-03-01T00:00:00Z");
      git.write("a.py", "x = 1\n");
      git.commit("Initial import", t, "dev@example.org");
      git.write("a.py", "x = 2\n");
      org.eclipse.jgit.lib.ObjectId fix =
          git.commit("Fix x (#2)\n\nFixes #1", t.plusSeconds(86_400), "dev@example.org");
      git.annotatedTag("v1.0.0", fix, t.plusSeconds(2 * 86_400));
    }
    return dir;
  }

  @Test
  void gitDryRunCountsAndPublishesNothing() throws IOException {
    Path dir = gitHistory();
    assertEquals(
        0,
        run("backfill", "git", "--repo", "acme/trainer", "--dry-run", dir.toString()),
        err.toString());
    assertEquals(List.of(), publisher.published);
    assertEquals(null, servers.get(), "a dry run connects to no Kafka");
    assertTrue(
        out.toString().contains("2 merged changes (1 squash, 0 merge commits, 1 direct)"),
        out.toString());
    assertTrue(
        out.toString().contains("1 with closing references (1 references), 1 release tags"),
        out.toString());
    assertTrue(out.toString().contains("dry run, nothing published"), out.toString());
  }

  @Test
  void gitPublishesToTheConfiguredKafkaAndCheckpoints() throws IOException {
    Path dir = gitHistory();
    Path checkpoint = tmp.resolve("git.properties");
    assertEquals(
        0,
        run(
            "git",
            "--repo",
            "acme/trainer",
            "--bootstrap-servers",
            "kafka:1234",
            "--checkpoint",
            checkpoint.toString(),
            dir.toString()),
        err.toString());
    assertEquals("kafka:1234 faultline.deliveries", servers.get());
    assertEquals(
        List.of("release", "pull_request", "pull_request"),
        publisher.published.stream().map(d -> d.delivery().getEvent()).toList());
    assertEquals("acme/trainer#2", publisher.published.get(2).key());
    assertTrue(Files.readString(checkpoint).contains("completed"), Files.readString(checkpoint));
    assertTrue(out.toString().contains("changes/s"), out.toString());
  }

  @Test
  void gitRefusesBadInputWithExitCode2AndAClearMessage() throws IOException {
    Path dir = gitHistory();
    Path notARepo = Files.createDirectories(tmp.resolve("plain"));
    assertEquals(2, run("git", "--repo", "acme/trainer", "--dry-run", notARepo.toString()));
    assertTrue(err.toString().contains("is not a git repository"), err.toString());
    err.reset();
    assertEquals(2, run("git", "--repo", "not-a-repo-name", "--dry-run", dir.toString()));
    assertTrue(
        err.toString().contains("--repo: Not a repository name (owner/name): 'not-a-repo-name'"),
        err.toString());
    err.reset();
    assertEquals(
        2,
        run("git", "--repo", "acme/trainer", "--dry-run", "--since", "2030-01-01", dir.toString()));
    assertTrue(
        err.toString().contains("no commits on refs/heads/main since 2030-01-01T00:00:00Z"),
        err.toString());
    err.reset();
    assertEquals(
        2,
        run(
            "git",
            "--repo",
            "acme/trainer",
            "--since",
            "2025-05-01",
            "--until",
            "2025-04-01",
            dir.toString()));
    assertTrue(err.toString().contains("--since must be before --until"), err.toString());
    err.reset();
    assertEquals(2, run("git", "--repo", "acme/trainer", "--until", "yesterday", dir.toString()));
    assertTrue(
        err.toString().contains("Invalid value for option '--until': must be a date"),
        err.toString());
    err.reset();
    assertEquals(2, run("git", "--repo", "acme/trainer"));
    assertTrue(err.toString().contains("git needs the path of one clone"), err.toString());
    err.reset();
    assertEquals(2, run("git", "--repo", "acme/trainer", "--tag-pattern", "v(", dir.toString()));
    assertTrue(
        err.toString().contains("--tag-pattern is not a regular expression"), err.toString());
    assertEquals(List.of(), publisher.published);
  }
}
