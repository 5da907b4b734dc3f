package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backfills one repository from the GitHub REST API as webhook-shaped deliveries: releases, issues,
 * pull requests and issue comments (repository-wide listing, which also covers pull request
 * conversations), each listing paged through {@code Link} headers and resumable from a {@link
 * Checkpoint} saved after every acknowledged page.
 *
 * <p>Delivery ids are {@code rest-<kind>-<id>-<updated_at>}: a re-run over unchanged items dedupes,
 * a changed item is a new delivery. Items reach the raw topic in the shape of the matching webhook
 * payload: {@code issues} ({@code opened} or {@code closed} by state), {@code pull_request} (same),
 * {@code issue_comment} ({@code created}, with the issue's number) and {@code release} ({@code
 * published}, or {@code created} for drafts), with the repository object from {@code GET
 * /repos/{owner}/{repo}}; the envelope's source ({@code REST_API}) says where they came from.
 */
public final class GitHubRestBackfill {
  private static final Logger LOG = LoggerFactory.getLogger(GitHubRestBackfill.class);
  private static final Pattern ISSUE_NUMBER = Pattern.compile("/issues/(\\d+)$");

  /** The listings, in the order they are fetched. */
  enum Listing {
    RELEASES,
    ISSUES,
    PULLS,
    COMMENTS
  }

  private final GitHubApi api;
  private final ObjectMapper mapper;
  private final Checkpoint checkpoint;
  private final Clock clock;

  public GitHubRestBackfill(
      GitHubApi api, ObjectMapper mapper, Checkpoint checkpoint, Clock clock) {
    this.api = api;
    this.mapper = mapper;
    this.checkpoint = checkpoint;
    this.clock = clock;
  }

  /**
   * Backfills {@code repo}, resuming an interrupted run from the checkpoint.
   *
   * @param since only items updated since then; empty: since the last completed run, or everything
   * @param sink where deliveries go; flushed (all acknowledged) before each checkpoint
   * @return deliveries handed to the sink
   */
  public long run(String repo, Optional<Instant> since, Publishing sink, Progress progress)
      throws IOException, InterruptedException {
    String prefix = repo.toLowerCase(Locale.ROOT) + ".";
    RunStart run = startRun(repo, prefix, since);
    Optional<Instant> effectiveSince = run.since();
    LOG.info(
        "Backfilling {} from the GitHub API{}",
        repo,
        effectiveSince.map(s -> " since " + s).orElse(""));

    ObjectNode repository = (ObjectNode) api.get(api.resolve("/repos/" + repo)).body();
    long count = 0;
    List<Listing> listings = List.of(Listing.values());
    for (int i = 0; i < listings.size(); i++) {
      Listing listing = listings.get(i);
      String key = prefix + "run." + listing.name().toLowerCase(Locale.ROOT);
      if (checkpoint.get(key + ".done").isPresent()) {
        continue;
      }
      URI url =
          checkpoint
              .get(key + ".next")
              .map(URI::create)
              .orElseGet(() -> firstPage(listing, repo, effectiveSince));
      count =
          sendListing(
              listing, url, key, effectiveSince, repository, count, sink, progress, i, listings);
    }
    checkpoint.removePrefix(prefix + "run.");
    checkpoint.put(prefix + "completed", run.started().toString());
    checkpoint.save();
    return count;
  }

  /** When a run started, and since when it reads (empty: everything). */
  private record RunStart(Instant started, Optional<Instant> since) {}

  /**
   * Records the run in the checkpoint: when it started (an interrupted run's start, else now) and
   * since when it reads ({@code run.since}: {@code --since}, else the interrupted run's, else the
   * last completed run's start; none: everything). A different {@code --since} than the interrupted
   * run's starts afresh.
   */
  private RunStart startRun(String repo, String prefix, Optional<Instant> since)
      throws IOException {
    Optional<String> runSince = checkpoint.get(prefix + "run.since");
    String requested = since.map(Instant::toString).orElse(null);
    if (checkpoint.get(prefix + "run.started").isPresent()
        && requested != null
        && !requested.equals(runSince.orElse(null))) {
      LOG.info("A different --since than the interrupted run's: starting {} afresh", repo);
      checkpoint.removePrefix(prefix + "run.");
    }
    Instant started =
        checkpoint.get(prefix + "run.started").map(Instant::parse).orElseGet(() -> clock.instant());
    Optional<Instant> effectiveSince =
        since.isPresent()
            ? since
            : checkpoint.get(prefix + "run.started").isPresent()
                ? checkpoint.get(prefix + "run.since").map(Instant::parse)
                : checkpoint.get(prefix + "completed").map(Instant::parse);
    checkpoint.put(prefix + "run.started", started.toString());
    effectiveSince.ifPresentOrElse(
        s -> checkpoint.put(prefix + "run.since", s.toString()),
        () -> checkpoint.remove(prefix + "run.since"));
    checkpoint.save();
    return new RunStart(started, effectiveSince);
  }

  /**
   * Sends one listing page by page from {@code url}, checkpointing the next page after each; {@code
   * count} deliveries were sent before it ({@code index} of {@code listings}, for the progress).
   * Returns the count after it.
   */
  private long sendListing(
      Listing listing,
      URI url,
      String key,
      Optional<Instant> effectiveSince,
      ObjectNode repository,
      long count,
      Publishing sink,
      Progress progress,
      int index,
      List<Listing> listings)
      throws IOException, InterruptedException {
    while (true) {
      GitHubApi.Page page = api.get(url);
      boolean reachedSince = false;
      for (JsonNode item : page.body()) {
        Optional<Instant> updated =
            firstText(item, "updated_at", "published_at", "created_at")
                .flatMap(GitHubRestBackfill::instant);
        if (effectiveSince.isPresent()
            && updated.isPresent()
            && updated.get().isBefore(effectiveSince.get())) {
          // Releases and pulls have no since parameter; pulls come newest first when since is
          // set.
          reachedSince = listing == Listing.PULLS;
          continue;
        }
        BackfillDelivery d = toDelivery(listing, item, repository);
        if (d != null) {
          sink.accept(d);
          count++;
        }
      }
      sink.flush();
      double fraction =
          (index
                  + page.lastPage()
                      .map(last -> Math.min(1.0, page.page() / (double) last))
                      .orElse(0.5))
              / listings.size();
      progress.update(count, fraction);
      if (page.next().isPresent() && !reachedSince) {
        url = page.next().get();
        checkpoint.put(key + ".next", url.toString());
        checkpoint.save();
      } else {
        checkpoint.remove(key + ".next");
        checkpoint.put(key + ".done", "true");
        checkpoint.save();
        return count;
      }
    }
  }

  private URI firstPage(Listing listing, String repo, Optional<Instant> since) {
    String sinceParam =
        since
            .map(s -> "&since=" + URLEncoder.encode(s.toString(), StandardCharsets.UTF_8))
            .orElse("");
    return api.resolve(
        switch (listing) {
          case RELEASES -> "/repos/" + repo + "/releases?per_page=100";
          case ISSUES ->
              "/repos/"
                  + repo
                  + "/issues?state=all&sort=updated&direction=asc&per_page=100"
                  + sinceParam;
          case PULLS ->
              "/repos/"
                  + repo
                  + "/pulls?state=all&sort=updated&direction="
                  + (since.isPresent() ? "desc" : "asc")
                  + "&per_page=100";
          case COMMENTS ->
              "/repos/"
                  + repo
                  + "/issues/comments?sort=updated&direction=asc&per_page=100"
                  + sinceParam;
        });
  }

  private BackfillDelivery toDelivery(Listing listing, JsonNode item, ObjectNode repository)
      throws IOException {
    ObjectNode payload = mapper.createObjectNode();
    String event;
    String kind;
    switch (listing) {
      case ISSUES -> {
        if (item.has("pull_request")) {
          return null; // the pulls listing brings the full pull request
        }
        event = "issues";
        kind = "issue";
        payload.put("action", "closed".equals(item.path("state").asText()) ? "closed" : "opened");
        payload.set("issue", item);
      }
      case PULLS -> {
        event = "pull_request";
        kind = "pr";
        payload.put("action", "closed".equals(item.path("state").asText()) ? "closed" : "opened");
        payload.set("number", item.path("number"));
        payload.set("pull_request", item);
      }
      case COMMENTS -> {
        Matcher m = ISSUE_NUMBER.matcher(item.path("issue_url").asText(""));
        if (!m.find()) {
          return null;
        }
        event = "issue_comment";
        kind = "comment";
        payload.put("action", "created");
        ObjectNode issue = payload.putObject("issue");
        issue.put("number", Integer.parseInt(m.group(1)));
        issue.put("url", item.path("issue_url").asText());
        payload.set("comment", item);
      }
      case RELEASES -> {
        event = "release";
        kind = "release";
        payload.put("action", item.path("draft").asBoolean(false) ? "created" : "published");
        payload.set("release", item);
      }
      default -> throw new IllegalStateException(listing.name());
    }
    payload.set("repository", repository);
    JsonNode sender = item.has("user") ? item.get("user") : item.get("author");
    if (sender != null && !sender.isNull()) {
      payload.set("sender", sender);
    }
    String version = firstText(item, "updated_at", "published_at", "created_at").orElse("unknown");
    Delivery delivery =
        Delivery.newBuilder()
            .setDeliveryId("rest-" + kind + "-" + item.path("id").asText() + "-" + version)
            .setEvent(event)
            .setAction(payload.path("action").asText())
            .setRepository(repository.path("full_name").asText(null))
            .setReceivedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS))
            .setSource(DeliverySource.REST_API)
            .setPayloadJson(mapper.writeValueAsString(payload))
            .build();
    return new BackfillDelivery(DeliveryKey.of(event, payload), delivery);
  }

  private static Optional<String> firstText(JsonNode item, String... fields) {
    for (String f : fields) {
      if (item.path(f).isTextual()) {
        return Optional.of(item.path(f).asText());
      }
    }
    return Optional.empty();
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
