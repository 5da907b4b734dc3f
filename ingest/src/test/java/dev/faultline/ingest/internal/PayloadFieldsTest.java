package dev.faultline.ingest.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.testing.SharedFixtures;
import dev.faultline.ingest.GitHubEvents;
import dev.faultline.schemas.DeliveryKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The filtered parse the receiver uses reads the same key, action, age and hook id as a full parse,
 * and refuses what a full parse refuses.
 */
class PayloadFieldsTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Each reading the receiver makes of a payload, as one comparable string. */
  private static String readings(String event, JsonNode payload) {
    String action = GitHubEvents.action(payload).orElse(null);
    return String.join(
        " | ",
        "key=" + DeliveryKey.of(event, payload),
        "repository=" + DeliveryKey.repository(payload).orElse(null),
        "action=" + action,
        "changedAt=" + GitHubEvents.changedAt(event, action, payload).orElse(null),
        "hook=" + payload.path("hook_id").asText("?"));
  }

  @Test
  void everySharedFixtureReadsAsItsFullParse() throws IOException {
    List<SharedFixtures.GithubWebhook> files = SharedFixtures.githubWebhookPayloads();
    assertTrue(files.size() > 50, "expected the octokit examples, found " + files.size());
    List<String> differences = new ArrayList<>();
    for (SharedFixtures.GithubWebhook f : files) {
      String full = readings(f.event(), MAPPER.readTree(f.body()));
      String filtered = readings(f.event(), PayloadFields.read(MAPPER, f.body()));
      if (!full.equals(filtered)) {
        differences.add(f.name() + ": " + full + " vs " + filtered);
      }
    }
    assertEquals(List.of(), differences);
  }

  /** The fields the fixtures may not exercise: a release's two fallbacks, a review's number. */
  @Test
  void syntheticPayloadsOfEveryReaderReadAsTheirFullParse() throws IOException {
    String repo = "\"repository\":{\"full_name\":\"o/r\",\"id\":7}";
    List<String[]> cases =
        List.of(
            new String[] {
              "release",
              "{\"action\":\"published\","
                  + repo
                  + ",\"release\":{\"published_at\":"
                  + "\"2024-01-02T00:00:00Z\",\"created_at\":\"2024-01-01T00:00:00Z\",\"body\":\"x\"}}"
            },
            new String[] {
              "release",
              "{\"action\":\"created\","
                  + repo
                  + ",\"release\":{\"created_at\":"
                  + "\"2024-01-01T00:00:00Z\"}}"
            },
            new String[] {
              "pull_request_review", "{\"action\":\"submitted\"," + repo + ",\"number\":12}"
            },
            new String[] {
              "pull_request",
              "{\"action\":\"opened\","
                  + repo
                  + ",\"pull_request\":{\"number\":3,"
                  + "\"updated_at\":\"2024-01-01T00:00:00Z\",\"body\":\"b\"}}"
            },
            new String[] {
              "issue_comment",
              "{\"action\":\"created\","
                  + repo
                  + ",\"issue\":{\"number\":4},\"comment\":"
                  + "{\"updated_at\":\"2024-01-03T00:00:00Z\",\"body\":\"c\"}}"
            },
            new String[] {"ping", "{\"zen\":\"z\",\"hook_id\":99,\"hook\":{\"id\":99}}"},
            // Duplicates: the last wins, whatever its type; nulls and arrays where objects go.
            new String[] {
              "issues",
              "{"
                  + repo
                  + ",\"issue\":{\"number\":1,\"updated_at\":\"2024-01-01T00:00:00Z\"},"
                  + "\"issue\":\"x\",\"action\":\"opened\"}"
            },
            new String[] {
              "issues",
              "{\"issue\":[1],"
                  + repo
                  + ",\"issue\":{\"number\":2},\"issue\":{\"number\":3},"
                  + "\"repository\":{\"full_name\":\"o/s\"}}"
            },
            new String[] {
              "issues", "{\"action\":null,\"repository\":null,\"issue\":{\"number\":null}}"
            });
    for (String[] c : cases) {
      byte[] body = c[1].getBytes(StandardCharsets.UTF_8);
      String full = readings(c[0], MAPPER.readTree(body));
      assertEquals(full, readings(c[0], PayloadFields.read(MAPPER, body)), c[1]);
    }
  }

  @Test
  void bodiesAreNotRead() throws IOException {
    byte[] body =
        ("{\"action\":\"opened\",\"issue\":{\"number\":1,\"body\":\"long text\"},"
                + "\"repository\":{\"full_name\":\"o/r\",\"description\":\"d\"}}")
            .getBytes(StandardCharsets.UTF_8);
    JsonNode tree = PayloadFields.read(MAPPER, body);
    assertTrue(tree.path("issue").path("body").isMissingNode(), tree.toString());
    assertTrue(tree.path("repository").path("description").isMissingNode(), tree.toString());
    assertEquals(1, tree.path("issue").path("number").asInt());
  }

  @Test
  void refusesWhatAFullParseRefusesAndKeepsWhatItSeesAsNoObject() throws IOException {
    for (String bad :
        List.of(
            "{\"a\":1} {}",
            "{\"a\":1} [2]",
            "{\"a\":1} 3",
            "{\"issue\":{\"body\":\"x}",
            "{\"issue\":{\"body\":\"x\",}}",
            "{\"x\":[1,2,}",
            "{\"x\":tru}")) {
      byte[] body = bad.getBytes(StandardCharsets.UTF_8);
      assertThrows(JsonProcessingException.class, () -> MAPPER.readTree(body), bad);
      assertThrows(JsonProcessingException.class, () -> PayloadFields.read(MAPPER, body), bad);
    }
    // Invalid UTF-8 in a skipped string, and a control character: refused as a full parse does.
    byte[] utf8 = "{\"issue\":{\"body\":\"a?b\"}}".getBytes(StandardCharsets.UTF_8);
    utf8[19] = (byte) 0xb6;
    byte[] control = "{\"issue\":{\"body\":\"a?b\"}}".getBytes(StandardCharsets.UTF_8);
    control[19] = 0x01;
    for (byte[] body : List.of(utf8, control)) {
      assertThrows(JsonProcessingException.class, () -> MAPPER.readTree(body));
      assertThrows(JsonProcessingException.class, () -> PayloadFields.read(MAPPER, body));
    }
    for (String notObject : List.of("[1,{\"action\":\"x\"}]", "5", "null", "\"s\"", "[]")) {
      JsonNode tree = PayloadFields.read(MAPPER, notObject.getBytes(StandardCharsets.UTF_8));
      assertTrue(tree != null && !tree.isObject(), notObject + " read as " + tree);
    }
    for (String object : List.of("{}", "{\"zen\":\"z\"}", "{\"issue\":{}}")) {
      JsonNode tree = PayloadFields.read(MAPPER, object.getBytes(StandardCharsets.UTF_8));
      assertTrue(Objects.requireNonNull(tree, object).isObject(), object + " read as " + tree);
    }
  }
}
