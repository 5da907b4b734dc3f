package dev.faultline.schemas;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one table of the GitHub events and actions faultline uses: those the issue pipeline's
 * normaliser turns into records. The receiver answers them 200 {@code accepted} ({@code used:
 * true}) and every other event or action 202 {@code recorded} ({@code used: false}); both are
 * published to the raw topic, so a later version can use more by replaying it. The normaliser reads
 * nothing else, and the GH Archive backfill keeps only these events.
 *
 * <p>A new GitHub event is a new row here; the exhaustive {@code switch}es over this enum (the
 * normaliser's, {@link DeliveryKey#number}'s and the receiver's {@code GitHubEvents.changedAt})
 * then do not compile until they read, key and date the event.
 */
public enum UsedEvent {
  ISSUES("issues", "IssuesEvent"),
  ISSUE_COMMENT("issue_comment", "IssueCommentEvent"),
  /** The actions that change what the graph knows of a pull request. */
  PULL_REQUEST(
      "pull_request",
      "PullRequestEvent",
      "opened",
      "edited",
      "closed",
      "reopened",
      "synchronize",
      "ready_for_review"),
  RELEASE("release", "ReleaseEvent");

  private final String eventName;
  private final String archiveType;
  private final Set<String> actions;

  /** No actions listed: every action of the event is used. */
  UsedEvent(String eventName, String archiveType, String... actions) {
    this.eventName = eventName;
    this.archiveType = archiveType;
    this.actions = Set.of(actions);
  }

  /** The event's name as GitHub sends it in {@code X-GitHub-Event} ({@code issue_comment}). */
  public String eventName() {
    return eventName;
  }

  /** The event's type in GH Archive's files ({@code IssueCommentEvent}). */
  public String archiveType() {
    return archiveType;
  }

  /** The used actions; empty when every action is used. */
  public Set<String> actions() {
    return actions;
  }

  /** True when this event's {@code action} (null: the payload has none) is used. */
  public boolean uses(String action) {
    return actions.isEmpty() || (action != null && actions.contains(action));
  }

  /** The row of a GitHub event name, if faultline uses the event at all. */
  public static Optional<UsedEvent> of(String eventName) {
    return Arrays.stream(values()).filter(e -> e.eventName.equals(eventName)).findFirst();
  }

  /** The row of a GH Archive event type, if faultline uses the event at all. */
  public static Optional<UsedEvent> ofArchiveType(String archiveType) {
    return Optional.ofNullable(archiveType == null ? null : ByArchiveType.MAP.get(archiveType));
  }

  /** The rows by GH Archive type, built once (the backfill looks one up per archived event). */
  private static final class ByArchiveType {
    private static final Map<String, UsedEvent> MAP =
        Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(UsedEvent::archiveType, e -> e));
  }

  /** True when faultline uses this event and action. */
  public static boolean isUsed(String eventName, String action) {
    return of(eventName).map(e -> e.uses(action)).orElse(false);
  }
}
