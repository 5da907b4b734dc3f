package dev.faultline.jobs.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.llm.AnswerCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The value of a record of the answers topic: the same JSON object as a file of the CLI's cache
 * directory ({@code key}, {@code prompt_version}, {@code model}, {@code answer}, {@code usage},
 * {@code origin}), so a cache directory filled by {@code faultline llm import} can be written into
 * the topic as it is.
 */
public final class AnswerRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AnswerRecords() {}

  /** The record value of an entry. */
  public static byte[] encode(AnswerCache.Entry e) {
    ObjectNode o;
    try {
      o = e.toJson(JSON);
    } catch (IOException x) {
      throw new IllegalArgumentException("the answer of " + e.key() + " is not JSON", x);
    }
    return o.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry of a record value; empty when it is not one (a record someone else wrote, a
   * tombstone).
   */
  public static Optional<AnswerCache.Entry> decode(byte[] value) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(value);
      String key = n.path("key").asText("");
      if (!AnswerCache.isKey(key) || !n.path("answer").isObject()) {
        return Optional.empty();
      }
      return Optional.of(AnswerCache.Entry.fromJson(key, n));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
