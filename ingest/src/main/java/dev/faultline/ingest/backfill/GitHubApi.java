package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small GitHub REST client: JSON pages, {@code Link} pagination, and the rate limit honoured:
 * when {@code X-RateLimit-Remaining} reaches 0 it sleeps until {@code X-RateLimit-Reset}; a 403/429
 * rate-limit answer is retried after the reset (or {@code Retry-After}); 5xx answers are retried
 * with back-off.
 */
public final class GitHubApi {
  private static final Logger LOG = LoggerFactory.getLogger(GitHubApi.class);
  private static final Pattern LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"([a-z]+)\"");
  private static final Pattern PAGE = Pattern.compile("[?&]page=(\\d+)");
  private static final int MAX_ATTEMPTS = 5;

  private final HttpClient http;
  private final URI baseUrl;
  private final String token;
  private final ObjectMapper mapper;
  private final Clock clock;
  private final Sleeper sleeper;

  /** One page: its JSON, the next page's URL and the last page number when GitHub says. */
  public record Page(JsonNode body, Optional<URI> next, Optional<Integer> lastPage, int page) {}

  /**
   * @param baseUrl {@code https://api.github.com} or a GHES / test server
   * @param token a GitHub token, or null for anonymous access (60 requests an hour)
   */
  public GitHubApi(
      HttpClient http,
      URI baseUrl,
      String token,
      ObjectMapper mapper,
      Clock clock,
      Sleeper sleeper) {
    this.http = http;
    this.baseUrl = baseUrl;
    this.token = token;
    this.mapper = mapper;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** {@code path} (with query) relative to the base URL. */
  public URI resolve(String pathAndQuery) {
    String base = baseUrl.toString().replaceAll("/+$", "");
    return URI.create(base + pathAndQuery);
  }

  public Page get(URI url) throws IOException, InterruptedException {
    Duration backoff = Duration.ofSeconds(1);
    for (int attempt = 1; ; attempt++) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(url)
              .timeout(Duration.ofSeconds(60))
              .header("Accept", "application/vnd.github+json")
              .header("X-GitHub-Api-Version", "2022-11-28")
              .header("User-Agent", "faultline-backfill");
      if (token != null && !token.isBlank()) {
        request.header("Authorization", "Bearer " + token);
      }
      HttpResponse<byte[]> response =
          http.send(request.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
      int status = response.statusCode();
      Optional<Long> remaining = header(response, "X-RateLimit-Remaining");
      Optional<Long> reset = header(response, "X-RateLimit-Reset");
      if ((status == 403 || status == 429)
          && (remaining.orElse(-1L) == 0 || header(response, "Retry-After").isPresent())) {
        Duration wait =
            header(response, "Retry-After")
                .map(Duration::ofSeconds)
                .orElseGet(() -> untilReset(reset.orElse(0L)));
        LOG.info("GitHub rate limit reached; waiting {} s before retrying", wait.toSeconds());
        sleeper.sleep(wait);
        continue;
      }
      if (status >= 500 && attempt < MAX_ATTEMPTS) {
        LOG.warn(
            "GitHub answered {} for {}; retrying in {} s",
            status,
            url.getPath(),
            backoff.toSeconds());
        sleeper.sleep(backoff);
        backoff = backoff.multipliedBy(2);
        continue;
      }
      if (status == 401) {
        throw new IOException("GitHub refused the token (401): set GITHUB_TOKEN to a valid token");
      }
      if (status == 404) {
        throw new IOException(
            "GitHub has no "
                + url.getPath()
                + " (404): check the repository name and that"
                + " GITHUB_TOKEN can read it");
      }
      if (status / 100 != 2) {
        throw new IOException("GitHub answered " + status + " for " + url.getPath());
      }
      JsonNode body = mapper.readTree(response.body());
      String link = response.headers().firstValue("Link").orElse("");
      Optional<URI> next = Optional.empty();
      Optional<Integer> last = Optional.empty();
      Matcher m = LINK.matcher(link);
      while (m.find()) {
        if (m.group(2).equals("next")) {
          next = Optional.of(URI.create(m.group(1)));
        } else if (m.group(2).equals("last")) {
          last = pageOf(m.group(1));
        }
      }
      if (remaining.orElse(-1L) == 0 && next.isPresent()) {
        Duration wait = untilReset(reset.orElse(0L));
        LOG.info("GitHub rate limit used up; waiting {} s for the reset", wait.toSeconds());
        sleeper.sleep(wait);
      }
      return new Page(body, next, last, pageOf(url.toString()).orElse(1));
    }
  }

  private Duration untilReset(long resetEpochSeconds) {
    Duration d =
        Duration.between(clock.instant(), Instant.ofEpochSecond(resetEpochSeconds)).plusSeconds(1);
    return d.isNegative() ? Duration.ofSeconds(1) : d;
  }

  private static Optional<Integer> pageOf(String url) {
    Matcher m = PAGE.matcher(url);
    return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  private static Optional<Long> header(HttpResponse<?> response, String name) {
    try {
      return response.headers().firstValue(name).map(String::trim).map(Long::parseLong);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
