package dev.faultline.classifier.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.LinkedPullRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a batch record ({@code url, repo, number, title, state, labels, text}) into an {@link
 * IssueText}. The {@code text} layout is the one of the eval README: a header line, an optional
 * {@code labels:} line, {@code # title}, then posts each opened by {@code author ·
 * description|comment|review · date}, possibly starting mid-thread with {@code [turn N by author,
 * continued]}.
 */
public final class ThreadText {

  private static final Pattern POST =
      Pattern.compile("^(\\S+) · (description|comment|review) · \\d{4}-\\d{2}-\\d{2}\\s*$");
  private static final Pattern CONTINUED =
      Pattern.compile("^\\[turn (\\d+) by (\\S+), continued\\]\\s*$");

  private ThreadText() {}

  /** The issue of a batch record (missing fields empty, number 0). */
  public static IssueText ofRecord(JsonNode r) {
    List<String> labels = new ArrayList<>();
    r.path("labels").forEach(l -> labels.add(l.asText()));
    return parse(
        r.path("url").asText(""),
        r.path("repo").asText(""),
        r.path("number").asInt(0),
        r.path("title").asText(""),
        r.path("state").asText(""),
        labels,
        r.path("text").asText(""));
  }

  public static IssueText parse(
      String url,
      String repo,
      int number,
      String title,
      String state,
      List<String> labels,
      String text) {
    boolean pullRequest = url != null && url.contains("/pull/");
    String body = "";
    List<Comment> comments = new ArrayList<>();
    String reporter = null;
    String author = null;
    String kind = null;
    StringBuilder cur = new StringBuilder();
    String[] lines = text == null ? new String[0] : text.split("\n", -1);
    int i = 0;
    if (i < lines.length && lines[i].contains(" · ") && !POST.matcher(lines[i]).matches()) {
      i++; // header line
    }
    if (i < lines.length && lines[i].startsWith("labels:")) {
      i++;
    }
    if (i < lines.length && lines[i].startsWith("# ")) {
      i++;
    }
    List<String[]> posts = new ArrayList<>(); // author, kind, text
    for (; i < lines.length; i++) {
      String line = lines[i];
      Matcher p = POST.matcher(line);
      Matcher c = CONTINUED.matcher(line);
      if (p.matches() || c.matches()) {
        if (kind != null || !cur.toString().isBlank()) {
          posts.add(new String[] {author, kind, cur.toString().strip()});
        }
        cur.setLength(0);
        if (p.matches()) {
          author = p.group(1);
          kind = p.group(2);
        } else {
          author = c.group(2);
          kind = "0".equals(c.group(1)) ? "description" : "comment";
        }
        continue;
      }
      cur.append(line).append('\n');
    }
    if (kind != null || !cur.toString().isBlank()) {
      posts.add(new String[] {author, kind, cur.toString().strip()});
    }
    boolean haveBody = false;
    boolean anyDescription =
        posts.stream().anyMatch(p -> p[1] == null || "description".equals(p[1]));
    for (String[] post : posts) {
      // an excerpt that starts mid-thread: its first post stands in for the opening post
      if (!haveBody && (!anyDescription || post[1] == null || "description".equals(post[1]))) {
        body = post[2];
        reporter = post[0];
        haveBody = true;
      } else {
        comments.add(new Comment(post[0], false, post[2]));
      }
    }
    List<LinkedPullRequest> prs = List.of();
    String st = state;
    if (pullRequest) {
      st = "merged".equalsIgnoreCase(state) ? "merged" : state;
    }
    return new IssueText(repo, number, title, body, labels, comments, prs, st);
  }
}
