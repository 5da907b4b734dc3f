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
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validated answers in a directory, one small JSON file per answer under {@code <dir>/<first two
 * hex>/<key>.json}, keyed by {@link #key}: the SHA-256 of (prompt version, model, item content).
 * Re-classifying unchanged content asks nothing. Files are written to a temporary name and moved
 * into place atomically, so a crash never leaves a torn answer and concurrent writers of the same
 * key are harmless (same content). Only answers that passed {@link AnswerParser} are stored; they
 * are checked again when read. The calibrations of the models whose answers it holds ({@link
 * LlmCalibration}, {@code faultline llm calibrate}) live in its {@code calibrations/}.
 */
public final class AnswerCache {

  /**
   * What the cache holds for one key.
   *
   * @param item the issue the answer was given for, {@code owner/repo#number} as {@link #item}
   *     normalises it, or null (answers the stream asks for carry none; {@code llm import} fills it
   *     from the Batch API's {@code custom_id}, so the stream can find a batch answer by the issue
   *     when the issue's text has changed since it was exported)
   */
  public record Entry(
      String key,
      String promptVersion,
      String model,
      String answer,
      long promptTokens,
      long completionTokens,
      String origin,
      String item) {

    /** An entry for no particular item. */
    public Entry(
        String key,
        String promptVersion,
        String model,
        String answer,
        long promptTokens,
        long completionTokens,
        String origin) {
      this(key, promptVersion, model, answer, promptTokens, completionTokens, origin, null);
    }

    /** This entry given for {@code item} (normalised by {@link AnswerCache#item(String)}). */
    public Entry withItem(String item) {
      return new Entry(
          key,
          promptVersion,
          model,
          answer,
          promptTokens,
          completionTokens,
          origin,
          item == null ? null : AnswerCache.item(item).orElse(null));
    }

    /**
     * The entry's JSON object, as a cache file and a record of the answers topic hold it: {@code
     * key}, {@code prompt_version}, {@code model}, {@code answer}, {@code usage}, {@code origin}
     * and, when the entry has one, {@code item}.
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
      if (item != null) {
        o.put("item", item);
      }
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

    /**
     * The entry of such an object, under {@code key} (missing fields empty or 0; a missing or
     * unreadable {@code item} null).
     */
    public static Entry fromJson(String key, JsonNode n) {
      JsonNode item = n.get("item");
      return new Entry(
          key,
          n.path("prompt_version").asText(""),
          n.path("model").asText(""),
          n.path("answer").toString(),
          n.path("usage").path("prompt_tokens").asLong(0),
          n.path("usage").path("completion_tokens").asLong(0),
          n.path("origin").asText(""),
          item == null || !item.isTextual() ? null : AnswerCache.item(item.asText()).orElse(null));
    }
  }

  private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

  private static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]*";

  /** An issue's or pull request's page, or its id {@code owner/repo#number}. */
  private static final Pattern ITEM =
      Pattern.compile(
          "(?:https?://(?:www\\.)?github\\.com/("
              + NAME
              + ")/("
              + NAME
              + ")/(?:issues|pull|pulls)/([0-9]+)(?:[/?#].*)?"
              + "|("
              + NAME
              + ")/("
              + NAME
              + ")#([0-9]+))");

  /**
   * An item's identity as the answers know it: {@code owner/repo#number}, owner and repository
   * lower-cased (GitHub's names are case-insensitive), the number without leading zeros. Issues and
   * pull requests share a repository's numbers, so both give the same form.
   *
   * @throws IllegalArgumentException {@code repo} is not {@code owner/name} or {@code number} is
   *     not positive
   */
  public static String item(String repo, long number) {
    return item(repo + "#" + number)
        .orElseThrow(
            () -> new IllegalArgumentException("not an item: repository " + repo + " #" + number));
  }

  /**
   * The identity ({@link #item(String, long)}) of a GitHub issue or pull request URL ({@code
   * https://github.com/O/R/issues/N}, {@code /pull/N}, with or without a fragment) or of an id
   * {@code O/R#N}; empty for anything else.
   */
  public static Optional<String> item(String urlOrId) {
    if (urlOrId == null) {
      return Optional.empty();
    }
    Matcher m = ITEM.matcher(urlOrId.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    int g = m.group(1) != null ? 1 : 4;
    long number;
    try {
      number = Long.parseLong(m.group(g + 2));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (number <= 0) {
      return Optional.empty();
    }
    return Optional.of((m.group(g) + "/" + m.group(g + 1)).toLowerCase(Locale.ROOT) + "#" + number);
  }

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

  /** The directory of the calibrations ({@link LlmCalibration}) stored beside the answers. */
  public Path calibrationDir() {
    return dir.resolve(CALIBRATIONS);
  }

  /**
   * Stores a model's calibration for a prompt version (replacing the one stored for them),
   * atomically, as {@code calibrations/<model>@<prompt>.json} (characters outside {@code
   * [A-Za-z0-9._-]} written as {@code _}); returns the file.
   */
  public Path putCalibration(LlmCalibration c) throws IOException {
    Path target = calibrationDir().resolve(calibrationFile(c.model(), c.promptVersion()));
    Files.createDirectories(target.getParent());
    Path tmp = Files.createTempFile(target.getParent(), "calibration", ".tmp");
    try {
      Files.writeString(
          tmp,
          json.writerWithDefaultPrettyPrinter().writeValueAsString(c.toJson(json)) + "\n",
          StandardCharsets.UTF_8);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException x) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return target;
  }

  /** The calibration stored for a model and prompt version, if any (read from its file). */
  public Optional<LlmCalibration> calibration(String model, String promptVersion) {
    return calibrations().stream()
        .filter(c -> c.model().equals(model) && c.promptVersion().equals(promptVersion))
        .findFirst();
  }

  /**
   * Every readable calibration of the directory, in file name order (an unreadable file is
   * skipped).
   */
  public java.util.List<LlmCalibration> calibrations() {
    Path d = calibrationDir();
    if (!Files.isDirectory(d)) {
      return java.util.List.of();
    }
    java.util.List<LlmCalibration> out = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(d)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        try {
          out.add(LlmCalibration.fromJson(json.readTree(Files.readString(f))));
        } catch (IOException | IllegalArgumentException e) {
          // not a calibration this version reads: skipped
        }
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }

  /** The file name of a model's calibration for a prompt version. */
  static String calibrationFile(String model, String promptVersion) {
    return model.replaceAll("[^A-Za-z0-9._-]", "_")
        + "@"
        + promptVersion.replaceAll("[^A-Za-z0-9._-]", "_")
        + ".json";
  }

  /** The subdirectory of the calibrations. */
  public static final String CALIBRATIONS = "calibrations";

  private Path file(String key) {
    return dir.resolve(key.substring(0, 2)).resolve(key + ".json");
  }
}
