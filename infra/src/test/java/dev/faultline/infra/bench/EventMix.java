package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Synthetic webhook deliveries of one repository in the mix of event types a busy repository's
 * issue tracker sends: mostly comments and edits, some new issues and pull requests. Invented texts
 * ({@link SyntheticIssues}), no real issue copied.
 *
 * <p>The mix per new issue (1 opened : 5 comments : 2 issue edits : 1 pull request, so 11% / 56% /
 * 22% / 11%) is an assumption, not a measurement: this machine reaches neither GH Archive nor the
 * GitHub API, and the shared webhook fixtures hold one example per action, no frequencies. It
 * follows the shape of an issue's life (opened, a thread of comments, a few label or state changes,
 * a fix); the benchmark also reports each type's cost apart, so any other mix can be recomputed.
 *
 * <p>Every delivery carries a distinct, increasing event time (the issue's {@code updated_at}, the
 * comment's or pull request's too), so its effect is visible in the graph once the issue's {@code
 * stateVersion} reaches it.
 */
public final class EventMix {
  /** What a delivery is, for the per-type figures. */
  public enum Kind {
    OPENED,
    COMMENT,
    EDIT,
    PULL_REQUEST;

    public String label() {
      return name().toLowerCase(Locale.ROOT).replace("pull_request", "pr");
    }
  }

  /** Cumulative shares of opened, comment, edit; the rest are pull requests. */
  private static final double[] CUMULATIVE = {1 / 9.0, 6 / 9.0, 8 / 9.0};

  /** Issues a comment, edit or fix lands on: the newest ones, as in a live tracker. */
  private static final int ACTIVE_ISSUES = 200;

  /** One delivery, with the issue whose state it changes and the event time it carries. */
  public record Mixed(Kind kind, int issue, long eventTime, Delivery delivery) {
    public byte[] payloadBytes() {
      return delivery.getPayloadJson().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private final ObjectMapper json = new ObjectMapper();
  private final String repo;
  private final Random random;
  private final SyntheticIssues text;
  private final long start;
  private final List<IssueState> issues = new ArrayList<>();
  private int firstNumber;
  private long clock;

  private static final class IssueState {
    final int number;
    final String title;
    String body;
    final long createdAt;
    boolean closed;
    int labels;

    IssueState(int number, String title, String body, long createdAt) {
      this.number = number;
      this.title = title;
      this.body = body;
      this.createdAt = createdAt;
    }
  }

  /**
   * @param firstNumber issues are numbered from {@code firstNumber + 1}
   */
  public EventMix(String repo, long seed, int firstNumber) {
    this.repo = repo;
    this.random = new Random(seed);
    this.text = new SyntheticIssues(seed);
    this.firstNumber = firstNumber;
    this.start = Instant.parse("2024-05-01T00:00:00Z").toEpochMilli();
  }

  /** The next {@code count} deliveries of the mix (the first is always an opened issue). */
  public List<Mixed> next(int count) {
    List<Mixed> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(next(kindFor(random.nextDouble())));
    }
    return out;
  }

  /** The next delivery of {@code kind} (an opened issue when there is none to act on yet). */
  public Mixed next(Kind kind) {
    clock += 1000;
    if (kind == Kind.OPENED || issues.isEmpty()) {
      return opened();
    }
    int from = Math.max(0, issues.size() - ACTIVE_ISSUES);
    IssueState issue = issues.get(from + random.nextInt(issues.size() - from));
    return switch (kind) {
      case COMMENT -> comment(issue);
      case EDIT -> edit(issue);
      default -> pullRequest(issue);
    };
  }

  private static Kind kindFor(double u) {
    if (u < CUMULATIVE[0]) {
      return Kind.OPENED;
    }
    if (u < CUMULATIVE[1]) {
      return Kind.COMMENT;
    }
    return u < CUMULATIVE[2] ? Kind.EDIT : Kind.PULL_REQUEST;
  }

  private Mixed opened() {
    long now = start + clock;
    IssueState issue = new IssueState(++firstNumber, text.title(), text.body(1_500), now);
    issues.add(issue);
    ObjectNode payload = payload("opened", issue, now);
    return mixed(Kind.OPENED, "issues", "opened", issue, now, payload);
  }

  private Mixed comment(IssueState issue) {
    long now = start + clock;
    ObjectNode payload = payload("created", issue, now);
    ObjectNode comment = payload.putObject("comment");
    comment.put("id", 1_000_000_000L + clock / 1000);
    comment.put("body", text.body(200 + random.nextInt(400)));
    comment.put("created_at", Instant.ofEpochMilli(now).toString());
    comment.put("updated_at", Instant.ofEpochMilli(now).toString());
    comment.put("author_association", random.nextInt(3) == 0 ? "MEMBER" : "NONE");
    comment.putObject("user").put("login", "user" + random.nextInt(500));
    return mixed(Kind.COMMENT, "issue_comment", "created", issue, now, payload);
  }

  /** Half label changes, a quarter closed or reopened, a quarter body edits. */
  private Mixed edit(IssueState issue) {
    long now = start + clock;
    int which = random.nextInt(4);
    String action;
    if (which < 2) {
      issue.labels++;
      action = "labeled";
    } else if (which == 2) {
      issue.closed = !issue.closed;
      action = issue.closed ? "closed" : "reopened";
    } else {
      issue.body = issue.body + "\nEdit: " + text.body(100);
      action = "edited";
    }
    return mixed(Kind.EDIT, "issues", action, issue, now, payload(action, issue, now));
  }

  private Mixed pullRequest(IssueState issue) {
    long now = start + clock;
    ObjectNode payload = json.createObjectNode();
    payload.put("action", "opened");
    int number = 500_000 + (int) (clock / 1000);
    payload.put("number", number);
    ObjectNode pr = payload.putObject("pull_request");
    pr.put("number", number);
    pr.put("title", "Fix " + issue.title.toLowerCase(Locale.ROOT));
    pr.put("body", "Fixes #" + issue.number + "\n\n" + text.body(300));
    pr.put("state", "open");
    pr.put("merged", false);
    pr.put("additions", 1 + random.nextInt(200));
    pr.put("deletions", random.nextInt(100));
    pr.put("changed_files", 1 + random.nextInt(5));
    pr.put("created_at", Instant.ofEpochMilli(now).toString());
    pr.put("updated_at", Instant.ofEpochMilli(now).toString());
    pr.putObject("user").put("login", "user" + random.nextInt(500));
    pr.put("html_url", "https://github.com/" + repo + "/pull/" + number);
    payload.putObject("repository").put("full_name", repo);
    return mixed(Kind.PULL_REQUEST, "pull_request", "opened", issue, now, payload);
  }

  private ObjectNode payload(String action, IssueState issue, long now) {
    ObjectNode payload = json.createObjectNode();
    payload.put("action", action);
    ObjectNode node = payload.putObject("issue");
    node.put("number", issue.number);
    node.put("title", issue.title);
    node.put("body", issue.body);
    node.put("state", issue.closed ? "closed" : "open");
    node.put("created_at", Instant.ofEpochMilli(issue.createdAt).toString());
    node.put("updated_at", Instant.ofEpochMilli(now).toString());
    if (issue.closed) {
      node.put("closed_at", Instant.ofEpochMilli(now).toString());
    }
    var labels = node.putArray("labels");
    for (int l = 0; l < issue.labels; l++) {
      labels.addObject().put("name", "label-" + l);
    }
    node.putObject("user").put("login", "reporter" + issue.number % 97);
    payload.putObject("repository").put("full_name", repo);
    return payload;
  }

  private Mixed mixed(
      Kind kind, String event, String action, IssueState issue, long now, ObjectNode payload) {
    Delivery d =
        new Delivery(
            UUID.randomUUID().toString(),
            event,
            action,
            repo,
            Instant.now(),
            DeliverySource.WEBHOOK,
            payload.toString());
    return new Mixed(kind, issue.number, now, d);
  }
}
