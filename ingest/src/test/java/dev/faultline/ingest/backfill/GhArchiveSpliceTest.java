package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming GH Archive reader (payload bytes spliced, Avro written from bytes) against the
 * tree-built conversion it replaced ({@link TreeBuiltDeliveries}), on synthetic lines: odd unicode
 * and escapes, big and oddly written numbers, nested payloads, fields in any order, payloads that
 * already carry what the reader adds, repeated names, CRLF and blank lines.
 */
class GhArchiveSpliceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Refuses a repeated name in an object, which a tree-built payload never has. */
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private static final AvroCodec<Delivery> CODEC = AvroCodec.deliveries();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-06-01T00:00:00.123456Z"), ZoneOffset.UTC);
  private static final RepositoryFilter FILTER = RepositoryFilter.defaults();

  /** JSON string contents as they would appear in a line (escapes written out). */
  private static final String[] TEXTS = {
    "plain",
    "é ü ß ñ",
    "日本語のテキスト",
    "emoji 😀🎉 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "combining e\u0301 and RTL עברית",
    "escaped \\u00e9 \\u65e5 \\ud83d\\ude00",
    "quote \\\" backslash \\\\ solidus \\/ newline \\n tab \\t cr \\r",
    "control \\u0000 \\u001f and \\u2028 \\u2029",
    "",
    "x".repeat(3000),
  };

  private static final String[] NUMBERS = {
    "0",
    "-0",
    "42",
    "2147483647",
    "2147483648",
    "-2147483649",
    "12345678901234567890123",
    "1.5",
    "1.0e2",
    "-2.5E-3",
    "0.1000000000000000055511151231257827",
    "1E+20",
  };

  @Test
  void splicedDeliveriesAreTheTreeBuiltOnes() throws IOException {
    Random random = new Random(20_240_301);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      lines.add(line(random, i));
    }
    String file = join(random, lines);
    TreeBuiltDeliveries reference = new TreeBuiltDeliveries(JSON, FILTER, CLOCK);
    List<BackfillDelivery> expected = new ArrayList<>();
    for (String line : lines) {
      BackfillDelivery d = reference.readLine(line);
      if (d != null) {
        expected.add(d);
      }
    }
    assertTrue(expected.size() > 1_000, "enough kept lines: " + expected.size());
    for (int threads : new int[] {1, 3}) {
      List<BackfillDelivery> actual = new ArrayList<>();
      GhArchiveReader.Counts counts =
          new GhArchiveReader(JSON, FILTER, CLOCK)
              .read(new ByteArrayInputStream(file.getBytes(UTF_8)), actual::add, threads);
      assertEquals(new GhArchiveReader.Counts(lines.size(), expected.size()), counts);
      for (int i = 0; i < expected.size(); i++) {
        assertSameRecord(expected.get(i), actual.get(i));
      }
    }
  }

  private static void assertSameRecord(BackfillDelivery expected, BackfillDelivery actual)
      throws IOException {
    // The tree-built delivery as it reached Kafka (encoded) and the spliced one's bytes, decoded.
    Delivery want = CODEC.decode(CODEC.encode(expected.delivery()));
    Delivery got = CODEC.decode(actual.value());
    String where = want.getDeliveryId();
    assertEquals(expected.key(), actual.key(), where);
    assertEquals(want.getDeliveryId(), actual.deliveryId(), where);
    assertEquals(want.getDeliveryId(), got.getDeliveryId(), where);
    assertEquals(want.getEvent(), got.getEvent(), where);
    assertEquals(want.getAction(), got.getAction(), where);
    assertEquals(want.getRepository(), got.getRepository(), where);
    assertEquals(want.getReceivedAt(), got.getReceivedAt(), where);
    assertEquals(want.getSource(), got.getSource(), where);
    // The same JSON: the same names in the same order with the same values, as a reader sees them.
    assertEquals(normalised(want.getPayloadJson()), normalised(got.getPayloadJson()), where);
    STRICT.readTree(got.getPayloadJson());
    assertEquals(got, actual.delivery(), where);
  }

  private static String normalised(String json) throws IOException {
    return JSON.writeValueAsString(JSON.readTree(json));
  }

  @Test
  void thePayloadIsKeptAsSentLoneSurrogateEscapesIncluded() throws IOException {
    // The tree-built payload turned an unpaired surrogate into '?' on its way to UTF-8.
    String payload = "{\"action\":\"opened\",\"issue\":{\"number\":7,\"title\":\"a \\udc00 b\"}}";
    String line =
        "{\"id\":\"1\",\"type\":\"IssuesEvent\",\"repo\":{\"id\":1,\"name\":\"microsoft/DeepSpeed\"},"
            + "\"payload\":"
            + payload
            + "}\n";
    List<BackfillDelivery> out = new ArrayList<>();
    new GhArchiveReader(JSON, FILTER, CLOCK)
        .read(new ByteArrayInputStream(line.getBytes(UTF_8)), out::add);
    String sent = CODEC.decode(out.get(0).value()).getPayloadJson();
    assertTrue(sent.startsWith(payload.substring(0, payload.length() - 1) + ","), sent);
    assertEquals("microsoft/DeepSpeed#7", out.get(0).key());
  }

  @Test
  void aLineThatIsNotJsonFailsTheReadWithItsLineNumber() {
    String file =
        "{\"id\":\"1\",\"type\":\"PushEvent\"}\r\n\r\n"
            + "{\"id\":\"2\",\"type\":\"IssuesEvent\",\"payload\":{\"a\": }}\n";
    for (int threads : new int[] {1, 2}) {
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  new GhArchiveReader(JSON, FILTER, CLOCK)
                      .read(new ByteArrayInputStream(file.getBytes(UTF_8)), d -> {}, threads));
      assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }
  }

  /** Lines ended by \n, \r\n or \r, with blank lines (not events) between some. */
  private static String join(Random random, List<String> lines) {
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      out.append(line).append(new String[] {"\n", "\r\n", "\r"}[random.nextInt(3)]);
      if (random.nextInt(20) == 0) {
        out.append(random.nextBoolean() ? "  \t\n" : "\u3000\n");
      }
    }
    return out.toString();
  }

  private static String line(Random random, int i) {
    List<String> fields = new ArrayList<>();
    String type =
        new String[] {
              "IssuesEvent", "IssueCommentEvent", "PullRequestEvent", "ReleaseEvent", "PushEvent"
            }
            [random.nextInt(5)];
    fields.add(member(random, "id", random.nextInt(8) == 0 ? "" + (9_000_000 + i) : q("" + i)));
    fields.add(member(random, "type", q(type)));
    if (random.nextInt(10) > 0) {
      fields.add(member(random, "actor", random.nextInt(8) == 0 ? "null" : user(random)));
    }
    fields.add(member(random, "repo", repo(random)));
    fields.add(member(random, "payload", payload(random, type)));
    fields.add(member(random, "public", "true"));
    if (random.nextInt(6) > 0) {
      String at = "2024-03-01T10:00:0" + random.nextInt(10) + "Z";
      fields.add(member(random, "created_at", q(random.nextInt(4) == 0 ? at + text(random) : at)));
    }
    if (random.nextInt(3) > 0) {
      fields.add(member(random, "org", random.nextInt(8) == 0 ? "null" : user(random)));
    }
    Collections.shuffle(fields, random);
    return "{" + String.join(sp(random) + "," + sp(random), fields) + "}";
  }

  private static String repo(Random random) {
    String name =
        random.nextInt(8) == 0
            ? "someone/else"
            : new String[] {"microsoft/DeepSpeed", "NVIDIA/Megatron-LM", "hpcaitech/ColossalAI"}
                [random.nextInt(3)];
    List<String> fields = new ArrayList<>();
    fields.add(member(random, "name", q(name)));
    int id = random.nextInt(4);
    if (id > 0) {
      fields.add(
          member(random, "id", id == 1 ? q("R_1") : NUMBERS[random.nextInt(NUMBERS.length)]));
    }
    fields.add(member(random, "url", q("https://api.github.com/repos/" + name)));
    Collections.shuffle(fields, random);
    return object(random, fields);
  }

  private static String payload(Random random, String type) {
    List<String> fields = new ArrayList<>();
    if (random.nextInt(10) == 0) {
      return random.nextBoolean() ? "{}" : "{" + sp(random) + "}";
    }
    int action = random.nextInt(6);
    if (action > 0) {
      fields.add(member(random, "action", action == 1 ? "null" : q(text(random))));
    }
    String holder =
        type.equals("PullRequestEvent") && random.nextBoolean() ? "pull_request" : "issue";
    int shape = random.nextInt(10);
    if (shape == 0) {
      fields.add(member(random, holder, q("not an object")));
    } else if (shape > 1) {
      List<String> issue = new ArrayList<>();
      issue.add(member(random, "number", numberLike(random)));
      issue.add(member(random, "title", q(text(random))));
      issue.add(member(random, "body", q(text(random))));
      issue.add(member(random, "labels", nested(random, 3)));
      Collections.shuffle(issue, random);
      fields.add(member(random, holder, object(random, issue)));
    }
    if (random.nextInt(4) == 0) {
      fields.add(member(random, "number", numberLike(random)));
    }
    if (random.nextInt(8) == 0) {
      fields.add(
          member(
              random,
              "repository",
              random.nextBoolean()
                  ? "{\"full_name\":" + q("Microsoft/DeepSpeed") + ",\"id\":5}"
                  : "{\"name\":\"x\"}"));
    }
    if (random.nextInt(8) == 0) {
      fields.add(member(random, "sender", user(random)));
    }
    if (random.nextInt(8) == 0) {
      fields.add(member(random, "organization", "null"));
    }
    if (random.nextInt(30) == 0) {
      fields.add(member(random, "_backfill", "{\"event_id\":\"spoofed\",\"extra\":1}"));
    }
    if (random.nextInt(30) == 0 && !fields.isEmpty()) {
      fields.add(fields.get(0).replaceFirst(":", ":" + sp(random) + "[1],\"dup\":"));
      fields.add(fields.get(0));
    }
    fields.add(member(random, "extra", nested(random, 4)));
    Collections.shuffle(fields, random);
    return object(random, fields);
  }

  private static String numberLike(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> "null";
      case 1 -> q("12");
      default -> NUMBERS[random.nextInt(NUMBERS.length)];
    };
  }

  private static String nested(Random random, int depth) {
    int kind = depth == 0 ? 2 + random.nextInt(4) : random.nextInt(6);
    return switch (kind) {
      case 0 -> {
        List<String> items = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          items.add(nested(random, depth - 1));
        }
        yield "[" + sp(random) + String.join("," + sp(random), items) + sp(random) + "]";
      }
      case 1 -> {
        List<String> members = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          members.add(
              member(random, text(random).substring(0, 0) + "k" + i, nested(random, depth - 1)));
        }
        yield object(random, members);
      }
      case 2 -> q(text(random));
      case 3 -> NUMBERS[random.nextInt(NUMBERS.length)];
      case 4 -> random.nextBoolean() ? "true" : "false";
      default -> "null";
    };
  }

  private static String user(Random random) {
    return object(
        random,
        List.of(
            member(random, "id", NUMBERS[random.nextInt(NUMBERS.length)]),
            member(random, "login", q(text(random).isEmpty() ? "u" : "user" + random.nextInt(99))),
            member(random, "display_login", q(text(random)))));
  }

  private static String text(Random random) {
    return TEXTS[random.nextInt(TEXTS.length)];
  }

  private static String object(Random random, List<String> members) {
    return "{"
        + sp(random)
        + String.join(sp(random) + "," + sp(random), members)
        + sp(random)
        + "}";
  }

  private static String member(Random random, String name, String value) {
    return q(name) + sp(random) + ":" + sp(random) + value;
  }

  private static String q(String text) {
    return "\"" + text + "\"";
  }

  private static String sp(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> " ";
      case 1 -> "\t ";
      default -> "";
    };
  }
}
