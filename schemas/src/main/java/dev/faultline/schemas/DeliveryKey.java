package dev.faultline.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The Kafka key of a delivery: {@code owner/repo#number} for anything about one issue or pull
 * request, so all events of one issue stay ordered in one partition; {@code owner/repo} for
 * repository-wide events (releases, labels).
 */
public final class DeliveryKey {
  private DeliveryKey() {}

  /** The repository's {@code owner/repo}, when the payload names one. */
  public static Optional<String> repository(JsonNode payload) {
    JsonNode fullName = payload.path("repository").path("full_name");
    return fullName.isTextual() && !fullName.asText().isBlank()
        ? Optional.of(fullName.asText())
        : Optional.empty();
  }

  /** The issue or pull request number the payload is about, when it is about one. */
  public static Optional<Integer> number(String event, JsonNode payload) {
    JsonNode node =
        switch (event) {
          case "issues", "issue_comment" -> payload.path("issue").path("number");
          case "pull_request", "pull_request_review", "pull_request_review_comment" ->
              payload.path("pull_request").path("number").isMissingNode()
                  ? payload.path("number")
                  : payload.path("pull_request").path("number");
          default -> payload.path("__none__");
        };
    return node.canConvertToInt() && node.isIntegralNumber()
        ? Optional.of(node.asInt())
        : Optional.empty();
  }

  /**
   * {@code owner/repo#n}, {@code owner/repo}, or {@code event} alone for deliveries without a
   * repository (ping).
   */
  public static String of(String event, JsonNode payload) {
    Optional<String> repo = repository(payload);
    if (repo.isEmpty()) {
      return event;
    }
    return number(event, payload).map(n -> issueId(repo.get(), n)).orElse(repo.get());
  }

  /** The id of an issue or pull request: {@code owner/repo#n}. */
  public static String issueId(String repository, int number) {
    return repository + "#" + number;
  }
}
