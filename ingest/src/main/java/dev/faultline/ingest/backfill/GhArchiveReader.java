package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.UsedEvent;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * Reads GH Archive hourly files (gzipped, one event per line) as webhook-shaped deliveries,
 * streaming: one event at a time, and the payload of an event is only built when its type and
 * repository are wanted.
 *
 * <p>The event types of {@link UsedEvent}'s table ({@code IssuesEvent}, {@code IssueCommentEvent},
 * {@code PullRequestEvent}, {@code ReleaseEvent}) become deliveries of its events ({@code issues},
 * …): the GH Archive {@code payload} plus {@code repository} (from {@code repo}: {@code full_name},
 * {@code id}), {@code sender} (from {@code actor}) and {@code organization} (from {@code org})
 * where the payload lacks them, and a {@code _backfill} object with the archive's event id and
 * {@code created_at}. The delivery id is {@code gharchive-<event id>}, so a replayed file dedupes.
 */
public final class GhArchiveReader {
  private final ObjectMapper mapper;
  private final JsonFactory factory;
  private final RepositoryFilter filter;
  private final Clock clock;

  public GhArchiveReader(ObjectMapper mapper, RepositoryFilter filter, Clock clock) {
    this.mapper = mapper;
    this.factory = mapper.getFactory();
    this.filter = filter;
    this.clock = clock;
  }

  /** Counts from one file. */
  public record Counts(long events, long kept) {}

  /**
   * Reads an already decompressed stream of events, handing each kept one to {@code sink}.
   *
   * @throws IOException when the stream is not a sequence of JSON objects
   */
  public Counts read(InputStream json, Consumer<BackfillDelivery> sink) throws IOException {
    long events = 0;
    long kept = 0;
    try (JsonParser p = factory.createParser(json)) {
      JsonToken token;
      while ((token = p.nextToken()) != null) {
        if (token != JsonToken.START_OBJECT) {
          throw new IOException(
              "Expected one JSON object per line, found " + token + " at " + p.currentLocation());
        }
        events++;
        BackfillDelivery d = readEvent(p);
        if (d != null) {
          kept++;
          sink.accept(d);
        }
      }
    }
    return new Counts(events, kept);
  }

  private BackfillDelivery readEvent(JsonParser p) throws IOException {
    String id = null;
    String type = null;
    String createdAt = null;
    JsonNode repo = null;
    JsonNode actor = null;
    JsonNode org = null;
    JsonNode payload = null;
    boolean skip = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "id" -> id = p.getValueAsString();
        case "type" -> {
          type = p.getValueAsString();
          skip |= UsedEvent.ofArchiveType(type).isEmpty();
        }
        case "repo" -> {
          repo = mapper.readTree(p);
          skip |= !filter.matches(repo.path("name").asText(null));
        }
        case "created_at" -> createdAt = p.getValueAsString();
        case "actor" -> actor = skip ? skipValue(p) : mapper.readTree(p);
        case "org" -> org = skip ? skipValue(p) : mapper.readTree(p);
        // Most events are of other repositories: skip their payloads without building them.
        case "payload" -> payload = skip ? skipValue(p) : mapper.readTree(p);
        default -> p.skipChildren();
      }
    }
    if (skip
        || type == null
        || repo == null
        || payload == null
        || !payload.isObject()
        || id == null) {
      return null;
    }
    return toDelivery(
        id,
        UsedEvent.ofArchiveType(type).orElseThrow().eventName(),
        createdAt,
        repo,
        actor,
        org,
        (ObjectNode) payload);
  }

  private static JsonNode skipValue(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  private BackfillDelivery toDelivery(
      String id,
      String event,
      String createdAt,
      JsonNode repo,
      JsonNode actor,
      JsonNode org,
      ObjectNode payload)
      throws IOException {
    String fullName = repo.path("name").asText();
    if (!payload.has("repository")) {
      ObjectNode repository = payload.putObject("repository");
      if (repo.has("id")) {
        repository.set("id", repo.get("id"));
      }
      int slash = fullName.indexOf('/');
      repository.put("name", fullName.substring(slash + 1));
      repository.put("full_name", fullName);
      repository.putObject("owner").put("login", fullName.substring(0, slash));
      repository.put("html_url", "https://github.com/" + fullName);
    }
    if (!payload.has("sender") && actor != null) {
      payload.set("sender", actor);
    }
    if (!payload.has("organization") && org != null) {
      payload.set("organization", org);
    }
    ObjectNode meta = payload.putObject("_backfill");
    meta.put("event_id", id);
    if (createdAt != null) {
      meta.put("created_at", createdAt);
    }
    JsonNode action = payload.path("action");
    Delivery delivery =
        Delivery.newBuilder()
            .setDeliveryId("gharchive-" + id)
            .setEvent(event)
            .setAction(action.isTextual() ? action.asText() : null)
            .setRepository(fullName)
            .setReceivedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS))
            .setSource(DeliverySource.GH_ARCHIVE)
            .setPayloadJson(mapper.writeValueAsString(payload))
            .build();
    return new BackfillDelivery(DeliveryKey.of(event, payload), delivery);
  }
}
