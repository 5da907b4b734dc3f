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
      String origin) {}

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
      return Optional.of(
          new Entry(
              key,
              n.path("prompt_version").asText(""),
              n.path("model").asText(""),
              n.path("answer").toString(),
              n.path("usage").path("prompt_tokens").asLong(0),
              n.path("usage").path("completion_tokens").asLong(0),
              n.path("origin").asText("")));
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
    ObjectNode o = json.createObjectNode();
    o.put("key", e.key());
    o.put("prompt_version", e.promptVersion());
    o.put("model", e.model());
    o.set("answer", json.readTree(e.answer()));
    ObjectNode u = o.putObject("usage");
    u.put("prompt_tokens", e.promptTokens());
    u.put("completion_tokens", e.completionTokens());
    o.put("origin", e.origin());
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
