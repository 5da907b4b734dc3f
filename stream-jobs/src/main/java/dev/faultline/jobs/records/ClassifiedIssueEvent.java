package dev.faultline.jobs.records;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the issue pipeline emits: an issue's newest state and its classification, in the domain's
 * own types. Two one-way mappers take it to the edges: {@link dev.faultline.jobs.sink.IssueRows} to
 * the graph row and {@link dev.faultline.jobs.sink.ClassifiedIssueRecords} to the {@code
 * faultline.issues.classified} Avro record.
 */
public class ClassifiedIssueEvent {
  /** The issue's newest state (a copy: the pipeline's state keeps its own). */
  public IssueEvent issue;

  /** The framework the classifier found, else the repository. */
  public String framework;

  /** The newest event time folded into this state. */
  public long stateVersion;

  /**
   * The issue's count of state changes in this job when classified ({@link
   * dev.faultline.jobs.classify.IssueAccumulator#changes}): orders two states of one version.
   */
  public long stateChanges;

  public int commentCount;
  public Classification classification;
  public long classifiedAt;

  /** The delivery whose fact caused this classification. */
  public String deliveryId;

  /**
   * The change this event belongs to: a token drawn for each classification of a state and kept by
   * its language-model upgrade, or a replay's run token ({@link
   * dev.faultline.graph.IssueRow#pass()}).
   */
  public String pass;

  /** Ids of the pull requests that say they fix the issue, sorted. */
  public List<String> fixingPullRequests = new ArrayList<>();

  /**
   * The stable key of the text vector the learned classifier used ({@link
   * dev.faultline.classifier.learned.StoredVectors#keyOf}), else null (rules tier, a language
   * model's upgrade).
   */
  public String textVectorKey;

  /**
   * That vector when the issue's state had not sent this key before (its first classification in
   * this job, or a change of the text the encoder reads) and the vector did not come from the graph
   * (a replay), else null: the graph keeps it once.
   */
  public float[] textVector;

  /**
   * The reply a reader of this issue looks for first ({@link
   * dev.faultline.jobs.classify.IssueClassification#answerOf}): the newest maintainer comment, else
   * the newest comment by someone other than the reporter; null when there is none.
   */
  public CommentEvent answer;

  public ClassifiedIssueEvent() {}

  /** The framework's own reported version: the version extractor keys it by its package name. */
  public String frameworkVersion() {
    String key =
        switch (framework.toLowerCase(Locale.ROOT)) {
          case "colossal-ai" -> "colossalai";
          case "megatron-lm" -> "megatron-core";
          case "pytorch" -> "torch";
          default -> framework.toLowerCase(Locale.ROOT);
        };
    return classification.versions().get(key);
  }

  /** Confidence of each {@link Dimension#LABELLED} dimension, in that order. */
  public Map<Dimension, Double> confidence() {
    Map<Dimension, Double> m = new LinkedHashMap<>();
    Dimension.LABELLED.forEach(d -> m.put(d, classification.label(d).confidence()));
    return m;
  }

  /** Evidence of each {@link Dimension#LABELLED} dimension that has one, in that order. */
  public Map<Dimension, String> evidence() {
    Map<Dimension, String> m = new LinkedHashMap<>();
    for (Dimension d : Dimension.LABELLED) {
      Label<?> l = classification.label(d);
      if (l.evidence() != null) {
        m.put(d, l.evidence());
      }
    }
    return m;
  }

  /**
   * Every dimension's calibrated probability of each of its codes ({@link
   * Dimension#distributionCodes()} order), rounded as the edges print them ({@link
   * Distributions#rounded}).
   */
  public Map<Dimension, Map<String, Double>> probabilities() {
    Map<Dimension, Map<String, Double>> m = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      m.put(d, Distributions.rounded(d, classification.label(d)));
    }
    return m;
  }

  /**
   * Every dimension's calibration marker ({@link dev.faultline.classifier.Calibrations}: what its
   * probabilities rest on), in {@link Dimension} order; a label without one is left out.
   */
  public Map<Dimension, String> calibration() {
    Map<Dimension, String> m = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      String c = classification.label(d).calibration();
      if (c != null) {
        m.put(d, c);
      }
    }
    return m;
  }

  /** The {@link Dimension#LABELLED} dimensions whose value a person gave, in that order. */
  public List<Dimension> humanGiven() {
    return Dimension.LABELLED.stream().filter(d -> classification.label(d).humanGiven()).toList();
  }

  @Override
  public String toString() {
    return "ClassifiedIssueEvent{"
        + (issue == null ? null : issue.id)
        + " v"
        + stateVersion
        + " delivery="
        + deliveryId
        + "}";
  }
}
