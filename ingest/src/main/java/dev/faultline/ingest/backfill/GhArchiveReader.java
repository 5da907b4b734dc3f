package dev.faultline.ingest.backfill;

import static java.nio.charset.StandardCharsets.UTF_8;

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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  /** Lines one decoding task takes: small enough to bound memory, large enough to amortise. */
  static final int CHUNK_LINES = 512;

  /**
   * Reads an already decompressed stream of events, handing each kept one to {@code sink}, on the
   * calling thread.
   *
   * @throws IOException when a line is not a JSON object
   */
  public Counts read(InputStream json, Consumer<BackfillDelivery> sink) throws IOException {
    return read(json, sink, 1);
  }

  /**
   * As {@link #read(InputStream, Consumer)}, decoding with {@code threads} threads: the calling
   * thread splits the stream into chunks of {@value #CHUNK_LINES} lines, the decoders turn chunks
   * into deliveries, and the calling thread hands them to {@code sink} in the file's order (so an
   * issue's events reach Kafka in order). At most {@code 2 × threads} chunks are read ahead: the
   * memory held does not grow with the file.
   *
   * @throws IOException when a line is not a JSON object (with its line number)
   */
  public Counts read(InputStream json, Consumer<BackfillDelivery> sink, int threads)
      throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(json, UTF_8), 1 << 16);
    if (threads <= 1) {
      return readInline(lines, sink);
    }
    ExecutorService decoders =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "faultline-gharchive-decoder");
              t.setDaemon(true);
              return t;
            });
    try {
      return readParallel(lines, sink, decoders, 2 * threads);
    } finally {
      decoders.shutdownNow();
    }
  }

  private Counts readInline(BufferedReader lines, Consumer<BackfillDelivery> sink)
      throws IOException {
    long events = 0;
    long kept = 0;
    long lineNumber = 0;
    String line;
    while ((line = lines.readLine()) != null) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      events++;
      BackfillDelivery d = readLine(line, lineNumber);
      if (d != null) {
        kept++;
        sink.accept(d);
      }
    }
    return new Counts(events, kept);
  }

  /** Decoded chunk: its events and the deliveries kept, in line order. */
  private record Chunk(long events, List<BackfillDelivery> kept) {}

  private Counts readParallel(
      BufferedReader lines,
      Consumer<BackfillDelivery> sink,
      ExecutorService decoders,
      int readAhead)
      throws IOException {
    Deque<Future<Chunk>> pending = new ArrayDeque<>();
    long events = 0;
    long kept = 0;
    long lineNumber = 0;
    List<String> chunk = new ArrayList<>(CHUNK_LINES);
    String line;
    boolean more = true;
    while (more) {
      line = lines.readLine();
      more = line != null;
      if (more) {
        chunk.add(line);
      }
      if (chunk.size() == CHUNK_LINES || (!more && !chunk.isEmpty())) {
        List<String> batch = chunk;
        long first = lineNumber + 1;
        lineNumber += batch.size();
        pending.add(decoders.submit(() -> decode(batch, first)));
        chunk = new ArrayList<>(CHUNK_LINES);
      }
      while (pending.size() > readAhead || (!more && !pending.isEmpty())) {
        Chunk done = await(pending.poll());
        events += done.events();
        kept += done.kept().size();
        done.kept().forEach(sink);
      }
    }
    return new Counts(events, kept);
  }

  private Chunk decode(List<String> batch, long firstLine) throws IOException {
    List<BackfillDelivery> kept = new ArrayList<>();
    long events = 0;
    for (int i = 0; i < batch.size(); i++) {
      String line = batch.get(i);
      if (line.isBlank()) {
        continue;
      }
      events++;
      BackfillDelivery d = readLine(line, firstLine + i);
      if (d != null) {
        kept.add(d);
      }
    }
    return new Chunk(events, kept);
  }

  private static Chunk await(Future<Chunk> chunk) throws IOException {
    try {
      return chunk.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while decoding", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  /** One line's event as a delivery, or null when it is not kept. */
  private BackfillDelivery readLine(String line, long lineNumber) throws IOException {
    try (JsonParser p = factory.createParser(line)) {
      JsonToken token = p.nextToken();
      if (token != JsonToken.START_OBJECT) {
        throw new IOException(
            "Expected one JSON object per line, found " + token + " at line " + lineNumber);
      }
      BackfillDelivery d = readEvent(p);
      if (p.nextToken() != null) {
        throw new IOException(
            "Expected one JSON object per line, line " + lineNumber + " has more");
      }
      return d;
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
