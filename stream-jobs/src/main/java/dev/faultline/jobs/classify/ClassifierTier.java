package dev.faultline.jobs.classify;

import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.LearnedClassifier;
import java.util.Locale;

/**
 * Which classifier the issue pipeline runs: {@code LEARNED} (the default: the calibrated learned layer over the
 * rules, one encoder and model per task manager JVM) or {@code RULES} (the rules alone, e.g. for a throughput
 * baseline). Chosen where the job is built, so a cluster runs what the submitter chose.
 */
public enum ClassifierTier {
  LEARNED,
  RULES;

  /** Environment variable naming the tier ({@code learned} or {@code rules}). */
  public static final String ENV = "FAULTLINE_CLASSIFIER_TIER";

  /** {@link #ENV}, else the system property {@code faultline.classifier.tier}, else {@link #LEARNED}. */
  public static ClassifierTier fromEnvironment() {
    String v = System.getProperty("faultline.classifier.tier", System.getenv(ENV));
    if (v == null || v.isBlank()) {
      return LEARNED;
    }
    try {
      return valueOf(v.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ENV + " must be learned or rules, not '" + v + "'", e);
    }
  }

  /** The classifier of this tier. */
  public DefectClassifier classifier() {
    return this == RULES ? new Classifier(ClassifierConfig.defaults()) : LearnedClassifier.shared();
  }
}
