package dev.faultline.jobs.normalise;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.jobs.records.ReleaseEvent;
import dev.faultline.schemas.ClosingReferences;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.UsedEvent;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one delivery into the facts the pipeline uses. Pure: no Flink types. Events and actions
 * that are not in {@link UsedEvent}'s table (shared with the receiver) give no facts (they stay in
 * the raw topic); a delivery of a used event that cannot be read throws {@link
 * PoisonRecordException} with the reason, so it is dead-lettered instead of silently dropped.
 */
public final class GitHubNormaliser {
  private static final Set<String> MAINTAINER_ASSOCIATIONS =
      Set.of("OWNER", "MEMBER", "COLLABORATOR");

  /**
   * GitHub's rules: owner up to 39 characters, name up to 100, letters, digits, '-', '_' and '.'.
   */
  private static final java.util.regex.Pattern REPOSITORY =
      java.util.regex.Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}");

  private static final java.util.regex.Pattern COMMIT_SHA =
      java.util.regex.Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
  private static final java.util.regex.Pattern ISSUE_ID =
      java.util.regex.Pattern.compile(
          "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}#\\d{1,9}");

  private final ObjectMapper json;

  public GitHubNormaliser(ObjectMapper json) {
    this.json = json;
  }

  public List<GitHubEvent> normalise(Delivery delivery) throws PoisonRecordException {
    Optional<UsedEvent> event = UsedEvent.of(delivery.getEvent());
    if (event.isEmpty()) {
      return List.of();
    }
    JsonNode payload;
    try {
      payload = json.readTree(delivery.getPayloadJson());
    } catch (JsonProcessingException e) {
      throw poison(delivery, "payload is not JSON: " + e.getOriginalMessage());
    }
    if (payload == null || !payload.isObject()) {
      throw poison(delivery, "payload is not a JSON object");
    }
    String repo =
        DeliveryKey.repository(payload)
            .orElseThrow(() -> poison(delivery, "has no repository.full_name"));
    if (!REPOSITORY.matcher(repo).matches()) {
      throw poison(
          delivery, "has a repository.full_name that is not owner/name: " + abbreviate(repo));
    }
    String action = delivery.getAction() != null ? delivery.getAction() : text(payload, "action");
    if (!event.get().uses(action)) {
      return List.of();
    }
    return switch (event.get()) {
      case ISSUES -> List.of(issueFact(delivery, payload, repo, action, GitHubEvent.Type.ISSUE));
      case ISSUE_COMMENT -> comment(delivery, payload, repo, action);
      case PULL_REQUEST -> pullRequest(delivery, payload, repo, action);
      case RELEASE -> List.of(release(delivery, payload, repo, action));
    };
  }

  private GitHubEvent issueFact(
      Delivery delivery, JsonNode payload, String repo, String action, GitHubEvent.Type type)
      throws PoisonRecordException {
    JsonNode issue = payload.path("issue");
    if (!issue.isObject()) {
      throw poison(delivery, "has no issue object");
    }
    JsonNode number = issue.path("number");
    if (!number.isIntegralNumber()) {
      throw poison(delivery, "has no integer issue.number");
    }
    IssueEvent out = new IssueEvent();
    out.repo = repo;
    out.number = number.asInt();
    out.id = DeliveryKey.issueId(repo, out.number);
    out.deliveryId = delivery.getDeliveryId();
    out.event = delivery.getEvent();
    out.action = action;
    out.title = Optional.ofNullable(text(issue, "title")).orElse("");
    out.body = text(issue, "body");
    out.url =
        Optional.ofNullable(text(issue, "html_url"))
            .orElse("https://github.com/" + repo + "/issues/" + out.number);
    out.author = text(issue.path("user"), "login");
    for (JsonNode label : issue.path("labels")) {
      String name = label.isTextual() ? label.asText() : text(label, "name");
      if (name != null) {
        out.labels.add(name);
      }
    }
    out.createdAt =
        time(delivery, issue, "created_at")
            .orElseThrow(() -> poison(delivery, "has no issue.created_at"));
    out.updatedAt = time(delivery, issue, "updated_at").orElse(out.createdAt);
    out.closedAt = time(delivery, issue, "closed_at").orElse(null);
    out.comments =
        issue.path("comments").isIntegralNumber() ? issue.path("comments").asInt() : null;
    out.state = Optional.ofNullable(text(issue, "state")).orElse("open");
    if (type == GitHubEvent.Type.ISSUE && "deleted".equals(action)) {
      out.state = "deleted";
    }
    if (type == GitHubEvent.Type.ISSUE && "transferred".equals(action)) {
      JsonNode changes = payload.path("changes");
      String newRepo = text(changes.path("new_repository"), "full_name");
      JsonNode newNumber = changes.path("new_issue").path("number");
      if (newRepo != null && newNumber.isIntegralNumber()) {
        out.transferredTo = DeliveryKey.issueId(newRepo, newNumber.asInt());
        out.state = "transferred";
      }
    }
    GitHubEvent fact = fact(type, out.id, delivery, action);
    fact.issue = out;
    return fact;
  }

  private List<GitHubEvent> comment(Delivery delivery, JsonNode payload, String repo, String action)
      throws PoisonRecordException {
    if (payload.path("issue").has("pull_request")) {
      // A comment on a pull request's conversation: not an issue of ours.
      return List.of();
    }
    GitHubEvent fact = issueFact(delivery, payload, repo, action, GitHubEvent.Type.COMMENT);
    JsonNode c = payload.path("comment");
    if (!c.path("id").isIntegralNumber()) {
      throw poison(delivery, "has no integer comment.id");
    }
    CommentEvent comment = new CommentEvent();
    comment.commentId = c.path("id").asLong();
    comment.author = text(c.path("user"), "login");
    comment.maintainer =
        MAINTAINER_ASSOCIATIONS.contains(
            Optional.ofNullable(text(c, "author_association")).orElse(""));
    comment.body = Optional.ofNullable(text(c, "body")).orElse("");
    comment.createdAt = time(delivery, c, "created_at").orElse(fact.issue.updatedAt);
    comment.updatedAt = time(delivery, c, "updated_at").orElse(comment.createdAt);
    comment.deleted = "deleted".equals(action);
    fact.comment = comment;
    return List.of(fact);
  }

  private List<GitHubEvent> pullRequest(
      Delivery delivery, JsonNode payload, String repo, String action)
      throws PoisonRecordException {
    JsonNode pr = payload.path("pull_request");
    JsonNode number =
        pr.path("number").isIntegralNumber() ? pr.path("number") : payload.path("number");
    JsonNode backfill = payload.path("_backfill");
    boolean git = delivery.getSource() == DeliverySource.GIT;
    String sha = text(pr, "merge_commit_sha");
    // A commit pushed to the default branch without a pull request (git history): keyed by its sha.
    boolean directCommit =
        git && !number.isIntegralNumber() && sha != null && COMMIT_SHA.matcher(sha).matches();
    if (!pr.isObject() || !(number.isIntegralNumber() || directCommit)) {
      throw poison(delivery, "has no pull_request object with a number");
    }
    PullRequestEvent out = new PullRequestEvent();
    out.repo = repo;
    out.number = directCommit ? 0 : number.asInt();
    out.id = directCommit ? repo + "@" + sha : DeliveryKey.issueId(repo, out.number);
    out.title = Optional.ofNullable(text(pr, "title")).orElse("");
    out.body = text(pr, "body");
    out.url =
        Optional.ofNullable(text(pr, "html_url"))
            .orElse(
                "https://github.com/"
                    + repo
                    + (directCommit ? "/commit/" + sha : "/pull/" + out.number));
    out.merged = pr.path("merged").asBoolean(false);
    out.state = out.merged ? "merged" : Optional.ofNullable(text(pr, "state")).orElse("open");
    out.mergedAt = time(delivery, pr, "merged_at").orElse(null);
    out.createdAt =
        time(delivery, pr, "created_at")
            .orElseThrow(() -> poison(delivery, "has no pull_request.created_at"));
    out.updatedAt = time(delivery, pr, "updated_at").orElse(out.createdAt);
    out.sizeKnown =
        pr.path("additions").isIntegralNumber() && pr.path("deletions").isIntegralNumber();
    out.additions = pr.path("additions").asInt(0);
    out.deletions = pr.path("deletions").asInt(0);
    out.changedFiles = pr.path("changed_files").asInt(0);
    out.mergeCommitSha = sha;
    out.author = text(pr.path("user"), "login");
    out.fixes = new ArrayList<>(ClosingReferences.in(repo, out.title, out.body));
    if (git) {
      out.source = "git";
      out.changeKind = text(backfill, "change_kind");
      out.diffSummary = text(backfill, "diff_summary");
      // The reader found them in the whole commit message, as GitHub does in the title and body.
      for (JsonNode ref : backfill.path("closing_references")) {
        if (ref.isTextual()
            && ISSUE_ID.matcher(ref.asText()).matches()
            && !out.fixes.contains(ref.asText())) {
          out.fixes.add(ref.asText());
        }
      }
    }
    List<GitHubEvent> facts = new ArrayList<>();
    GitHubEvent self = fact(GitHubEvent.Type.PULL_REQUEST, out.id, delivery, action);
    self.pullRequest = out;
    facts.add(self);
    for (String issueId : out.fixes) {
      GitHubEvent link = fact(GitHubEvent.Type.FIX_LINK, issueId, delivery, action);
      link.pullRequest = out;
      facts.add(link);
    }
    return facts;
  }

  private GitHubEvent release(Delivery delivery, JsonNode payload, String repo, String action)
      throws PoisonRecordException {
    JsonNode r = payload.path("release");
    String tag = text(r, "tag_name");
    if (!r.isObject() || tag == null || tag.isBlank()) {
      throw poison(delivery, "has no release.tag_name");
    }
    ReleaseEvent out = new ReleaseEvent();
    out.repo = repo;
    out.tag = tag;
    out.version = versionOf(tag);
    out.url = text(r, "html_url");
    out.publishedAt =
        time(delivery, r, "published_at")
            .or(() -> timeOrEmpty(r, "created_at"))
            .orElseThrow(() -> poison(delivery, "has no release.published_at or created_at"));
    out.prerelease = r.path("prerelease").asBoolean(false);
    out.deleted = "deleted".equals(action);
    out.source = delivery.getSource() == DeliverySource.GIT ? "git" : "github";
    GitHubEvent fact = fact(GitHubEvent.Type.RELEASE, repo, delivery, action);
    fact.release = out;
    return fact;
  }

  /**
   * {@code v0.14.2} → {@code 0.14.2}; {@code deepspeed-v0.9.0} → {@code 0.9.0}; {@code
   * core_v0.10.0} → {@code 0.10.0} (Megatron-LM's core releases); other tags as written.
   */
  static String versionOf(String tag) {
    String t = tag.strip();
    int underscore = t.lastIndexOf("_v");
    if (underscore > 0
        && underscore + 2 < t.length()
        && Character.isDigit(t.charAt(underscore + 2))) {
      t = t.substring(underscore + 1);
    }
    int dash = t.lastIndexOf('-');
    if (dash > 0
        && dash + 1 < t.length()
        && (Character.isDigit(t.charAt(dash + 1)) || t.charAt(dash + 1) == 'v')
        && !Character.isDigit(t.charAt(0))
        && t.charAt(0) != 'v') {
      t = t.substring(dash + 1);
    }
    return t.length() > 1
            && (t.charAt(0) == 'v' || t.charAt(0) == 'V')
            && Character.isDigit(t.charAt(1))
        ? t.substring(1)
        : t;
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "… (" + s.length() + " chars)";
  }

  private static GitHubEvent fact(
      GitHubEvent.Type type, String key, Delivery delivery, String action) {
    GitHubEvent e = new GitHubEvent();
    e.type = type;
    e.key = key;
    e.deliveryId = delivery.getDeliveryId();
    e.event = delivery.getEvent();
    e.action = action;
    return e;
  }

  private static PoisonRecordException poison(Delivery delivery, String what) {
    return new PoisonRecordException(
        delivery.getEvent() + " delivery " + delivery.getDeliveryId() + " " + what);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isValueNode() && !value.isNull() ? value.asText() : null;
  }

  private static Optional<Long> timeOrEmpty(JsonNode node, String field) {
    try {
      String value = text(node, field);
      return value == null ? Optional.empty() : Optional.of(Instant.parse(value).toEpochMilli());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> time(Delivery delivery, JsonNode node, String field)
      throws PoisonRecordException {
    String value = text(node, field);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value).toEpochMilli());
    } catch (DateTimeParseException e) {
      throw poison(delivery, "has an unreadable " + field + ": " + value);
    }
  }
}
