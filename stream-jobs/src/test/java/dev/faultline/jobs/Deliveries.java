package dev.faultline.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.time.Instant;
import java.util.UUID;

/** GitHub-shaped deliveries written for the tests (not copies of real payloads). */
final class Deliveries {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Deliveries() {}

  static Delivery issue(
      String repo,
      int number,
      String action,
      String title,
      String body,
      String state,
      String updatedAt,
      String... labels) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", action);
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", title);
    issue.put("body", body);
    issue.put("state", state);
    issue.put("html_url", "https://github.com/" + repo + "/issues/" + number);
    issue.putObject("user").put("login", "reporter");
    ArrayNode labelNodes = issue.putArray("labels");
    for (String label : labels) {
      labelNodes.addObject().put("name", label);
    }
    issue.put("created_at", "2024-02-01T10:00:00Z");
    issue.put("updated_at", updatedAt);
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", repo);
    return delivery("issues", action, repo, payload);
  }

  static Delivery comment(
      String repo, int number, long commentId, String body, String association, String at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "created");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", "t");
    issue.put("state", "open");
    issue.put("created_at", "2024-02-01T10:00:00Z");
    issue.put("updated_at", at);
    ObjectNode comment = payload.putObject("comment");
    comment.put("id", commentId);
    comment.put("body", body);
    comment.put("author_association", association);
    comment.putObject("user").put("login", "maintainer");
    comment.put("created_at", at);
    comment.put("updated_at", at);
    payload.putObject("repository").put("full_name", repo);
    return delivery("issue_comment", "created", repo, payload);
  }

  static Delivery mergedPullRequest(String repo, int number, String title, String body, String at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "closed");
    payload.put("number", number);
    ObjectNode pr = payload.putObject("pull_request");
    pr.put("number", number);
    pr.put("title", title);
    pr.put("body", body);
    pr.put("state", "closed");
    pr.put("merged", true);
    pr.put("merged_at", at);
    pr.put("created_at", at);
    pr.put("updated_at", at);
    pr.put("additions", 6);
    pr.put("deletions", 2);
    pr.put("changed_files", 1);
    pr.put("html_url", "https://github.com/" + repo + "/pull/" + number);
    payload.putObject("repository").put("full_name", repo);
    return delivery("pull_request", "closed", repo, payload);
  }

  static Delivery release(String repo, String tag, String at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "published");
    ObjectNode release = payload.putObject("release");
    release.put("tag_name", tag);
    release.put("published_at", at);
    release.put("created_at", at);
    release.put("prerelease", false);
    release.put("html_url", "https://github.com/" + repo + "/releases/tag/" + tag);
    payload.putObject("repository").put("full_name", repo);
    return delivery("release", "published", repo, payload);
  }

  private static Delivery delivery(String event, String action, String repo, ObjectNode payload) {
    return new Delivery(
        "d-" + UUID.randomUUID(),
        event,
        action,
        repo,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }
}
