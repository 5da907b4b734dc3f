package dev.faultline.ingest.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GhArchiveReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-06-01T00:00:00Z"), ZoneOffset.UTC);

  private static List<BackfillDelivery> read(RepositoryFilter filter) throws IOException {
    List<BackfillDelivery> out = new ArrayList<>();
    try (InputStream in = GhArchiveReaderTest.class.getResourceAsStream("/gharchive/events.json")) {
      GhArchiveReader.Counts counts = new GhArchiveReader(JSON, filter, CLOCK).read(in, out::add);
      assertEquals(7, counts.events());
      assertEquals(out.size(), counts.kept());
    }
    return out;
  }

  @Test
  void keepsIssueCommentPullRequestAndReleaseEventsOfTheChosenRepositories() throws IOException {
    List<BackfillDelivery> kept = read(RepositoryFilter.defaults());

    assertEquals(
        List.of(
            "gharchive-40000000001",
            "gharchive-40000000004",
            "gharchive-40000000006",
            "gharchive-40000000007"),
        kept.stream().map(d -> d.delivery().getDeliveryId()).toList());
    assertEquals(
        List.of("issues", "issue_comment", "pull_request", "release"),
        kept.stream().map(d -> d.delivery().getEvent()).toList());
    assertEquals(
        List.of(
            "microsoft/DeepSpeed#5001",
            "nvidia/megatron-lm#812",
            "hpcaitech/ColossalAI#4400",
            "deepspeedai/DeepSpeed"),
        kept.stream().map(BackfillDelivery::key).toList(),
        "repository names as GH Archive recorded them (case included), matched case-insensitively");
  }

  @Test
  void shapesThePayloadLikeTheWebhookOne() throws IOException {
    Delivery issue = read(RepositoryFilter.defaults()).get(0).delivery();
    JsonNode payload = JSON.readTree(issue.getPayloadJson());

    assertEquals("opened", issue.getAction());
    assertEquals(DeliverySource.GH_ARCHIVE, issue.getSource());
    assertEquals("microsoft/DeepSpeed", issue.getRepository());
    assertEquals(CLOCK.instant(), issue.getReceivedAt());
    assertEquals("microsoft/DeepSpeed", payload.path("repository").path("full_name").asText());
    assertEquals(235860204, payload.path("repository").path("id").asLong());
    assertEquals("alice", payload.path("sender").path("login").asText());
    assertEquals("microsoft", payload.path("organization").path("login").asText());
    assertEquals(5001, payload.path("issue").path("number").asInt());
    assertEquals("2024-03-01T10:00:00Z", payload.path("_backfill").path("created_at").asText());
    assertEquals("40000000001", payload.path("_backfill").path("event_id").asText());
    assertTrue(payload.path("_backfill").path("source").isMissingNode());
  }

  @Test
  void filtersToConfiguredRepositories() throws IOException {
    List<BackfillDelivery> kept = read(RepositoryFilter.of(List.of("NVIDIA/Megatron-LM")));
    assertEquals(
        List.of("gharchive-40000000004"),
        kept.stream().map(d -> d.delivery().getDeliveryId()).toList());
  }

  @Test
  void refusesInputThatIsNotOneObjectPerLine() {
    InputStream in = new ByteArrayInputStream("[1,2]".getBytes(StandardCharsets.UTF_8));
    assertThrows(
        IOException.class,
        () -> new GhArchiveReader(JSON, RepositoryFilter.defaults(), CLOCK).read(in, d -> {}));
  }

  @Test
  void refusesBadRepositoryNames() {
    assertThrows(IllegalArgumentException.class, () -> RepositoryFilter.of(List.of("not a repo")));
  }

  /** The fixture's lines repeated {@code copies} times, each copy with its own event ids. */
  private static byte[] manyEvents(int copies) throws IOException {
    String lines;
    try (InputStream in = GhArchiveReaderTest.class.getResourceAsStream("/gharchive/events.json")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    StringBuilder out = new StringBuilder();
    for (int c = 0; c < copies; c++) {
      out.append(lines.replace("\"id\":\"4000000000", "\"id\":\"" + (5000 + c) + "0000"));
      if (!lines.endsWith("\n")) {
        out.append('\n');
      }
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void decodingInParallelKeepsTheFilesOrderAndItsCounts() throws IOException {
    byte[] file = manyEvents(400); // 2,800 lines: several chunks per decoder
    GhArchiveReader reader = new GhArchiveReader(JSON, RepositoryFilter.defaults(), CLOCK);
    List<BackfillDelivery> inline = new ArrayList<>();
    List<BackfillDelivery> parallel = new ArrayList<>();
    GhArchiveReader.Counts one = reader.read(new ByteArrayInputStream(file), inline::add, 1);
    GhArchiveReader.Counts three = reader.read(new ByteArrayInputStream(file), parallel::add, 3);
    assertEquals(2_800, three.events());
    assertEquals(one, three);
    assertEquals(
        inline.stream().map(d -> d.delivery().getDeliveryId()).toList(),
        parallel.stream().map(d -> d.delivery().getDeliveryId()).toList());
    assertEquals(
        inline.stream().map(d -> d.delivery().getPayloadJson()).toList(),
        parallel.stream().map(d -> d.delivery().getPayloadJson()).toList());
  }

  @Test
  void aBadLineDecodedInParallelFailsTheReadWithItsLineNumber() throws IOException {
    byte[] good = manyEvents(200);
    byte[] file =
        (new String(good, StandardCharsets.UTF_8) + "[1,2]\n").getBytes(StandardCharsets.UTF_8);
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                new GhArchiveReader(JSON, RepositoryFilter.defaults(), CLOCK)
                    .read(new ByteArrayInputStream(file), d -> {}, 2));
    assertTrue(e.getMessage().contains("line 1401"), e.getMessage());
  }
}
