package dev.faultline.infra.relabel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.cli.Cli;
import dev.faultline.infra.Faultline;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.neo4j.driver.Driver;

/**
 * What the relabelling tests share: the {@code faultline} command line run in this JVM, a count of
 * issues in the graph, and webhook deliveries built as GitHub sends them (each test keeps its own
 * texts and times).
 */
public final class RelabelFixtures {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RelabelFixtures() {}

  /**
   * Runs {@code faultline args} with environment {@code env}; {@code out} is emptied first and then
   * holds both its output and its errors. Returns the exit code.
   */
  public static int cli(Map<String, String> env, ByteArrayOutputStream out, String... args) {
    out.reset();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    return Cli.execute(Faultline.commandLine(env), args, p, p);
  }

  /** {@code count(i)} of {@code match}, a {@code MATCH} that binds {@code i}. */
  public static long count(Driver driver, String match) {
    return driver.session().run(match + " RETURN count(i) AS n").single().get("n").asLong();
  }

  /** A webhook delivery of {@code event}/{@code action} from {@code repo}, with a fresh id. */
  public static Delivery delivery(String event, String action, String repo, ObjectNode payload) {
    return new Delivery(
        "d-" + UUID.randomUUID(),
        event,
        action,
        repo,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }

  /**
   * A {@code pull_request/closed} delivery of pull request {@code number}, merged by a maintainer,
   * with {@code change}'s times and size.
   */
  public static Delivery mergedPullRequest(
      String repo, int number, String title, String body, MergedChange change) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "closed");
    ObjectNode pr = payload.putObject("pull_request");
    pr.put("number", number);
    pr.put("title", title);
    pr.put("body", body);
    pr.put("html_url", "https://github.com/" + repo + "/pull/" + number);
    pr.put("state", "closed");
    pr.put("merged", true);
    pr.put("merged_at", change.mergedAt());
    pr.put("created_at", change.createdAt());
    pr.put("updated_at", change.mergedAt());
    pr.put("additions", change.additions());
    pr.put("deletions", change.deletions());
    pr.put("changed_files", change.files());
    pr.putObject("user").put("login", "maintainer");
    payload.putObject("repository").put("full_name", repo);
    return delivery("pull_request", "closed", repo, payload);
  }

  /** When a merged change was opened and merged, and its size. */
  public record MergedChange(
      String createdAt, String mergedAt, int additions, int deletions, int files) {}
}
