package dev.faultline.estimate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.learned.CachedEmbedder;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.training.CrossValidation;
import dev.faultline.classifier.training.Trainer;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The learned layer's out-of-fold distributions on the training corpus, as the graph stores them
 * (one list per dimension aligned with {@link Dimension#distributionCodes()}; the symptom as P(bug
 * and symptom) with NONE = 1 − P(bug), as {@code LearnedClassifier} writes it): each fold's items
 * answered by a model trained on the other folds ({@link CrossValidation#fold}, the training
 * command's seed and grouping). Written once to a JSON lines file of ids, positions in time, gold
 * codes and distributions (no texts) and read back by the benchmarks that need them.
 */
final class OutOfFold {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final java.util.regex.Pattern PULL =
      java.util.regex.Pattern.compile("/pull/(\\d+)");
  private static final java.util.regex.Pattern COMMIT =
      java.util.regex.Pattern.compile("/commit/([0-9a-f]{7,40})");

  /** One held-out item. */
  record Held(
      String id,
      int fold,
      String repo,
      boolean change,
      long order,
      Map<String, String> gold,
      Map<String, List<Double>> p) {}

  private OutOfFold() {}

  /** The cached file, or trains the folds and writes it. */
  static List<Held> load(Path file, Path data, int k, long seed, Path cache) throws Exception {
    if (!Files.exists(file)) {
      write(file, data, k, seed, cache);
    }
    List<Held> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        out.add(JSON.readValue(line, Held.class));
      }
    }
    return out;
  }

  private static void write(Path file, Path data, int k, long seed, Path cache) throws Exception {
    List<TrainingData.Item> items = new ArrayList<>();
    items.addAll(TrainingData.read(data.resolve("issues.jsonl")));
    items.addAll(TrainingData.read(data.resolve("changes.jsonl")));
    Map<String, Long> order = order(data);
    CachedEmbedder embedder = new CachedEmbedder(MiniLmEmbedder.shared(), cache);
    List<Example> all =
        TrainingData.examples(
            items, new Classifier(ClassifierConfig.defaults()), embedder, n -> {});
    embedder.save();
    Files.createDirectories(file.toAbsolutePath().getParent());
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int f = 0; f < k; f++) {
        List<Example> train = new ArrayList<>();
        List<Example> test = new ArrayList<>();
        for (Example e : all) {
          (CrossValidation.fold(e.group(), k, seed) == f ? test : train).add(e);
        }
        Trainer.Fitted m = new Trainer(seed, n -> true).train(train);
        for (Example e : test) {
          Map<String, String> gold = new LinkedHashMap<>();
          e.gold().forEach((t, c) -> gold.put(t.dimension.key(), c));
          Held h =
              new Held(
                  e.id(),
                  f,
                  e.repo(),
                  e.change(),
                  order.getOrDefault(e.id(), 0L),
                  gold,
                  stored(m, m.probabilities(e.raw())));
          w.write(JSON.writeValueAsString(h));
          w.write('\n');
        }
        System.err.printf(Locale.ROOT, "fold %d: %d held out%n", f, test.size());
      }
    }
  }

  /** The distributions as the graph stores them. */
  static Map<String, List<Double>> stored(Trainer.Fitted m, Map<Target, double[]> p) {
    Map<String, List<Double>> out = new LinkedHashMap<>();
    DimensionModel km = m.models().get(Target.KIND);
    double pBug = DimensionModel.probabilityOf(km.classes(), p.get(Target.KIND), "BUG");
    m.models()
        .forEach(
            (t, dm) -> {
              double[] q = p.get(t).clone();
              if (t == Target.SYMPTOM) {
                double notNone = 1.0 - DimensionModel.probabilityOf(dm.classes(), q, "NONE");
                double scale = notNone <= 1e-12 ? 0.0 : pBug / notNone;
                for (int c = 0; c < q.length; c++) {
                  q[c] = "NONE".equals(dm.classes().get(c)) ? 1.0 - pBug : q[c] * scale;
                }
              }
              Map<String, Double> byCode = Distributions.ofClasses(t.dimension, dm.classes(), q);
              out.put(t.dimension.key(), new ArrayList<>(byCode.values()));
            });
    return out;
  }

  /**
   * Each item's position in time within its repository: an issue's number, a change's date (epoch
   * day); read from the corpus's metadata only.
   */
  private static Map<String, Long> order(Path data) throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (String name : List.of("issues.jsonl", "changes.jsonl")) {
      for (String line : Files.readAllLines(data.resolve(name), StandardCharsets.UTF_8)) {
        JsonNode n = JSON.readTree(line);
        String url = n.path("url").asText();
        String repo = n.path("repo").asText();
        String id = repo + "#" + n.path("number").asInt(0);
        java.util.regex.Matcher pull = PULL.matcher(url);
        java.util.regex.Matcher commit = COMMIT.matcher(url);
        if (pull.find()) {
          id = repo + "#" + pull.group(1);
        } else if (commit.find()) {
          id = repo + "@" + commit.group(1).substring(0, Math.min(12, commit.group(1).length()));
        }
        long at =
            n.hasNonNull("date")
                ? java.time.LocalDate.parse(n.get("date").asText().substring(0, 10)).toEpochDay()
                : n.path("number").asLong();
        out.put(id, at);
      }
    }
    return out;
  }
}
