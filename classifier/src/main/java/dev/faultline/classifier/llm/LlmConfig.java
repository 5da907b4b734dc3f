package dev.faultline.classifier.llm;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Configuration of the language-model tier, immutable, parsed once. The tier is off unless an
 * endpoint is set ({@link #endpointConfigured()}); answers already in a cache are used without one.
 *
 * <p>Every setting is an environment variable {@code FAULTLINE_LLM_*} or the same key in a
 * properties file ({@code FAULTLINE_LLM_CONFIG}, or {@code --llm-config}), the environment winning:
 *
 * <table>
 *   <caption>settings</caption>
 *   <tr><td>{@code FAULTLINE_LLM_ENDPOINT}</td><td>base URL of an OpenAI-compatible server, e.g.
 *       {@code http://127.0.0.1:8000} (vLLM), {@code http://127.0.0.1:11434} (Ollama),
 *       {@code https://api.openai.com}; requests go to {@code {endpoint}/v1/chat/completions}. Unset: off</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_MODEL}</td><td>model name sent with every request; part of the cache key</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_API_KEY_ENV}</td><td>name of the environment variable holding the API key
 *       (default {@code FAULTLINE_LLM_API_KEY}); local servers need none</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_CONNECT_TIMEOUT_MS}, {@code FAULTLINE_LLM_TIMEOUT_MS}</td><td>connect and whole-request
 *       timeouts (default 5000 and 60000)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_MAX_RETRIES}, {@code FAULTLINE_LLM_BACKOFF_MS}</td><td>retries on 429, 5xx and I/O
 *       errors, and the first backoff, doubled each retry (default 3 and 500)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_CONCURRENCY}</td><td>requests in flight at once (default 4)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_MAX_REQUESTS_PER_DAY}, {@code FAULTLINE_LLM_MAX_TOKENS_PER_DAY}</td><td>daily budget
 *       (UTC days; default 10000 requests and 20000000 tokens; 0 refuses every request)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_PRICE_INPUT_PER_1K}, {@code FAULTLINE_LLM_PRICE_OUTPUT_PER_1K}</td><td>price per 1,000
 *       prompt and completion tokens, for the cost figures (default 0: a local server)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_EXAMPLES}, {@code FAULTLINE_LLM_K}</td><td>a labelled JSONL example set and how many
 *       nearest examples go into each prompt (default none and 5)</td></tr>
 *   <tr><td>{@code FAULTLINE_LLM_CONFIDENCE}</td><td>the probability put on an answer of a model and prompt
 *       without a measured calibration, 1 - epsilon of its prior error (default 0.9: epsilon 0.1; strictly
 *       between 0 and 1, never a point mass); a calibrated answer's comes from its confusion row</td></tr>
 * </table>
 *
 * @param endpoint base URL, or null when no endpoint is configured
 * @param model model name; null only when neither endpoint nor cache use is intended
 * @param apiKeyEnv the environment variable the key was read from
 * @param apiKey the key, or null; masked in {@link #toString()}
 * @param examples the labelled example set, or null for a prompt without examples
 * @param k nearest examples per prompt
 * @param confidence the probability of an uncalibrated answer's code, {@code 1 - }{@link
 *     #priorError()}
 */
public record LlmConfig(
    URI endpoint,
    String model,
    String apiKeyEnv,
    String apiKey,
    Duration connectTimeout,
    Duration requestTimeout,
    int maxRetries,
    Duration backoff,
    int concurrency,
    long maxRequestsPerDay,
    long maxTokensPerDay,
    double priceInputPer1k,
    double priceOutputPer1k,
    Path examples,
    int k,
    double confidence) {

  /** Prefix of every setting. */
  public static final String PREFIX = "FAULTLINE_LLM_";

  /** The variable naming a properties file with the same keys. */
  public static final String CONFIG_FILE = PREFIX + "CONFIG";

  /** Default name of the API key's variable. */
  public static final String DEFAULT_API_KEY_ENV = PREFIX + "API_KEY";

  public LlmConfig {
    if (model != null && model.isBlank()) {
      model = null;
    }
    if (endpoint != null && model == null) {
      throw new IllegalArgumentException(
          PREFIX
              + "ENDPOINT is set but "
              + PREFIX
              + "MODEL is not: name the model the server serves");
    }
    if (endpoint != null
        && !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))) {
      throw new IllegalArgumentException(
          PREFIX + "ENDPOINT must be an http(s) URL, not '" + endpoint + "'");
    }
    positive(connectTimeout, "CONNECT_TIMEOUT_MS");
    positive(requestTimeout, "TIMEOUT_MS");
    if (backoff.isNegative()) {
      throw new IllegalArgumentException(PREFIX + "BACKOFF_MS must be >= 0");
    }
    atLeast(maxRetries, 0, "MAX_RETRIES");
    atLeast(concurrency, 1, "CONCURRENCY");
    atLeast(maxRequestsPerDay, 0, "MAX_REQUESTS_PER_DAY");
    atLeast(maxTokensPerDay, 0, "MAX_TOKENS_PER_DAY");
    atLeast(k, 0, "K");
    if (priceInputPer1k < 0 || priceOutputPer1k < 0) {
      throw new IllegalArgumentException(PREFIX + "PRICE_*_PER_1K must be >= 0");
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException(
          PREFIX
              + "CONFIDENCE must be strictly between 0 and 1 (1 would make an uncalibrated answer a"
              + " point mass), not "
              + confidence);
    }
  }

  /**
   * The prior error of an answer without a measured calibration: {@code 1 - confidence}, exact in
   * decimal (0.9 gives 0.1).
   */
  public double priorError() {
    return java.math.BigDecimal.ONE
        .subtract(java.math.BigDecimal.valueOf(confidence))
        .doubleValue();
  }

  /** Defaults: no endpoint, no model, no examples. */
  public static LlmConfig defaults() {
    return from(Map.of());
  }

  /**
   * Settings from an environment map over a properties file (the one given, else the one {@value
   * #CONFIG_FILE} names, else none).
   */
  public static LlmConfig fromEnvironment(Map<String, String> env, Path propertiesFile) {
    return from(settings(env, propertiesFile));
  }

  /**
   * The {@code FAULTLINE_LLM_*} settings of an environment map over a properties file (the one
   * given, else the one {@value #CONFIG_FILE} names, else none), with the API key under its
   * variable's name: what {@link #from} reads. A job carries this map to its task managers and
   * parses it there.
   */
  public static Map<String, String> settings(Map<String, String> env, Path propertiesFile) {
    Map<String, String> merged = new HashMap<>();
    Path file =
        propertiesFile != null
            ? propertiesFile
            : env.containsKey(CONFIG_FILE) ? Path.of(env.get(CONFIG_FILE)) : null;
    if (file != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read the language-model settings file " + file + ": " + e.getMessage());
      }
      p.stringPropertyNames().forEach(n -> merged.put(n, p.getProperty(n).strip()));
    }
    env.forEach(
        (key, v) -> {
          if (key.startsWith(PREFIX)) {
            merged.put(key, v);
          }
        });
    String keyEnv = merged.getOrDefault(PREFIX + "API_KEY_ENV", DEFAULT_API_KEY_ENV);
    if (env.containsKey(keyEnv)) {
      merged.put(keyEnv, env.get(keyEnv));
    }
    return merged;
  }

  /**
   * Settings from a map of {@code FAULTLINE_LLM_*} keys (the API key is looked up under its
   * variable's name).
   */
  public static LlmConfig from(Map<String, String> s) {
    String endpoint = blankToNull(s.get(PREFIX + "ENDPOINT"));
    String keyEnv = s.getOrDefault(PREFIX + "API_KEY_ENV", DEFAULT_API_KEY_ENV);
    String examples = blankToNull(s.get(PREFIX + "EXAMPLES"));
    return new LlmConfig(
        endpoint == null ? null : uri(endpoint),
        blankToNull(s.get(PREFIX + "MODEL")),
        keyEnv,
        blankToNull(s.get(keyEnv)),
        Duration.ofMillis(number(s, "CONNECT_TIMEOUT_MS", 5_000)),
        Duration.ofMillis(number(s, "TIMEOUT_MS", 60_000)),
        (int) number(s, "MAX_RETRIES", 3),
        Duration.ofMillis(number(s, "BACKOFF_MS", 500)),
        (int) number(s, "CONCURRENCY", 4),
        number(s, "MAX_REQUESTS_PER_DAY", 10_000),
        number(s, "MAX_TOKENS_PER_DAY", 20_000_000),
        decimal(s, "PRICE_INPUT_PER_1K", 0),
        decimal(s, "PRICE_OUTPUT_PER_1K", 0),
        examples == null ? null : Path.of(examples),
        (int) number(s, "K", 5),
        decimal(s, "CONFIDENCE", 0.9));
  }

  /** Whether an endpoint is configured: without one only cached answers are used. */
  public boolean endpointConfigured() {
    return endpoint != null;
  }

  /** The chat-completions URL of the endpoint. */
  public URI chatCompletions() {
    String base = endpoint.toString().replaceAll("/+$", "");
    if (base.endsWith("/v1")) {
      base = base.substring(0, base.length() - 3);
    }
    return URI.create(base + "/v1/chat/completions");
  }

  /** A copy with another model. */
  public LlmConfig withModel(String m) {
    return new LlmConfig(
        endpoint,
        m,
        apiKeyEnv,
        apiKey,
        connectTimeout,
        requestTimeout,
        maxRetries,
        backoff,
        concurrency,
        maxRequestsPerDay,
        maxTokensPerDay,
        priceInputPer1k,
        priceOutputPer1k,
        examples,
        k,
        confidence);
  }

  /** A copy with another example set (null: none). */
  public LlmConfig withExamples(Path file) {
    return new LlmConfig(
        endpoint,
        model,
        apiKeyEnv,
        apiKey,
        connectTimeout,
        requestTimeout,
        maxRetries,
        backoff,
        concurrency,
        maxRequestsPerDay,
        maxTokensPerDay,
        priceInputPer1k,
        priceOutputPer1k,
        file,
        k,
        confidence);
  }

  /** The cost in the configured currency of the given tokens. */
  public double cost(long promptTokens, long completionTokens) {
    return promptTokens / 1000.0 * priceInputPer1k + completionTokens / 1000.0 * priceOutputPer1k;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "LlmConfig[endpoint=%s, model=%s, apiKey=%s (from %s), timeouts=%dms/%dms, retries=%d, backoff=%dms,"
            + " concurrency=%d, budget/day=%d requests, %d tokens, price/1k=%s in, %s out, examples=%s, k=%d,"
            + " confidence=%s]",
        endpoint,
        model,
        apiKey == null ? "none" : "****",
        apiKeyEnv,
        connectTimeout.toMillis(),
        requestTimeout.toMillis(),
        maxRetries,
        backoff.toMillis(),
        concurrency,
        maxRequestsPerDay,
        maxTokensPerDay,
        priceInputPer1k,
        priceOutputPer1k,
        examples,
        k,
        confidence);
  }

  private static URI uri(String s) {
    try {
      return URI.create(s.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PREFIX + "ENDPOINT is not a URL: '" + s + "'");
    }
  }

  private static long number(Map<String, String> s, String key, long dflt) {
    String v = blankToNull(s.get(PREFIX + key));
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PREFIX + key + " must be a whole number, not '" + v + "'");
    }
  }

  private static double decimal(Map<String, String> s, String key, double dflt) {
    String v = blankToNull(s.get(PREFIX + key));
    if (v == null) {
      return dflt;
    }
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PREFIX + key + " must be a number, not '" + v + "'");
    }
  }

  private static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v;
  }

  private static void positive(Duration d, String key) {
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(PREFIX + key + " must be > 0");
    }
  }

  private static void atLeast(long v, long min, String key) {
    if (v < min) {
      throw new IllegalArgumentException(PREFIX + key + " must be >= " + min + ", not " + v);
    }
  }
}
