package dev.faultline.classifier.cli;

import dev.faultline.classifier.ClassifierConfig;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code classify} and {@code eval} end with: {@code --config}, then the flags of
 * {@code --tier llm} ({@link LlmOptions.TierFlags}), in this order in their help.
 */
final class ConfigFlags {
  @Option(
      names = "--config",
      paramLabel = "CLASSPATH_RESOURCE",
      defaultValue = ClassifierConfig.DEFAULT_RESOURCE,
      description = "classifier config resource")
  String config;

  @Mixin LlmOptions.TierFlags llmFlags = new LlmOptions.TierFlags();

  /** The classifier config the resource names. */
  ClassifierConfig load() {
    return ClassifierConfig.load(config);
  }

  /**
   * The language-model settings of {@code tier}: read over {@code env} (the process environment)
   * for {@code llm}, {@link LlmOptions#NONE} for the others.
   *
   * @throws IllegalArgumentException a setting is invalid (the message names it)
   */
  LlmOptions forTier(String tier, Map<String, String> env) {
    return "llm".equals(tier) ? llmFlags.options(env) : LlmOptions.NONE;
  }
}
