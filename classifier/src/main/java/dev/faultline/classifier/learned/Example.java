package dev.faultline.classifier.learned;

import dev.faultline.classifier.Classification;
import java.util.Map;

/**
 * One labelled item of the training corpus (or of an evaluation file) as the trainer holds it: no
 * text, only its features, the rules' answer and its gold labels.
 *
 * @param id {@code owner/repo#n} or {@code owner/repo@sha}
 * @param group items that must stay in one fold (an issue and the changes that close it)
 * @param repo {@code owner/name}
 * @param change whether the item is a merged change rather than an issue
 * @param raw its raw features
 * @param rules the rules' answer
 * @param gold per dimension, the gold code ({@code "null"} for distributed-specific "cannot tell")
 */
public record Example(
    String id,
    String group,
    String repo,
    boolean change,
    RawFeatures raw,
    Classification rules,
    Map<Target, String> gold) {

  /** The rules' answer for a dimension, as a code. */
  public String rulesCode(Target t) {
    return switch (t) {
      case KIND -> rules.kind().value().name();
      case SYMPTOM -> rules.symptom().value().name();
      case ROOT_CAUSE -> rules.rootCause().value().name();
      case FIX_PATTERN -> rules.fixPattern().value().name();
      case STAGE -> rules.stage().value().name();
      case PHASE -> rules.phase().value().name();
      case DISTRIBUTED -> String.valueOf(rules.distributedSpecific().value());
    };
  }

  /** The rules' confidence for a dimension. */
  public double rulesConfidence(Target t) {
    return switch (t) {
      case KIND -> rules.kind().confidence();
      case SYMPTOM -> rules.symptom().confidence();
      case ROOT_CAUSE -> rules.rootCause().confidence();
      case FIX_PATTERN -> rules.fixPattern().confidence();
      case STAGE -> rules.stage().confidence();
      case PHASE -> rules.phase().confidence();
      case DISTRIBUTED -> rules.distributedSpecific().confidence();
    };
  }
}
