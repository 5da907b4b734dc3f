package dev.faultline.jobs.classify;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.rules.Classifier;
import java.util.Locale;
import java.util.Map;

/**
 * Which classifier the issue pipeline runs: {@code LEARNED} (the default: the calibrated learned
 * layer over the rules, one encoder and model per task manager JVM) or {@code RULES} (the rules
 * alone, e.g. for a throughput baseline). A field of the job's configuration, chosen where the job
 * is built (from {@value #ENV}), so a cluster runs what the submitter chose.
 */
public enum ClassifierTier {
  LEARNED,
  RULES;

  /** Environment variable naming the tier ({@code learned} or {@code rules}). */
  public static final String ENV = "FAULTLINE_CLASSIFIER_TIER";

  /** {@value #ENV} of {@code env}, else {@link #LEARNED}. */
  public static ClassifierTier fromEnvironment(Map<String, String> env) {
    String v = env.get(ENV);
    if (v == null || v.isBlank()) {
      return LEARNED;
    }
    try {
      return valueOf(v.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ENV + " must be learned or rules, not '" + v + "'", e);
    }
  }

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ClassifierTier.class);

  /**
   * The classifier of this tier. Should the learned layer fail to load (its native encoder refused
   * by the platform, the artefact unreadable), the task logs why and classifies with the rules
   * rather than stopping the pipeline; the graph then shows the rules' version on what it
   * classified.
   */
  public DefectClassifier classifier() {
    if (this == RULES) {
      return new Classifier(ClassifierConfig.defaults());
    }
    try {
      return LearnedClassifier.shared();
    } catch (LinkageError | RuntimeException e) {
      LOG.error(
          "the learned classifier cannot be loaded ({}): classifying with the rules alone ({})",
          e.toString(),
          Classifier.VERSION,
          e);
      return new Classifier(ClassifierConfig.defaults());
    }
  }
}
