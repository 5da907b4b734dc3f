package dev.faultline.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.Optional;
import java.util.Set;

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

  /**
   * Deliveries of events faultline does not use that are about one pull request: keyed by it, so
   * they stay in order with the pull request's own events on the raw topic (for a later version).
   */
  private static final Set<String> UNUSED_PULL_REQUEST_EVENTS =
      Set.of("pull_request_review", "pull_request_review_comment");

  /** The issue or pull request number the payload is about, when it is about one. */
  public static Optional<Integer> number(String event, JsonNode payload) {
    JsonNode node =
        UsedEvent.of(event)
            .map(used -> numberNode(used, payload))
            .orElseGet(
                () ->
                    UNUSED_PULL_REQUEST_EVENTS.contains(event)
                        ? pullRequestNumber(payload)
                        : MissingNode.getInstance());
    return node.canConvertToInt() && node.isIntegralNumber()
        ? Optional.of(node.asInt())
        : Optional.empty();
  }

  /**
   * Where a used event names its issue or pull request (a missing node: repository-wide). No
   * default: a new {@link UsedEvent} does not compile until it is keyed here.
   */
  private static JsonNode numberNode(UsedEvent event, JsonNode payload) {
    return switch (event) {
      case ISSUES, ISSUE_COMMENT -> payload.path("issue").path("number");
      case PULL_REQUEST -> pullRequestNumber(payload);
      case RELEASE -> MissingNode.getInstance();
    };
  }

  private static JsonNode pullRequestNumber(JsonNode payload) {
    return payload.path("pull_request").path("number").isMissingNode()
        ? payload.path("number")
        : payload.path("pull_request").path("number");
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
