package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.ChangeDetails;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The classifier tiers the batch commands offer: {@code rules}, or {@code learned} (the default) over them. */
public final class Tiers {

  /** Tier names, default first. */
  public static final java.util.List<String> NAMES = java.util.List.of("learned", "rules");

  private Tiers() {}

  /**
   * @param tier {@code learned} or {@code rules}
   * @param model an artefact file, or null for the committed one
   */
  public static DefectClassifier of(String tier, ClassifierConfig config, String model) throws IOException {
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
        yield new LearnedClassifier(rules, MiniLmEmbedder.shared(), m);
      }
      default -> throw new IllegalArgumentException("unknown tier '" + tier + "' (tiers: " + NAMES + ")");
    };
  }

  /** The files and diff of a batch record of a merged change (none for an issue). */
  static ChangeDetails change(JsonNode rec) {
    String url = rec.path("url").asText("");
    if (!url.contains("/pull/") && !url.contains("/commit/")) {
      return ChangeDetails.NONE;
    }
    return ChangeDetails.fromText(rec.path("text").asText(""), rec.path("diff").asText(""));
  }
}
