package dev.faultline.classifier.cli;

import dev.faultline.classifier.llm.LlmConfig;
import java.nio.file.Path;
import java.util.Map;

/**
 * The language-model tier's command-line options, over its {@code FAULTLINE_LLM_*} environment: {@code --llm-cache
 * DIR}, {@code --llm-config FILE} (a properties file of the same keys), {@code --llm-model NAME} and
 * {@code --examples FILE|DIR} (a labelled example set; overrides {@code FAULTLINE_LLM_EXAMPLES}).
 *
 * @param config the merged settings
 * @param cacheDir the answer cache, or null
 */
public record LlmOptions(LlmConfig config, Path cacheDir) {

  /** No cache, the process environment's settings. */
  static final LlmOptions NONE = new LlmOptions(null, null);

  /** The option names, for {@link Args#parse}. */
  static final String[] NAMES = {"--llm-cache", "--llm-config", "--llm-model", "--examples"};

  /** Usage lines of the options. */
  static final String USAGE =
      String.join(
          "\n",
          "  --llm-cache   (tier llm) directory of cached answers: filled by 'llm import' and by the endpoint's answers",
          "  --llm-config  (tier llm) a properties file of FAULTLINE_LLM_* settings (the environment wins)",
          "  --llm-model   (tier llm) the model name (else FAULTLINE_LLM_MODEL); part of the cache key",
          "  --examples    (tier llm) a labelled JSONL example set (file or directory) for the nearest examples",
          "                in each prompt (else FAULTLINE_LLM_EXAMPLES; none: a prompt without examples)",
          "  tier llm asks FAULTLINE_LLM_ENDPOINT (when set) for items without a cached answer; items without a",
          "  valid answer keep the learned tier's labels and say why (fields source and fallback_reason)");

  @Override
  public LlmConfig config() {
    return config == null ? LlmConfig.fromEnvironment() : config;
  }

  /**
   * Reads the options over the environment.
   *
   * @throws IllegalArgumentException a setting is invalid (the message names it)
   */
  static LlmOptions from(Args a, Map<String, String> env) {
    Map<String, String> e = new java.util.HashMap<>(env);
    if (a.get("--llm-model") != null) {
      e.put(LlmConfig.PREFIX + "MODEL", a.get("--llm-model"));
    }
    if (a.get("--examples") != null) {
      e.put(LlmConfig.PREFIX + "EXAMPLES", a.get("--examples"));
    }
    LlmConfig c = LlmConfig.fromEnvironment(e, a.get("--llm-config") == null ? null : Path.of(a.get("--llm-config")));
    return new LlmOptions(c, a.get("--llm-cache") == null ? null : Path.of(a.get("--llm-cache")));
  }
}
