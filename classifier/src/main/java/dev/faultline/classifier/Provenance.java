package dev.faultline.classifier;

import java.util.Objects;

/**
 * Which classifier made a classification: its tier, its version, and for the language-model tier
 * the model and the prompt version. Made by the classifier; the edges map it to their strings (the
 * topic's and the batch format's {@link #classifierVersion()}, the graph's label source and prompt
 * version), and nothing parses it back.
 *
 * @param version the offline classifier's version ({@code rules-…}, {@code learned-…+rules-…}); for
 *     the language-model tier the offline version it upgraded, which may be null
 * @param model the language model's name; null for an offline tier
 * @param prompt the prompt version; null for an offline tier
 */
public record Provenance(Tier tier, String version, String model, String prompt)
    implements java.io.Serializable {

  /** The tiers that label. */
  public enum Tier {
    /** The rules alone. */
    RULES,
    /** The learned layer over the rules. */
    MODEL,
    /** A language model's validated answer. */
    LLM
  }

  public Provenance {
    Objects.requireNonNull(tier, "tier");
    if (tier == Tier.LLM) {
      Objects.requireNonNull(model, "model");
    } else {
      Objects.requireNonNull(version, "version");
    }
  }

  /** The rules of a version. */
  public static Provenance rules(String version) {
    return new Provenance(Tier.RULES, version, null, null);
  }

  /** The learned layer of an artefact version. */
  public static Provenance learned(String version) {
    return new Provenance(Tier.MODEL, version, null, null);
  }

  /** A language model's answer under a prompt version. */
  public static Provenance llm(String model, String prompt) {
    return new Provenance(Tier.LLM, null, model, prompt);
  }

  /**
   * The version string of the topic and the batch format: the offline version, or {@code
   * llm:<model>/<prompt>}.
   */
  public String classifierVersion() {
    return tier == Tier.LLM ? "llm:" + model + "/" + prompt : version;
  }

  @Override
  public String toString() {
    return classifierVersion();
  }
}
