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
    assertTrue(err.toString().contains("unknown source 'svn'"), err.toString());
    assertEquals(2, run("gharchive", "--frobnicate", "x"));
    assertEquals(2, run("gharchive"));
    assertEquals(2, run());
  }

  @Test
  void backfillsGhArchiveFilesToTheConfiguredKafka() throws IOException {
    Path file = gzipped("2024-03-01-10.json.gz");
    assertEquals(0, run("gharchive", "--bootstrap-servers", "kafka:1234", file.toString()), err.toString());

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
}
