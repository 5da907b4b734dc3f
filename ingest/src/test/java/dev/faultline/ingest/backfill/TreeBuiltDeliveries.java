package dev.faultline.ingest.backfill;

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
import java.time.Clock;
import java.time.temporal.ChronoUnit;

/**
 * The GH Archive reader's conversion as it was before the payload was spliced (main b0ed295): each
 * kept line's payload parsed to a tree, the fields added, and the tree written back. The reference
 * the streaming reader is compared with in {@link GhArchiveSpliceTest}; kept as it was, not
 * maintained.
 */
final class TreeBuiltDeliveries {
  private final ObjectMapper mapper;
  private final RepositoryFilter filter;
  private final Clock clock;

  TreeBuiltDeliveries(ObjectMapper mapper, RepositoryFilter filter, Clock clock) {
    this.mapper = mapper;
    this.filter = filter;
    this.clock = clock;
  }

  /** One line's event as a delivery, or null when it is not kept. */
  BackfillDelivery readLine(String line) throws IOException {
    try (JsonParser p = mapper.getFactory().createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not an object");
      }
      return readEvent(p);
    }
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
