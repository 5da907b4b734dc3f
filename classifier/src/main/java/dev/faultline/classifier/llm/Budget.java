package dev.faultline.classifier.llm;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * The daily request and token budget of one process, by UTC day: a request is refused once the
 * day's requests or tokens reached their limit. Tokens are known only after a reply, so the last
 * request of a day may overshoot the token limit by one reply. Thread-safe. Not shared between
 * processes: each CLI run or task manager has its own.
 */
public final class Budget {

  private final long maxRequests;
  private final long maxTokens;
  private final Clock clock;
  private LocalDate day;
  private long requests;
  private long tokens;

  public Budget(long maxRequestsPerDay, long maxTokensPerDay, Clock clock) {
    this.maxRequests = maxRequestsPerDay;
    this.maxTokens = maxTokensPerDay;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Takes one request from today's budget; refuses with the reason once it is spent. */
  public synchronized void acquire() throws LlmException {
    roll();
    if (requests >= maxRequests) {
      throw new LlmException(
          "daily request budget of "
              + maxRequests
              + " reached (FAULTLINE_LLM_MAX_REQUESTS_PER_DAY)",
          false);
    }
    if (tokens >= maxTokens) {
      throw new LlmException(
          "daily token budget of " + maxTokens + " reached (FAULTLINE_LLM_MAX_TOKENS_PER_DAY)",
          false);
    }
    requests++;
  }

  /** Counts the tokens of a reply. */
  public synchronized void spend(long n) {
    roll();
    tokens += n;
  }

  private void roll() {
    LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
    if (!today.equals(day)) {
      day = today;
      requests = 0;
      tokens = 0;
    }
  }
}
