package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.ingest.backfill.git.MergedChange;
import dev.faultline.ingest.backfill.git.ReleaseTag;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Git history as webhook-shaped deliveries, so it takes the live path (same topic, envelope, keys,
 * idempotency).
 *
 * <p>A merged change is a {@code pull_request} delivery, action {@code closed}, {@code merged:
 * true}, with {@code merged_at}/{@code updated_at}/{@code closed_at} its commit date, {@code
 * created_at} its author date, {@code additions}, {@code deletions} and {@code changed_files} from
 * the diff against the first parent, and the commit in {@code merge_commit_sha}. A direct commit
 * has no {@code number}: its id is {@code owner/repo@sha}. The {@code _backfill} object carries
 * what GitHub's payload has no field for: the change kind, the files with their sizes, the closing
 * references of the message and a bounded diff summary.
 *
 * <p>A release tag is a {@code release} delivery, action {@code published}, {@code published_at}
 * the tag's date.
 *
 * <p>Delivery ids are {@code git-change-<repo>-<sha>} and {@code git-release-<repo>-<tag>-<sha>}:
 * the same history gives the same ids and the same payloads, so a re-run or a resumed run converges
 * to the same graph.
 */
public final class GitDeliveries {
  private final ObjectMapper mapper;
  private final String repo;
  private final Clock clock;
  private final ObjectNode repository;

  public GitDeliveries(ObjectMapper mapper, String repo, Clock clock) {
    this.mapper = mapper;
    this.repo = repo;
    this.clock = clock;
    this.repository = mapper.createObjectNode();
    int slash = repo.indexOf('/');
    repository.put("name", repo.substring(slash + 1));
    repository.put("full_name", repo);
    repository.putObject("owner").put("login", repo.substring(0, slash));
    repository.put("html_url", "https://github.com/" + repo);
  }

  /** The {@code pull_request} delivery of a merged change. */
  public BackfillDelivery change(MergedChange c) {
    ObjectNode payload = mapper.createObjectNode();
    payload.put("action", "closed");
    if (c.number() != null) {
      payload.put("number", c.number());
    }
    ObjectNode pr = payload.putObject("pull_request");
    if (c.number() != null) {
      pr.put("number", c.number());
      pr.put("html_url", "https://github.com/" + repo + "/pull/" + c.number());
    } else {
      pr.put("html_url", "https://github.com/" + repo + "/commit/" + c.sha());
    }
    pr.put("title", c.title());
    pr.put("body", c.body().isEmpty() ? null : c.body());
    pr.put("state", "closed");
    pr.put("merged", true);
    String mergedAt = c.mergedAt().toString();
    Instant created = c.authoredAt().isBefore(c.mergedAt()) ? c.authoredAt() : c.mergedAt();
    pr.put("created_at", created.toString());
    pr.put("updated_at", mergedAt);
    pr.put("closed_at", mergedAt);
    pr.put("merged_at", mergedAt);
    pr.put("merge_commit_sha", c.sha());
    ObjectNode user = pr.putObject("user");
    user.put("login", c.authorLogin());
    user.put("name", c.authorName());
    pr.put("additions", c.additions());
    pr.put("deletions", c.deletions());
    pr.put("changed_files", c.changedFiles());
    payload.set("repository", repository);
    if (c.authorLogin() != null) {
      payload.putObject("sender").put("login", c.authorLogin());
    }
    ObjectNode meta = payload.putObject("_backfill");
    meta.put("commit", c.sha());
    meta.put("change_kind", c.kind().name());
    meta.put("files_listed", c.files().size());
    ArrayNode files = meta.putArray("files");
    for (MergedChange.FileChange f : c.files()) {
      ObjectNode file = files.addObject();
      file.put("filename", f.path());
      file.put("status", f.status().apiName());
      file.put("additions", f.additions());
      file.put("deletions", f.deletions());
      if (f.binary()) {
        file.put("binary", true);
      }
    }
    ArrayNode refs = meta.putArray("closing_references");
    c.closingReferences().forEach(refs::add);
    meta.put("diff_summary", c.diffSummary());
    if (c.leniencyDecoded()) {
      meta.put("message_decoded_leniently", true);
    }
    String key = DeliveryKey.of("pull_request", payload);
    if (c.number() == null) {
      key = commitId(repo, c.sha());
    }
    return delivery(
        "git-change-" + repo.toLowerCase(Locale.ROOT) + "-" + c.sha(),
        "pull_request",
        key,
        payload);
  }

  /** The {@code release} delivery of a release tag. */
  public BackfillDelivery release(ReleaseTag t) {
    ObjectNode payload = mapper.createObjectNode();
    payload.put("action", "published");
    ObjectNode r = payload.putObject("release");
    r.put("tag_name", t.name());
    r.put("name", t.name());
    r.put("html_url", "https://github.com/" + repo + "/releases/tag/" + t.name());
    r.put("target_commitish", t.sha());
    r.put("draft", false);
    r.put("prerelease", t.prerelease());
    r.put("created_at", t.date().toString());
    r.put("published_at", t.date().toString());
    payload.set("repository", repository);
    ObjectNode meta = payload.putObject("_backfill");
    meta.put("commit", t.sha());
    meta.put("annotated", t.annotated());
    return delivery(
        "git-release-" + repo.toLowerCase(Locale.ROOT) + "-" + t.name() + "-" + t.sha(),
        "release",
        DeliveryKey.of("release", payload),
        payload);
  }

  /** The id of a direct commit's node: {@code owner/repo@sha}. */
  public static String commitId(String repo, String sha) {
    return repo + "@" + sha;
  }

  private BackfillDelivery delivery(String id, String event, String key, ObjectNode payload) {
    try {
      Delivery delivery =
          Delivery.newBuilder()
              .setDeliveryId(id)
              .setEvent(event)
              .setAction(payload.path("action").asText())
              .setRepository(repo)
              .setReceivedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS))
              .setSource(DeliverySource.GIT)
              .setPayloadJson(mapper.writeValueAsString(payload))
              .build();
      return new BackfillDelivery(key, delivery);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
