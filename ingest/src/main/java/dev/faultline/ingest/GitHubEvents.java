package dev.faultline.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.schemas.UsedEvent;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the receiver reads from a GitHub delivery. Which events and actions are used is {@link
 * UsedEvent}'s table, shared with the pipeline's normaliser; everything else is still recorded in
 * the raw topic (downstream skips it), so a later version can use it by replaying the topic.
 */
public final class GitHubEvents {
  private static final Pattern EVENT_NAME = Pattern.compile("[a-z][a-z_]{0,63}");
  private static final Pattern ACTION_NAME = Pattern.compile("[a-z][a-z_]{0,63}");

  private GitHubEvents() {}

  /**
   * True for an event name as GitHub spells them ({@code issue_comment}); guards metric tags and
   * logs.
   */
  public static boolean isWellFormedEvent(String event) {
    return event != null && EVENT_NAME.matcher(event).matches();
  }

  /** The top-level {@code action}, when the payload has one. */
  public static Optional<String> action(JsonNode payload) {
    JsonNode action = payload.path("action");
    return action.isTextual() && !action.asText().isEmpty()
        ? Optional.of(action.asText())
        : Optional.empty();
  }

  /** A bounded tag value for metrics: the action when it looks like one, else {@code other}. */
  public static String actionTag(String action) {
    if (action == null) {
      return "none";
    }
    return ACTION_NAME.matcher(action).matches() ? action : "other";
  }

  /**
   * A bounded tag value for metrics: the event when it is one GitHub sends and we know, else {@code
   * other}.
   */
  public static String eventTag(String event) {
    if (event == null) {
      return "none";
    }
    return UsedEvent.of(event).isPresent() || KNOWN_UNUSED.contains(event) ? event : "other";
  }

  /**
   * Events GitHub sends that faultline does not use ({@code ping} is answered, never published).
   */
  private static final Set<String> KNOWN_UNUSED =
      Set.of(
          "ping",
          "label",
          "milestone",
          "pull_request_review",
          "pull_request_review_comment",
          "pull_request_review_thread",
          "push",
          "create",
          "delete",
          "fork",
          "watch",
          "star",
          "discussion",
          "discussion_comment",
          "workflow_run",
          "workflow_job",
          "check_run",
          "check_suite",
          "status",
          "sub_issues",
          "issue_dependencies",
          "member",
          "repository",
          "installation",
          "installation_repositories",
          "meta",
          "deployment",
          "deployment_status",
          "public",
          "gollum",
          "commit_comment",
          "project",
          "project_card",
          "project_column",
          "projects_v2_item");

  /**
   * When the change this delivery reports happened, from a timestamp the change itself sets ({@code
   * updated_at} of the issue, pull request or comment; a release's publication). Empty when the
   * payload has no such timestamp (labels, deletions, transfers) and for events faultline does not
   * use, in which case the delivery's age cannot be judged.
   */
  public static Optional<Instant> changedAt(String event, String action, JsonNode payload) {
    if ("deleted".equals(action) || "transferred".equals(action)) {
      // The object's timestamps need not move when it is deleted or transferred: its age says
      // nothing.
      return Optional.empty();
    }
    return UsedEvent.of(event).flatMap(used -> changedAt(used, action, payload));
  }

  /**
   * The timestamp of a used event's change. No default: a new {@link UsedEvent} does not compile
   * until it says where its change's time is (or that it has none).
   */
  private static Optional<Instant> changedAt(UsedEvent event, String action, JsonNode payload) {
    return switch (event) {
      case ISSUES -> instant(payload.path("issue").path("updated_at"));
      case ISSUE_COMMENT -> instant(payload.path("comment").path("updated_at"));
      case PULL_REQUEST -> instant(payload.path("pull_request").path("updated_at"));
      case RELEASE -> {
        Optional<Instant> updated = instant(payload.path("release").path("updated_at"));
        if (updated.isPresent() || "edited".equals(action)) {
          yield updated;
        }
        yield latest(
            instant(payload.path("release").path("published_at")),
            instant(payload.path("release").path("created_at")));
      }
    };
  }

  private static Optional<Instant> latest(Optional<Instant> a, Optional<Instant> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().isAfter(b.get()) ? a : b;
  }

  private static Optional<Instant> instant(JsonNode node) {
    if (!node.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(node.asText()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
