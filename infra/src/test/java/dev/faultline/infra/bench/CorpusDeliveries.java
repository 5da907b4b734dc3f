package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The labelled corpus ({@code ../shared/eval/dev.jsonl}, {@code ../shared/train/issues.jsonl} and
 * {@code changes.jsonl}) as the GitHub webhook deliveries that would have produced it, read at run
 * time only: an issue becomes {@code issues/opened} (title, labels, its opening post as the body,
 * dated by the post), one {@code issue_comment/created} per later post and {@code issues/closed}
 * when it is closed; a merged change becomes {@code pull_request/closed} with {@code merged: true},
 * its description as the body (so GitHub's closing keywords in it link it to the issue it fixes)
 * and its size from the {@code changed files:} list. The excerpts do not say who maintains a
 * repository: every comment is sent with {@code author_association: NONE}.
 */
final class CorpusDeliveries {
  /** One signed delivery's event, id and payload. */
  record Delivery(String event, String id, byte[] body, long changedAt) {}

  /** An item's deliveries, in order, and the issue or PR id it makes. */
  record Item(String id, boolean pullRequest, List<Delivery> deliveries) {
    long lastChange() {
      return deliveries.get(deliveries.size() - 1).changedAt();
    }
  }

  private record Post(String author, String kind, LocalDate date, String text) {}

  private static final Pattern POST =
      Pattern.compile("^(\\S+) · (description|comment|review) · (\\d{4}-\\d{2}-\\d{2})\\s*$");
  private static final Pattern CONTINUED =
      Pattern.compile("^\\[turn (\\d+) by (\\S+), continued\\]\\s*$");
  private static final Pattern CHANGED_FILE = Pattern.compile("^\\S.*\\+(\\d+)-(\\d+)\\s*$");

  /** When an excerpt dates none of its posts. */
  private static final LocalDate UNDATED = LocalDate.of(2023, 1, 1);

  private final ObjectMapper json;

  CorpusDeliveries(ObjectMapper json) {
    this.json = json;
  }

  /**
   * The deliveries of one record of the corpus; empty for a change pushed without a pull request
   * (no number: a webhook cannot carry it, only {@code backfill git} can).
   */
  java.util.Optional<Item> of(JsonNode r) {
    String repo = r.path("repo").asText();
    int number = r.path("number").asInt();
    String id = repo + "#" + number;
    List<Post> posts = posts(r.path("text").asText(""));
    boolean change = r.has("sha") || r.path("url").asText("").contains("/pull/");
    if (change && number <= 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        change
            ? new Item(id, true, List.of(pullRequest(r, repo, number, posts)))
            : issue(r, posts));
  }

  /**
   * The deliveries of one issue of the corpus opened on {@code openedOn}: as {@link #of}, every
   * post's day moved by the same number of days, but none after the end of the opening year (a
   * benchmark that dates its issues itself; a later post would be dated in the future, and Kafka
   * rejects records from the future).
   */
  Item issueOpenedOn(JsonNode r, LocalDate openedOn) {
    List<Post> posts = posts(r.path("text").asText(""));
    long shift = openedOn.toEpochDay() - opened(posts).toEpochDay();
    LocalDate last = openedOn.withDayOfYear(openedOn.lengthOfYear());
    List<Post> moved = new ArrayList<>();
    for (Post p : posts) {
      LocalDate d = p.date() == null ? null : p.date().plusDays(shift);
      moved.add(new Post(p.author(), p.kind(), d != null && d.isAfter(last) ? last : d, p.text()));
    }
    return issue(r, moved, openedOn);
  }

  private Item issue(JsonNode r, List<Post> posts) {
    return issue(r, posts, opened(posts));
  }

  private Item issue(JsonNode r, List<Post> posts, LocalDate opened) {
    String repo = r.path("repo").asText();
    int number = r.path("number").asInt();
    Post first = posts.isEmpty() ? new Post("reporter", "description", opened, "") : posts.get(0);
    List<Delivery> out = new ArrayList<>();
    long t = millis(opened, 0);
    ObjectNode issue = issueNode(r, repo, number, first, t, posts.size() - 1);
    out.add(delivery("issues", "opened", repo, issue, null, t));
    for (int k = 1; k < posts.size(); k++) {
      Post p = posts.get(k);
      long at = Math.max(t + 1000, millis(p.date() == null ? opened : p.date(), k));
      t = at;
      ObjectNode updated = issue.deepCopy();
      updated.put("updated_at", iso(at));
      ObjectNode comment = json.createObjectNode();
      comment.put("id", (long) number * 1000 + k);
      comment.putObject("user").put("login", p.author());
      comment.put("author_association", "NONE");
      comment.put("body", p.text());
      comment.put("created_at", iso(at));
      comment.put("updated_at", iso(at));
      out.add(delivery("issue_comment", "created", repo, updated, comment, at));
    }
    if ("closed".equals(r.path("state").asText())) {
      long at = t + 86_400_000L;
      ObjectNode closed = issue.deepCopy();
      closed.put("state", "closed");
      closed.put("updated_at", iso(at));
      closed.put("closed_at", iso(at));
      out.add(delivery("issues", "closed", repo, closed, null, at));
    }
    return new Item(repo + "#" + number, false, out);
  }

  private ObjectNode issueNode(
      JsonNode r, String repo, int number, Post first, long t, int comments) {
    ObjectNode issue = json.createObjectNode();
    issue.put("number", number);
    issue.put("title", r.path("title").asText(""));
    issue.put("body", first.text());
    issue.put("state", "open");
    issue.put("html_url", r.path("url").asText("https://github.com/" + repo + "/issues/" + number));
    issue.putObject("user").put("login", first.author());
    ArrayNode labels = issue.putArray("labels");
    r.path("labels").forEach(l -> labels.addObject().put("name", l.asText()));
    issue.put("created_at", iso(t));
    issue.put("updated_at", iso(t));
    issue.put("comments", Math.max(0, comments));
    return issue;
  }

  private Delivery pullRequest(JsonNode r, String repo, int number, List<Post> posts) {
    LocalDate date =
        r.hasNonNull("date") ? LocalDate.parse(r.path("date").asText().substring(0, 10)) : null;
    if (date == null) {
      date = opened(posts);
    }
    long t = millis(date, 0);
    StringBuilder body = new StringBuilder();
    posts.forEach(p -> body.append(p.text()).append('\n'));
    int additions = 0;
    int deletions = 0;
    int files = 0;
    for (String line : r.path("text").asText("").split("\n")) {
      Matcher m = CHANGED_FILE.matcher(line);
      if (m.matches()) {
        additions += Integer.parseInt(m.group(1));
        deletions += Integer.parseInt(m.group(2));
        files++;
      }
    }
    ObjectNode pr = json.createObjectNode();
    pr.put("number", number);
    pr.put("title", r.path("title").asText(""));
    pr.put("body", body.toString().strip());
    pr.put("state", "open".equals(r.path("state").asText()) ? "open" : "closed");
    boolean merged = "merged".equals(r.path("state").asText());
    pr.put("merged", merged);
    pr.put("html_url", r.path("url").asText());
    pr.putObject("user").put("login", posts.isEmpty() ? "author" : posts.get(0).author());
    pr.put("created_at", iso(t));
    pr.put("updated_at", iso(t + 3_600_000L));
    pr.put("closed_at", iso(t + 3_600_000L));
    if (merged) {
      pr.put("merged_at", iso(t + 3_600_000L));
    }
    pr.put("additions", additions);
    pr.put("deletions", deletions);
    pr.put("changed_files", files);
    ObjectNode payload = json.createObjectNode();
    payload.put("action", "closed");
    payload.put("number", number);
    payload.set("pull_request", pr);
    payload.set("repository", repository(repo));
    return new Delivery("pull_request", guid(repo + " pr " + number), bytes(payload), t);
  }

  private Delivery delivery(
      String event, String action, String repo, ObjectNode issue, ObjectNode comment, long at) {
    ObjectNode payload = json.createObjectNode();
    payload.put("action", action);
    payload.set("issue", issue);
    if (comment != null) {
      payload.set("comment", comment);
    }
    payload.set("repository", repository(repo));
    String id =
        "bench-"
            + repo
            + "-"
            + issue.path("number").asInt()
            + "-"
            + event
            + "-"
            + action
            + "-"
            + at;
    return new Delivery(event, id.replace('/', '-'), bytes(payload), at);
  }

  /**
   * A delivery GUID that names the same delivery on every run (so a second load is deduplicated).
   */
  private static String guid(String name) {
    return java.util.UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }

  private ObjectNode repository(String repo) {
    ObjectNode r = json.createObjectNode();
    r.put("full_name", repo);
    r.put("name", repo.substring(repo.indexOf('/') + 1));
    r.putObject("owner").put("login", repo.substring(0, repo.indexOf('/')));
    return r;
  }

  private byte[] bytes(ObjectNode payload) {
    try {
      return json.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The excerpt's posts in order: the header, labels and title lines dropped. */
  private static List<Post> posts(String text) {
    List<Post> posts = new ArrayList<>();
    String author = null;
    String kind = null;
    LocalDate date = null;
    StringBuilder cur = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      Matcher p = POST.matcher(line);
      Matcher c = CONTINUED.matcher(line);
      if (p.matches() || c.matches()) {
        if (kind != null) {
          posts.add(new Post(author, kind, date, cur.toString().strip()));
        }
        cur.setLength(0);
        author = p.matches() ? p.group(1) : c.group(2);
        kind = p.matches() ? p.group(2) : "0".equals(c.group(1)) ? "description" : "comment";
        date = p.matches() ? LocalDate.parse(p.group(3)) : null;
      } else if (kind != null) {
        cur.append(line).append('\n');
      }
    }
    if (kind != null) {
      posts.add(new Post(author, kind, date, cur.toString().strip()));
    }
    return posts;
  }

  /** The opening post's date, else the day before the first dated post, else {@link #UNDATED}. */
  private static LocalDate opened(List<Post> posts) {
    for (Post p : posts) {
      if (p.date() != null) {
        return "description".equals(p.kind()) ? p.date() : p.date().minusDays(1);
      }
    }
    return UNDATED;
  }

  /** Noon of the day, plus {@code k} minutes so posts of one day keep their order. */
  private static long millis(LocalDate d, int k) {
    return d.atTime(12, 0).toInstant(ZoneOffset.UTC).toEpochMilli() + k * 60_000L;
  }

  private static String iso(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
