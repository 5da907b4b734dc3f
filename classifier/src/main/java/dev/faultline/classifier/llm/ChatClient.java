package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * An OpenAI-compatible chat-completions client ({@code POST {endpoint}/v1/chat/completions}), as
 * served by vLLM, Ollama, llama.cpp's server and hosted APIs. At most {@link
 * LlmConfig#concurrency()} requests are in flight; each has the configured timeout; 429, 5xx,
 * timeouts and I/O errors are retried with exponential backoff (honouring a {@code Retry-After} of
 * seconds); every attempt takes one request from the {@link Budget}. After {@link
 * #BREAKER_FAILURES} items failed in a row the breaker opens for {@link #BREAKER_OPEN_MILLIS} ms
 * and items fall back at once instead of waiting for a dead endpoint. Tokens are counted from the
 * reply's {@code usage}.
 */
public final class ChatClient {

  /** Consecutive failed items that open the circuit breaker. */
  public static final int BREAKER_FAILURES = 5;

  /** How long the open breaker refuses requests before letting one through again. */
  public static final long BREAKER_OPEN_MILLIS = 30_000;

  private static final long MAX_BACKOFF_MILLIS = 30_000;

  /** Waits between attempts: {@link Thread#sleep(long)}, or a test's stand-in. */
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /** A reply: the message content and the tokens the endpoint counted. */
  public record Reply(String content, long promptTokens, long completionTokens, String model) {}

  private final LlmConfig config;
  private final HttpClient http;
  private final Budget budget;
  private final LlmStats stats;
  private final Semaphore inFlight;
  private final ObjectMapper json = new ObjectMapper();
  private final AtomicInteger failedInARow = new AtomicInteger();
  private final AtomicLong openUntil = new AtomicLong();
  private final LongSupplier clock;
  private final Sleeper sleeper;

  /**
   * @param http built with {@link #httpClient(LlmConfig)} or any client; the request timeout is set
   *     per request
   */
  public ChatClient(LlmConfig config, HttpClient http, Budget budget, LlmStats stats) {
    this(config, http, budget, stats, System::currentTimeMillis, Thread::sleep);
  }

  /**
   * @param clock milliseconds since the epoch, for the circuit breaker
   * @param sleeper waits the backoff between attempts
   */
  ChatClient(
      LlmConfig config,
      HttpClient http,
      Budget budget,
      LlmStats stats,
      LongSupplier clock,
      Sleeper sleeper) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.config = Objects.requireNonNull(config, "config");
    if (!config.endpointConfigured()) {
      throw new IllegalArgumentException(
          "no endpoint configured: set " + LlmConfig.PREFIX + "ENDPOINT");
    }
    this.http = Objects.requireNonNull(http, "http");
    this.budget = Objects.requireNonNull(budget, "budget");
    this.stats = Objects.requireNonNull(stats, "stats");
    this.inFlight = new Semaphore(config.concurrency(), true);
  }

  /** An HTTP client with the configured connect timeout. */
  public static HttpClient httpClient(LlmConfig config) {
    return HttpClient.newBuilder()
        .connectTimeout(config.connectTimeout())
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  /**
   * The chat-completions request body: {@code model}, {@code messages} ({@code role}, {@code
   * content}), {@code response_format} and {@code temperature} 0. The same body goes into a Batch
   * API line.
   */
  public static ObjectNode requestBody(
      ObjectMapper json, String model, List<Prompt.Message> messages, ObjectNode responseFormat) {
    ObjectNode body = json.createObjectNode();
    body.put("model", model);
    ArrayNode ms = body.putArray("messages");
    for (Prompt.Message m : messages) {
      ms.addObject().put("role", m.role()).put("content", m.content());
    }
    body.set("response_format", responseFormat);
    body.put("temperature", 0);
    return body;
  }

  /**
   * Sends one request body (retrying as configured) and returns the reply, or throws with the
   * reason.
   */
  public Reply complete(ObjectNode body) throws LlmException {
    long now = clock.getAsLong();
    if (openUntil.get() > now) {
      stats.failures.incrementAndGet();
      throw new LlmException(
          "circuit breaker open after " + BREAKER_FAILURES + " failed requests in a row", false);
    }
    try {
      Reply r = attempt(body);
      failedInARow.set(0);
      return r;
    } catch (LlmException e) {
      stats.failures.incrementAndGet();
      if (e.endpointFault() && failedInARow.incrementAndGet() >= BREAKER_FAILURES) {
        openUntil.set(clock.getAsLong() + BREAKER_OPEN_MILLIS);
        failedInARow.set(0);
      }
      throw e;
    }
  }

  private Reply attempt(ObjectNode body) throws LlmException {
    byte[] payload = body.toString().getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(config.chatCompletions())
            .timeout(config.requestTimeout())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
    if (config.apiKey() != null) {
      rb.header("Authorization", "Bearer " + config.apiKey());
    }
    HttpRequest request = rb.build();
    String last = "no attempt";
    for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
      if (attempt > 0) {
        stats.retries.incrementAndGet();
      }
      budget.acquire();
      stats.requests.incrementAndGet();
      long started;
      HttpResponse<String> resp;
      try {
        inFlight.acquire();
        started = System.nanoTime(); // latency of the endpoint, not of the wait for a free slot
        try {
          resp = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } finally {
          inFlight.release();
        }
      } catch (HttpTimeoutException e) {
        last = "timed out after " + config.requestTimeout().toMillis() + " ms";
        backoff(attempt, 0);
        continue;
      } catch (IOException e) {
        last = "I/O error: " + e;
        backoff(attempt, 0);
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LlmException("interrupted");
      }
      int status = resp.statusCode();
      if (status == 200) {
        stats.succeeded.incrementAndGet();
        stats.latencyNanos.addAndGet(System.nanoTime() - started);
        return reply(resp.body());
      }
      last = "HTTP " + status + errorMessage(resp.body());
      if (status != 429 && status < 500) {
        throw new LlmException(last);
      }
      backoff(
          attempt, resp.headers().firstValue("Retry-After").map(ChatClient::seconds).orElse(0L));
    }
    throw new LlmException(
        last + (config.maxRetries() > 0 ? " (after " + config.maxRetries() + " retries)" : ""));
  }

  private void backoff(int attempt, long atLeastMillis) throws LlmException {
    if (attempt >= config.maxRetries()) {
      return;
    }
    long millis =
        Math.min(
            MAX_BACKOFF_MILLIS, Math.max(atLeastMillis, config.backoff().toMillis() << attempt));
    try {
      sleeper.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LlmException("interrupted");
    }
  }

  private Reply reply(String body) throws LlmException {
    JsonNode n;
    try {
      n = json.readTree(body);
    } catch (IOException e) {
      throw new LlmException("reply is not JSON");
    }
    JsonNode content = n.path("choices").path(0).path("message").path("content");
    long in = n.path("usage").path("prompt_tokens").asLong(0);
    long out = n.path("usage").path("completion_tokens").asLong(0);
    stats.promptTokens.addAndGet(in);
    stats.completionTokens.addAndGet(out);
    budget.spend(in + out);
    if (!content.isTextual()) {
      throw new LlmException("reply has no choices[0].message.content");
    }
    return new Reply(content.asText(), in, out, n.path("model").asText(""));
  }

  private String errorMessage(String body) {
    try {
      JsonNode m = json.readTree(body).path("error").path("message");
      if (m.isTextual()) {
        String s = m.asText();
        return ": " + (s.length() > 200 ? s.substring(0, 200) + "…" : s);
      }
    } catch (IOException | RuntimeException e) {
      // not a JSON error body: the status says enough
    }
    return "";
  }

  private static long seconds(String retryAfter) {
    try {
      return Long.parseLong(retryAfter.strip()) * 1000;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
