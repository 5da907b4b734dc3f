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
    return String.valueOf(
        dev.faultline.schemas.taxonomy.Dimension.symbol(rules.label(t.dimension).value()));
  }

  /** The rules' confidence for a dimension. */
  public double rulesConfidence(Target t) {
    return rules.label(t.dimension).confidence();
  }
}
