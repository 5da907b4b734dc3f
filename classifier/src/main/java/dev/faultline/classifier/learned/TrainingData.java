package dev.faultline.classifier.learned;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.rules.Classifier;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads labelled JSON-lines files (the training corpus's {@code issues.jsonl} and {@code
 * changes.jsonl}, or an evaluation file in the same format) into {@link Example}s: every line is
 * checked (JSON, required fields, known codes) and a bad one stops the reading with the file and
 * line named. Texts are read to compute features and then dropped.
 */
public final class TrainingData {

  /** A line the reader refuses: names the file and line. */
  public static final class BadInput extends Exception {
    public BadInput(String message) {
      super(message);
    }
  }

  /** One record before features: what the batch format carries. */
  public record Item(
      String id,
      String repo,
      int number,
      boolean change,
      IssueText text,
      ChangeDetails details,
      Map<Target, String> gold) {}

  private static final Pattern PULL = Pattern.compile("/pull/(\\d+)");
  private static final Pattern COMMIT = Pattern.compile("/commit/([0-9a-f]{7,40})");
  private static final Pattern REFERENCE = Pattern.compile("(?:/issues/|#)(\\d{1,7})\\b");

  private static final ObjectMapper JSON = new ObjectMapper();

  private TrainingData() {}

  /** Reads one labelled file. */
  public static List<Item> read(Path file) throws BadInput, IOException {
    List<Item> items = new ArrayList<>();
    JsonLines lines;
    try {
      lines = JsonLines.open(file);
    } catch (NoSuchFileException e) {
      throw new BadInput(file + ": no such file");
    }
    try (lines) {
      String line;
      while ((line = lines.nextLine()) != null) {
        items.add(parse(lines.where(), line));
      }
    }
    if (items.isEmpty()) {
      throw new BadInput(file + ": no records");
    }
    return items;
  }

  static Item parse(String where, String line) throws BadInput {
    JsonNode rec;
    try {
      rec = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new BadInput(where + ": not a JSON object (" + e.getOriginalMessage() + ")");
    }
    if (rec == null || !rec.isObject()) {
      throw new BadInput(where + ": not a JSON object");
    }
    for (String f : List.of("url", "repo", "title", "text", "gold")) {
      if (!rec.hasNonNull(f)) {
        throw new BadInput(where + ": missing field '" + f + "'");
      }
    }
    JsonNode g = rec.get("gold");
    Map<Target, String> gold = new TreeMap<>();
    for (Target t : Target.values()) {
      if (!g.has(t.field)) {
        throw new BadInput(where + ": gold has no '" + t.field + "'");
      }
      JsonNode v = g.get(t.field);
      String code = v.isNull() ? "null" : v.asText();
      if (!t.codes.contains(code) && !code.equals(t.abstain)) {
        throw new BadInput(
            where + ": unknown " + t.field + " code '" + code + "' (codes: " + t.codes + ")");
      }
      gold.put(t, code);
    }
    String url = rec.get("url").asText();
    String repo = rec.get("repo").asText();
    List<String> labels = new ArrayList<>();
    rec.path("labels").forEach(l -> labels.add(l.asText()));
    IssueText text =
        ThreadText.parse(
            url,
            repo,
            rec.path("number").asInt(0),
            rec.get("title").asText(),
            rec.path("state").asText(""),
            labels,
            rec.get("text").asText());
    boolean change = ChangeDetails.isChangeUrl(url);
    String id = repo + "#" + rec.path("number").asInt(0);
    Matcher c = COMMIT.matcher(url);
    Matcher p = PULL.matcher(url);
    if (p.find()) {
      id = repo + "#" + p.group(1);
    } else if (c.find()) {
      id = repo + "@" + c.group(1).substring(0, Math.min(12, c.group(1).length()));
    }
    ChangeDetails details =
        ChangeDetails.ofRecord(url, rec.get("text").asText(), rec.path("diff").asText(""));
    return new Item(id, repo, rec.path("number").asInt(0), change, text, details, gold);
  }

  /**
   * Turns items into examples: rules, features, text vectors. An item keeps the group of an issue
   * it references in the same repository, so that a change and the issue it closes stay in one
   * fold.
   */
  public static List<Example> examples(
      List<Item> items, Classifier rules, TextEmbedder embedder, Consumer<Integer> progress) {
    List<String> groups = groups(items);
    List<Example> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      Item it = items.get(i);
      Classifier.Analysis a = rules.analyse(it.text());
      float[] v = embedder.embed(FeatureExtractor.embeddingText(it.text()));
      RawFeatures raw = FeatureExtractor.extract(it.text(), it.details(), a, v);
      out.add(
          new Example(
              it.id(), groups.get(i), it.repo(), it.change(), raw, a.classification(), it.gold()));
      progress.accept(out.size());
    }
    return out;
  }

  /**
   * The fold group of each item, in order: its own id, or for a change the id of an issue of the
   * same repository it references, so that a change and the issue it closes stay in one fold.
   */
  public static List<String> groups(List<Item> items) {
    Map<String, String> issueIds = new HashMap<>();
    for (Item it : items) {
      if (!it.change()) {
        issueIds.put(it.id(), it.id());
      }
    }
    List<String> out = new ArrayList<>(items.size());
    for (Item it : items) {
      String group = it.id();
      if (it.change()) {
        Matcher m = REFERENCE.matcher(it.text().title() + "\n" + it.text().body());
        while (m.find()) {
          String ref = it.repo() + "#" + m.group(1);
          if (issueIds.containsKey(ref) && !ref.equals(it.id())) {
            group = ref;
            break;
          }
        }
      }
      out.add(group);
    }
    return out;
  }
}
