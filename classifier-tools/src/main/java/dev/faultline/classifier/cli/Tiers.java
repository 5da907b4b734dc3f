package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.LlmTier;
import dev.faultline.classifier.rules.Classifier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The classifier tiers the batch commands offer: {@code rules}, {@code learned} (the default) over
 * them, or {@code llm}, the language-model tier over the learned one ({@link
 * dev.faultline.classifier.llm}).
 */
public final class Tiers {

  /** Tier names, default first. */
  public static final java.util.List<String> NAMES = java.util.List.of("learned", "rules", "llm");

  /** The tier names for shell completion. */
  public static final class Names implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return NAMES.iterator();
    }
  }

  private Tiers() {}

  /**
   * @param tier {@code learned} or {@code rules}
   * @param model an artefact file, or null for the committed one
   */
  public static DefectClassifier of(String tier, ClassifierConfig config, String model)
      throws IOException {
    return of(tier, config, model, LlmOptions.NONE);
  }

  /**
   * @param tier {@code learned}, {@code rules} or {@code llm}
   * @param model an artefact file, or null for the committed one
   * @param llm the language-model tier's settings (used for {@code llm} only)
   */
  public static DefectClassifier of(
      String tier, ClassifierConfig config, String model, LlmOptions llm) throws IOException {
    if ("llm".equals(tier)) {
      LlmConfig c = llm.config();
      return LlmTier.create(
          of("learned", config, model, llm),
          c,
          llm.cacheDir(),
          MiniLmEmbedder::shared,
          new LlmStats());
    }
    Classifier rules = new Classifier(config);
    return switch (tier) {
      case "rules" -> rules;
      case "learned" -> {
        LearnedModel m;
        if (model == null) {
          m = LearnedModel.bundled();
        } else {
          try (InputStream in = Files.newInputStream(Path.of(model))) {
            m = LearnedModel.read(in);
          }
        }
        yield new LearnedClassifier(
            rules,
            new dev.faultline.classifier.learned.VectorCache(
                MiniLmEmbedder.shared(), dev.faultline.classifier.learned.VectorCache.CAPACITY),
            m);
      }
      default ->
          throw new IllegalArgumentException("unknown tier '" + tier + "' (tiers: " + NAMES + ")");
    };
  }

  /** The files and diff of a batch record of a merged change (none for an issue). */
  static ChangeDetails change(JsonNode rec) {
    return ChangeDetails.ofRecord(
        rec.path("url").asText(""), rec.path("text").asText(""), rec.path("diff").asText(""));
  }
}
