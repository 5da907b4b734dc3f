package dev.faultline.ingest.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a webhook payload the receiver reads. The receiver parses a payload for its key,
 * action and age only (the record carries the bytes as GitHub sent them), so {@link #read} streams
 * through the whole payload, checking its syntax, but builds nodes, and decodes strings, only for
 * these fields: an issue's or comment's body is skipped unread.
 *
 * <p>Kept in step with the readers: {@code GitHubEvents.action}, {@code GitHubEvents.changedAt},
 * {@code DeliveryKey.of}/{@code repository} and the ping's {@code hook_id}. {@code
 * PayloadFieldsTest} compares each reading of a tree from {@link #read} with that of the full tree
 * on every shared fixture.
 */
public final class PayloadFields {
  /** Top-level fields kept whole. */
  private static final Set<String> TOP_LEVEL = Set.of("action", "number", "hook_id");

  /** Top-level objects and the fields kept (whole) from each. */
  private static final Map<String, Set<String>> NESTED =
      Map.of(
          "repository", Set.of("full_name"),
          "issue", Set.of("number", "updated_at"),
          "comment", Set.of("updated_at"),
          "pull_request", Set.of("number", "updated_at"),
          "release", Set.of("updated_at", "published_at", "created_at"));

  /** Reads a kept value: no trailing-token check, the parser is mid-payload. */
  private static final ObjectMapper VALUES = new ObjectMapper();

  private PayloadFields() {}

  /**
   * A JSON object payload as a tree of the fields above. Anything else (not an object, a syntax
   * error, a trailing token) is parsed whole by {@code mapper}, so it is answered exactly as
   * before: the same exception, or the same tree that is not an object.
   */
  public static JsonNode read(ObjectMapper mapper, byte[] payload) throws IOException {
    try {
      ObjectNode fields = readObject(mapper, payload);
      if (fields != null) {
        return fields;
      }
    } catch (IOException e) {
      // The full parse below reports it, in its own words.
    }
    return mapper.readTree(payload);
  }

  /** The kept fields of a payload that is one JSON object and nothing after it; else null. */
  private static ObjectNode readObject(ObjectMapper mapper, byte[] payload) throws IOException {
    try (JsonParser parser = mapper.createParser(payload)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      ObjectNode root = mapper.createObjectNode();
      readFields(parser, root, null);
      return parser.nextToken() == null ? root : null;
    }
  }

  /**
   * Reads the object the parser is at up to its end, keeping {@code keep}'s fields ({@code null}:
   * the root's). A later duplicate field replaces an earlier one, as in a full parse.
   */
  private static void readFields(JsonParser parser, ObjectNode into, Set<String> keep)
      throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      Set<String> nested = keep == null ? NESTED.get(name) : null;
      if (nested != null && value == JsonToken.START_OBJECT) {
        readFields(parser, into.putObject(name), nested);
      } else if (nested != null || (keep == null ? TOP_LEVEL : keep).contains(name)) {
        into.set(name, VALUES.readTree(parser));
      } else {
        parser.skipChildren();
      }
    }
  }
}
