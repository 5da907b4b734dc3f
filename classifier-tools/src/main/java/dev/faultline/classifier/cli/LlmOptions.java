package dev.faultline.classifier.cli;

import dev.faultline.classifier.llm.LlmConfig;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The language-model tier's command-line options, over its {@code FAULTLINE_LLM_*} environment:
 * {@code --llm-cache DIR}, {@code --llm-config FILE} (a properties file of the same keys), {@code
 * --llm-model NAME} and {@code --examples FILE|DIR} (a labelled example set; overrides {@code
 * FAULTLINE_LLM_EXAMPLES}).
 *
 * @param config the merged settings
 * @param cacheDir the answer cache, or null
 */
public record LlmOptions(LlmConfig config, Path cacheDir) {

  /** No cache, no settings: the tiers that ask no language model. */
  static final LlmOptions NONE = new LlmOptions(null, null);

  /** What the help of the commands with {@code --tier llm} says about it. */
  static final String FOOTER =
      "Tier llm asks FAULTLINE_LLM_ENDPOINT (when set) for items without a cached answer; items without a valid answer"
          + " keep the learned tier's labels and say why (fields source and fallback_reason).";

  /**
   * The options naming the model and its prompt's examples: {@code --llm-model}, {@code
   * --examples}, {@code --llm-config}.
   */
  static final class ModelFlags {
    @Option(
        names = "--llm-model",
        paramLabel = "NAME",
        description =
            "(tier llm) the model name (else FAULTLINE_LLM_MODEL), e.g. gpt-4o-mini; part of the cache key")
    String model;

    @Option(
        names = "--examples",
        paramLabel = "FILE",
        description =
            "(tier llm) a labelled JSONL example set (file or directory) for the nearest examples in each"
                + " prompt (else FAULTLINE_LLM_EXAMPLES; none: a prompt without examples)")
    String examples;

    @Option(
        names = "--llm-config",
        paramLabel = "FILE",
        description =
            "(tier llm) a properties file of FAULTLINE_LLM_* settings (the environment wins)")
    Path config;

    /**
     * @throws IllegalArgumentException a setting is invalid (the message names it)
     */
    LlmOptions options(Map<String, String> env, Path cacheDir) {
      Map<String, String> e = new java.util.HashMap<>(env);
      if (model != null) {
        e.put(LlmConfig.PREFIX + "MODEL", model);
      }
      if (examples != null) {
        e.put(LlmConfig.PREFIX + "EXAMPLES", examples);
      }
      return new LlmOptions(LlmConfig.fromEnvironment(e, config), cacheDir);
    }
  }

  /**
   * The options of {@code classify} and {@code eval} for {@code --tier llm}: the model's and {@code
   * --llm-cache}.
   */
  static final class TierFlags {
    @Option(
        names = "--llm-cache",
        paramLabel = "DIR",
        description =
            "(tier llm) directory of cached answers: filled by 'llm import' and by the endpoint's answers")
    Path cache;

    @Mixin ModelFlags model = new ModelFlags();

    /**
     * Reads the options over the environment.
     *
     * @throws IllegalArgumentException a setting is invalid (the message names it)
     */
    LlmOptions options(Map<String, String> env) {
      return model.options(env, cache);
    }
  }

  @Override
  public LlmConfig config() {
    return config == null ? LlmConfig.defaults() : config;
  }
}
