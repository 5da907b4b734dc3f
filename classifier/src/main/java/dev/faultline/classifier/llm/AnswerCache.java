package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validated answers in a directory, one small JSON file per answer under {@code <dir>/<first two
 * hex>/<key>.json}, keyed by {@link #key}: the SHA-256 of (prompt version, model, item content).
 * Re-classifying unchanged content asks nothing. Files are written to a temporary name and moved
 * into place atomically, so a crash never leaves a torn answer and concurrent writers of the same
 * key are harmless (same content). Only answers that passed {@link AnswerParser} are stored; they
 * are checked again when read.
 */
public final class AnswerCache {

  /** What the cache holds for one key. */
  public record Entry(
      String key,
      String promptVersion,
      String model,
      String answer,
      long promptTokens,
      long completionTokens,
      String origin) {

    /**
     * The entry's JSON object, as a cache file and a record of the answers topic hold it: {@code
     * key}, {@code prompt_version}, {@code model}, {@code answer}, {@code usage}, {@code origin}.
     *
     * @throws IOException the answer is not JSON
     */
    public ObjectNode toJson(ObjectMapper json) throws IOException {
      ObjectNode o = json.createObjectNode();
      o.put("key", key);
      o.put("prompt_version", promptVersion);
      o.put("model", model);
      o.set("answer", json.readTree(answer));
      ObjectNode u = o.putObject("usage");
      u.put("prompt_tokens", promptTokens);
      u.put("completion_tokens", completionTokens);
      o.put("origin", origin);
      return o;
    }

    /**
     * The entry of an accepted answer: {@code answer} (the answer as the cache stores it) and the
     * token counts of the endpoint's {@code reply}, from {@code origin} ({@code endpoint}, {@code
     * stream}, …).
     */
    public static Entry ofReply(
        String key,
        String promptVersion,
        String model,
        String answer,
        ChatClient.Reply reply,
        String origin) {
      return new Entry(
          key,
          promptVersion,
          model,
          answer,
          reply.promptTokens(),
          reply.completionTokens(),
          origin);
    }

    /** The entry of such an object, under {@code key} (missing fields empty or 0). */
    public static Entry fromJson(String key, JsonNode n) {
      return new Entry(
          key,
          n.path("prompt_version").asText(""),
          n.path("model").asText(""),
          n.path("answer").toString(),
          n.path("usage").path("prompt_tokens").asLong(0),
          n.path("usage").path("completion_tokens").asLong(0),
          n.path("origin").asText(""));
    }
  }

  private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

  private final Path dir;
  private final ObjectMapper json = new ObjectMapper();

  public AnswerCache(Path dir) throws IOException {
    this.dir = Objects.requireNonNull(dir, "dir");
    Files.createDirectories(dir);
  }

  /** The directory. */
  public Path dir() {
    return dir;
  }

  /**
   * The cache key of an item's content under a prompt version and a model: 64 lower-case hex
   * digits.
   */
  public static String key(String promptVersion, String model, String itemContent) {
    return Prompt.sha256(promptVersion + "\n" + model + "\n" + itemContent);
  }

  /** Whether a string is a well-formed key. */
  public static boolean isKey(String s) {
    return s != null && KEY.matcher(s).matches();
  }

  /** The entry stored under a key, if any (an unreadable file counts as absent). */
  public Optional<Entry> get(String key) {
    if (!isKey(key)) {
      return Optional.empty();
    }
    try {
      JsonNode n = json.readTree(Files.readString(file(key), StandardCharsets.UTF_8));
      return Optional.of(Entry.fromJson(key, n));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether a key has an entry. */
  public boolean contains(String key) {
    return isKey(key) && Files.exists(file(key));
  }

  /** Stores an entry (replacing any under the same key) atomically. */
  public void put(Entry e) throws IOException {
    if (!isKey(e.key())) {
      throw new IllegalArgumentException("not a cache key: " + e.key());
    }
    ObjectNode o = e.toJson(json);
    Path target = file(e.key());
    Files.createDirectories(target.getParent());
    Path tmp = Files.createTempFile(target.getParent(), e.key().substring(0, 8), ".tmp");
    try {
      Files.writeString(tmp, o.toString() + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException x) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private Path file(String key) {
    return dir.resolve(key.substring(0, 2)).resolve(key + ".json");
  }
}
