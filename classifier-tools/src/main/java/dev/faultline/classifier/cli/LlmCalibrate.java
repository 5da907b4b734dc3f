package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.Confusion;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.cli.LlmCommand.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.llm.Answer;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.cli.CliCommand;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code llm calibrate}: fits, per model and prompt version, the confusion of a language model's
 * answers with a labelled set ({@link LlmCalibration}) and stores it in the answer cache, where
 * {@code classify --tier llm} reads it and from which {@code llm push} sends it to the stream.
 */
@Command(
    name = "calibrate",
    description = {
      "Measure how often a model's answers are right, so its labels get probabilities.",
      "",
      "Needs a labelled file (--gold, records with url and gold as ../shared/eval/dev.jsonl) answered by the model:",
      "the Batch API output of an 'llm export' of that file (--results; model and prompt version from each",
      "custom_id), or the answers already in --cache (an 'llm import' of such results, or 'classify --tier llm' on",
      "the file; matched by content under --llm-model/--examples, or by the issue a batch answer names).",
      "Per model and prompt version and per dimension it counts how often each answered code was right and",
      "smooths every row with a Dirichlet prior of --prior-strength pseudo-counts, spread as an uncalibrated",
      "answer's: 1 - epsilon on the answer, epsilon over the other codes by the training mix (epsilon = 1 -",
      "FAULTLINE_LLM_CONFIDENCE, default 0.1). It stores the calibration in --cache DIR/calibrations/ and prints per",
      "dimension the items, the accuracy and the matrix's diagonal, P(true = answered | answered).",
      "From then on an answer of that model and prompt gets its row, P(true code | answered code), marked",
      "confusion:<model>/<prompt> (classify/eval --tier llm --llm-cache DIR; the stream and reclassify after",
      "'llm push --cache DIR'); without a calibration an answer gets 1 - epsilon, marked prior:<epsilon>.",
      "The figures are measured on the labelled set: on another population they carry its caveat."
    })
final class LlmCalibrate extends CliCommand {
  @ParentCommand LlmCommand llm;

  @Option(
      names = "--gold",
      required = true,
      paramLabel = "LABELLED.jsonl",
      description =
          "labelled records (url, repo, title, text, gold), e.g. ../shared/eval/dev.jsonl")
  Path gold;

  @Option(
      names = "--results",
      paramLabel = "RESULTS.jsonl",
      description =
          "the Batch API output of an llm export of the labelled file (else the answers in --cache)")
  Path results;

  @Option(
      names = "--cache",
      required = true,
      paramLabel = "DIR",
      description = "the answer cache: where the calibration is stored (and answers read from)")
  Path cache;

  @Option(
      names = "--prior-strength",
      paramLabel = "N",
      defaultValue = "" + LlmCalibration.DEFAULT_STRENGTH,
      description = "pseudo-counts of each row's prior (default ${DEFAULT-VALUE})")
  double strength;

  @Mixin LlmOptions.ModelFlags model;

  @Override
  public Integer call() {
    if (!(strength > 0)) {
      throw usageError("--prior-strength must be positive, not " + strength);
    }
    LlmConfig config;
    try {
      config = model.options(llm.env, null).config();
    } catch (IllegalArgumentException e) {
      throw usageError(e.getMessage());
    }
    List<TrainingData.Item> items;
    AnswerCache answers;
    try {
      items = TrainingData.read(gold);
      answers = new AnswerCache(cache);
    } catch (TrainingData.BadInput e) {
      throw usageError(e.getMessage());
    } catch (IOException e) {
      err.println("llm calibrate: " + e.getMessage());
      return 1;
    }
    Target flags = flags(config);
    Map<Target, Map<String, Answer>> found;
    try {
      found = results != null ? fromResults(results, flags) : fromCache(answers, flags, items);
    } catch (IOException e) {
      err.println("llm calibrate: cannot read " + (results != null ? results : cache) + ": " + e);
      return 1;
    }
    return fit(items, found, config.priorError(), answers);
  }

  private Target flags(LlmConfig config) {
    return config.model() == null
        ? null
        : new Target(
            config.model(),
            new Prompt(Taxonomy.load(), config.examples() == null ? 0 : config.k()).version());
  }

  private int fit(
      List<TrainingData.Item> items,
      Map<Target, Map<String, Answer>> found,
      double epsilon,
      AnswerCache answers) {
    int stored = 0;
    for (Map.Entry<Target, Map<String, Answer>> t : found.entrySet()) {
      List<Map.Entry<Answer, Map<Dimension, String>>> pairs = pairs(items, t.getValue());
      if (pairs.isEmpty()) {
        continue;
      }
      String data =
          String.format(
              Locale.ROOT,
              "%s: %d labelled items answered, of %d",
              gold.getFileName(),
              pairs.size(),
              items.size());
      LlmCalibration c =
          LlmCalibration.fit(
              t.getKey().model(),
              t.getKey().promptVersion(),
              pairs,
              epsilon,
              strength,
              Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
              data);
      Path file;
      try {
        file = answers.putCalibration(c);
      } catch (IOException e) {
        err.println("llm calibrate: cannot store the calibration in " + cache + ": " + e);
        return 1;
      }
      print(c, file);
      stored++;
    }
    if (stored == 0) {
      err.println(
          "llm calibrate: no answer to any item of "
              + gold
              + (results != null
                  ? " in " + results
                  : " in " + cache + " (name the model with --llm-model, as for the export)"));
      return 1;
    }
    out.println("Send it to the stream with: faultline llm push --cache " + cache);
    return 0;
  }

  /** Each labelled item that has an answer, with its gold codes. */
  private static List<Map.Entry<Answer, Map<Dimension, String>>> pairs(
      List<TrainingData.Item> items, Map<String, Answer> byItem) {
    List<Map.Entry<Answer, Map<Dimension, String>>> out = new ArrayList<>();
    for (TrainingData.Item it : items) {
      Answer a = byItem.get(itemOf(it));
      if (a == null) {
        continue;
      }
      Map<Dimension, String> g = new EnumMap<>(Dimension.class);
      it.gold().forEach((t, code) -> g.put(t.dimension, code));
      out.add(Map.entry(a, g));
    }
    return out;
  }

  /** The identity of a labelled item as answers name it ({@link AnswerCache#item(String)}). */
  static String itemOf(TrainingData.Item it) {
    return AnswerCache.item(it.id()).orElse(it.id());
  }

  private void print(LlmCalibration c, Path file) {
    out.printf(
        Locale.ROOT,
        "llm calibrate: model %s, prompt %s: %s; prior %s pseudo-counts per row, epsilon %s by the"
            + " training mix%n",
        c.model(),
        c.promptVersion(),
        c.data(),
        fmt(c.strength()),
        fmt(c.epsilon()));
    out.printf(
        Locale.ROOT,
        "  %-21s %5s %8s  %s%n",
        "dimension",
        "items",
        "accuracy",
        "diagonal: P(true = answered | answered) (items answering it)");
    for (Dimension d : Dimension.LABELLED) {
      Confusion m = c.confusions().get(d);
      int n = m.items(List.of());
      List<String> diagonal = new ArrayList<>();
      for (String a : m.answered()) {
        diagonal.add(
            String.format(Locale.ROOT, "%s %.2f (%d)", a, m.row(a).get(a), m.items(List.of(a))));
      }
      out.printf(
          Locale.ROOT,
          "  %-21s %5d %8s  %s%n",
          d.field(),
          n,
          n == 0 ? "-" : String.format(Locale.ROOT, "%.3f", m.agreeing() / (double) n),
          String.join(", ", diagonal));
    }
    out.println("  stored in " + file);
  }

  private static String fmt(double x) {
    return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
  }

  /**
   * The answers of a Batch API output file, per model and prompt version and item: {@code
   * custom_id} {@code <url>#<model>#<prompt version>#<key>} (an older {@code <url>#<key>} takes
   * them from the flags, else is skipped); lines that are not a valid 200 answer are skipped.
   */
  private Map<Target, Map<String, Answer>> fromResults(Path file, Target flags) throws IOException {
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    ObjectMapper json = new ObjectMapper();
    Map<Target, Map<String, Answer>> out = new LinkedHashMap<>();
    int skipped = 0;
    try (JsonLines lines = JsonLines.open(file)) {
      String line;
      while ((line = lines.nextLine()) != null) {
        Optional<Map.Entry<Target, Map.Entry<String, Answer>>> a;
        try {
          a = resultLine(json.readTree(line), parser, flags);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          a = Optional.empty();
        }
        if (a.isEmpty()) {
          skipped++;
          continue;
        }
        out.computeIfAbsent(a.get().getKey(), k -> new LinkedHashMap<>())
            .put(a.get().getValue().getKey(), a.get().getValue().getValue());
      }
    }
    if (skipped > 0) {
      err.printf(
          Locale.ROOT,
          "llm calibrate: %d lines of %s skipped (no valid answer, or no model and prompt in the"
              + " custom_id and none named)%n",
          skipped,
          file);
    }
    return out;
  }

  static Optional<Map.Entry<Target, Map.Entry<String, Answer>>> resultLine(
      JsonNode rec, AnswerParser parser, Target flags) {
    CustomId id = CustomId.parse(rec.path("custom_id").asText(""));
    Target target = id.target() != null ? id.target() : flags;
    Optional<String> item = Optional.ofNullable(id.item());
    JsonNode response = rec.path("response");
    JsonNode content =
        response.path("body").path("choices").path(0).path("message").path("content");
    if (target == null
        || item.isEmpty()
        || response.path("status_code").asInt(0) != 200
        || !content.isTextual()
        || !(parser.parse(content.asText()) instanceof AnswerParser.Accepted accepted)) {
      return Optional.empty();
    }
    return Optional.of(Map.entry(target, Map.entry(item.get(), accepted.answer())));
  }

  /**
   * The answers in a cache directory: by content key under the flags' model and prompt, else the
   * newest batch answer naming the item, per model and prompt version.
   */
  private static Map<Target, Map<String, Answer>> fromCache(
      AnswerCache cache, Target flags, List<TrainingData.Item> items) throws IOException {
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    Map<Target, Map<String, Answer>> out = new TreeMap<>(BY_NAME);
    Map<Target, Map<String, Long>> newest = new TreeMap<>(BY_NAME);
    try (Stream<Path> files = Files.walk(cache.dir(), 2)) {
      for (Path f : files.toList()) {
        String key = f.getFileName().toString().replace(".json", "");
        Optional<AnswerCache.Entry> e = cache.get(key);
        if (e.isEmpty() || e.get().item() == null || e.get().promptVersion().isEmpty()) {
          continue;
        }
        if (!(parser.parse(e.get().answer()) instanceof AnswerParser.Accepted a)) {
          continue;
        }
        Target t = new Target(e.get().model(), e.get().promptVersion());
        long at = Files.getLastModifiedTime(f).toMillis();
        Long seen = newest.computeIfAbsent(t, k -> new LinkedHashMap<>()).get(e.get().item());
        if (seen == null || seen <= at) {
          newest.get(t).put(e.get().item(), at);
          out.computeIfAbsent(t, k -> new LinkedHashMap<>()).put(e.get().item(), a.answer());
        }
      }
    }
    if (flags != null) {
      for (TrainingData.Item it : items) {
        String key =
            AnswerCache.key(flags.promptVersion(), flags.model(), Prompt.itemContent(it.text()));
        Optional<AnswerCache.Entry> e = cache.get(key);
        if (e.isPresent() && parser.parse(e.get().answer()) instanceof AnswerParser.Accepted a) {
          out.computeIfAbsent(flags, k -> new LinkedHashMap<>()).put(itemOf(it), a.answer());
        }
      }
    }
    return out;
  }

  private static final java.util.Comparator<Target> BY_NAME =
      java.util.Comparator.comparing(Target::model).thenComparing(Target::promptVersion);
}
