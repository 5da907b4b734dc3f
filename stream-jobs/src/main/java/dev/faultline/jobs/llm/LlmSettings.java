package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.LlmConfig;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The language-model tier of the issue pipeline, switched on by configuration: the {@code
 * FAULTLINE_LLM_*} settings {@link LlmConfig} reads (endpoint, model, API key variable, timeouts,
 * retries, concurrency, daily budget, examples, confidence), read once where the job is built and
 * carried to the task managers, which parse them again. Off unless {@code FAULTLINE_LLM_ENDPOINT}
 * is set. Two settings belong to the stream alone:
 *
 * <table>
 *   <caption>stream settings</caption>
 *   <tr><td>{@code FAULTLINE_LLM_ASYNC_TIMEOUT_MS}</td><td>how long one item may wait for its answer in Flink's
 *       async operator before it keeps its offline label (default: every attempt's timeout and backoff, plus 5 s)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_ASYNC_CAPACITY}</td><td>items in the async operator at once per subtask (default 200);
 *       at most half of them wait for the endpoint, the rest of the capacity keeps cache hits and refusals flowing, so
 *       a slow endpoint never backs the pipeline up: an item that finds the endpoint's queue full keeps its offline
 *       label at once</td></tr>
 * </table>
 *
 * @param values the {@code FAULTLINE_LLM_*} settings (and the API key under its variable's name;
 *     masked in {@link #toString()})
 */
public record LlmSettings(Map<String, String> values) implements Serializable {

  /** The tier off. */
  public static final LlmSettings OFF = new LlmSettings(Map.of());

  public static final String ASYNC_TIMEOUT_MS = LlmConfig.PREFIX + "ASYNC_TIMEOUT_MS";
  public static final String ASYNC_CAPACITY = LlmConfig.PREFIX + "ASYNC_CAPACITY";

  public LlmSettings {
    values = Map.copyOf(values == null ? Map.of() : values);
    // Fail where the job is built, with what to fix, rather than in every task manager.
    LlmConfig c = LlmConfig.from(values);
    if (c.endpointConfigured()) {
      if (asyncTimeoutOf(values, c).isZero() || asyncTimeoutOf(values, c).isNegative()) {
        throw new IllegalArgumentException(ASYNC_TIMEOUT_MS + " must be > 0");
      }
      if (capacityOf(values) < 2) {
        throw new IllegalArgumentException(ASYNC_CAPACITY + " must be >= 2");
      }
    }
  }

  /**
   * The settings of an environment (and the properties file {@code FAULTLINE_LLM_CONFIG} names, if
   * any).
   */
  public static LlmSettings fromEnvironment(Map<String, String> env) {
    return new LlmSettings(LlmConfig.settings(env, null));
  }

  /** Settings from a map of {@code FAULTLINE_LLM_*} keys, e.g. in tests. */
  public static LlmSettings of(Map<String, String> values) {
    return new LlmSettings(new HashMap<>(values));
  }

  /** Whether the tier is on: an endpoint is configured. */
  public boolean enabled() {
    return config().endpointConfigured();
  }

  /** The tier's configuration. */
  public LlmConfig config() {
    return LlmConfig.from(values);
  }

  /** The async operator's timeout per item. */
  public Duration asyncTimeout() {
    return asyncTimeoutOf(values, config());
  }

  /** The async operator's capacity per subtask. */
  public int capacity() {
    return capacityOf(values);
  }

  /** Items that may wait for the endpoint at once per subtask: half the capacity. */
  public int maxWaiting() {
    return Math.max(1, capacity() / 2);
  }

  private static Duration asyncTimeoutOf(Map<String, String> values, LlmConfig c) {
    String v = values.get(ASYNC_TIMEOUT_MS);
    if (v != null && !v.isBlank()) {
      try {
        return Duration.ofMillis(Long.parseLong(v.strip()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            ASYNC_TIMEOUT_MS + " must be a whole number, not '" + v + "'");
      }
    }
    long attempts = c.maxRetries() + 1L;
    long backoff = 0;
    for (int i = 0; i < c.maxRetries(); i++) {
      backoff += Math.min(30_000, c.backoff().toMillis() << i);
    }
    return Duration.ofMillis(attempts * c.requestTimeout().toMillis() + backoff + 5_000);
  }

  private static int capacityOf(Map<String, String> values) {
    String v = values.get(ASYNC_CAPACITY);
    if (v == null || v.isBlank()) {
      return 200;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          ASYNC_CAPACITY + " must be a whole number, not '" + v + "'");
    }
  }

  @Override
  public String toString() {
    if (!enabled()) {
      return "LlmSettings[off]";
    }
    Map<String, String> shown = new TreeMap<>(values);
    LlmConfig c = config();
    if (shown.containsKey(c.apiKeyEnv())) {
      shown.put(c.apiKeyEnv(), "****");
    }
    return "LlmSettings" + shown;
  }

  private static final long serialVersionUID = 1L;
}
