package dev.faultline.classifier.llm;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of the language-model tier, thread-safe: HTTP requests (every attempt, retries
 * included), tokens as the endpoint reports them in {@code usage}, cache hits, answers given,
 * fallbacks to the offline tier, failed requests and the total latency of successful ones.
 */
public final class LlmStats {
  final AtomicLong requests = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong failures = new AtomicLong();
  final AtomicLong promptTokens = new AtomicLong();
  final AtomicLong completionTokens = new AtomicLong();
  final AtomicLong latencyNanos = new AtomicLong();
  final AtomicLong succeeded = new AtomicLong();
  final AtomicLong cacheHits = new AtomicLong();
  final AtomicLong answered = new AtomicLong();
  final AtomicLong fallbacks = new AtomicLong();

  /** HTTP requests sent, retries included. */
  public long requests() {
    return requests.get();
  }

  /** Of {@link #requests()}, the retries. */
  public long retries() {
    return retries.get();
  }

  /**
   * Requests that failed for good (after their retries) or were refused by the budget or the
   * circuit breaker.
   */
  public long failures() {
    return failures.get();
  }

  public long promptTokens() {
    return promptTokens.get();
  }

  public long completionTokens() {
    return completionTokens.get();
  }

  /** Items answered from the cache without a request. */
  public long cacheHits() {
    return cacheHits.get();
  }

  /** Items labelled by the model (from the cache or the endpoint). */
  public long answered() {
    return answered.get();
  }

  /** Items that kept the offline tier's labels. */
  public long fallbacks() {
    return fallbacks.get();
  }

  /** Mean latency of successful requests in milliseconds (NaN when there were none). */
  public double meanLatencyMillis() {
    long n = succeeded.get();
    return n == 0 ? Double.NaN : latencyNanos.get() / 1e6 / n;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d requests (%d retries, %d failed), %d prompt + %d completion tokens, %d cache hits, %d answered,"
            + " %d fallbacks, mean latency %.0f ms",
        requests(),
        retries(),
        failures(),
        promptTokens(),
        completionTokens(),
        cacheHits(),
        answered(),
        fallbacks(),
        meanLatencyMillis());
  }
}
