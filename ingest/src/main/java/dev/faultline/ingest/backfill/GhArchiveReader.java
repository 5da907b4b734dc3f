package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.faultline.ingest.internal.EncodedDelivery;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.UsedEvent;
import java.io.IOException;
import java.io.InputStream;
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
    Lines lines = new Lines(json);
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

  private Counts readInline(Lines lines, Consumer<BackfillDelivery> sink) throws IOException {
    long events = 0;
    long kept = 0;
    long lineNumber = 0;
    byte[] line;
    while ((line = lines.next()) != null) {
      lineNumber++;
      if (Lines.isBlank(line)) {
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
      Lines lines, Consumer<BackfillDelivery> sink, ExecutorService decoders, int readAhead)
      throws IOException {
    Deque<Future<Chunk>> pending = new ArrayDeque<>();
    long events = 0;
    long kept = 0;
    long lineNumber = 0;
    List<byte[]> chunk = new ArrayList<>(CHUNK_LINES);
    byte[] line;
    boolean more = true;
    while (more) {
      line = lines.next();
      more = line != null;
      if (more) {
        chunk.add(line);
      }
      if (chunk.size() == CHUNK_LINES || (!more && !chunk.isEmpty())) {
        List<byte[]> batch = chunk;
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

  private Chunk decode(List<byte[]> batch, long firstLine) throws IOException {
    List<BackfillDelivery> kept = new ArrayList<>();
    long events = 0;
    for (int i = 0; i < batch.size(); i++) {
      byte[] line = batch.get(i);
      if (Lines.isBlank(line)) {
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
  private BackfillDelivery readLine(byte[] line, long lineNumber) throws IOException {
    try (JsonParser p = factory.createParser(line)) {
      JsonToken token = p.nextToken();
      if (token != JsonToken.START_OBJECT) {
        throw new IOException(
            "Expected one JSON object per line, found " + token + " at line " + lineNumber);
      }
      BackfillDelivery d = readEvent(p, line);
      if (p.nextToken() != null) {
        throw new IOException(
            "Expected one JSON object per line, line " + lineNumber + " has more");
      }
      return d;
    } catch (JsonProcessingException e) {
      throw new IOException("Not JSON at line " + lineNumber + ": " + e.getOriginalMessage(), e);
    }
  }

  private BackfillDelivery readEvent(JsonParser p, byte[] line) throws IOException {
    String id = null;
    UsedEvent type = null;
    String createdAt = null;
    Repo repo = null;
    JsonSlice actor = null;
    JsonSlice org = null;
    PayloadScan payload = null;
    boolean skip = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "id" -> id = p.getValueAsString();
        case "type" -> {
          String archiveType = p.getValueAsString();
          type = UsedEvent.ofArchiveType(archiveType).orElse(null);
          skip |= type == null;
        }
        case "repo" -> {
          repo = Repo.read(p, mapper);
          skip |= !filter.matches(repo.name() == null ? null : repo.name().asText(null));
        }
        case "created_at" -> createdAt = p.getValueAsString();
        case "actor" -> actor = skip ? skipValue(p) : JsonSlice.of(p, line, mapper);
        case "org" -> org = skip ? skipValue(p) : JsonSlice.of(p, line, mapper);
        // Most events are of other repositories: skip their payloads without looking into them.
        case "payload" -> payload = skip ? skipValue(p) : PayloadScan.of(p);
        default -> p.skipChildren();
      }
    }
    if (skip || type == null || repo == null || payload == null || id == null) {
      return null;
    }
    Event event = new Event(id, type.eventName(), createdAt, repo, actor, org);
    return payload.odd()
        ? treeDelivery(event, line, payload)
        : splicedDelivery(event, line, payload);
  }

  private static <T> T skipValue(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  /** The event's fields besides its payload. */
  private record Event(
      String id, String event, String createdAt, Repo repo, JsonSlice actor, JsonSlice org) {
    String fullName() {
      return repo.name() == null ? "" : repo.name().asText();
    }
  }

  /**
   * The {@code id} and {@code name} of an event's {@code repo}, each the node a tree of {@code
   * repo} holds (the last of a repeated name; null when absent or when {@code repo} is no object),
   * read without building the rest of it.
   */
  private record Repo(JsonNode id, JsonNode name) {
    static Repo read(JsonParser p, ObjectMapper mapper) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        return new Repo(null, null);
      }
      JsonNode id = null;
      JsonNode name = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "id" -> id = mapper.readTree(p);
          case "name" ->
              name =
                  value == JsonToken.VALUE_STRING
                      ? TextNode.valueOf(p.getText())
                      : mapper.readTree(p);
          default -> p.skipChildren();
        }
      }
      return new Repo(id, name);
    }
  }

  /**
   * The delivery with the payload's bytes as they are in the line and the added fields written
   * after them: the payload is never built as a tree nor written back.
   */
  private BackfillDelivery splicedDelivery(Event e, byte[] line, PayloadScan payload)
      throws IOException {
    String fullName = e.fullName();
    JsonAppender tail = new JsonAppender(payload.fields() > 0);
    if (!payload.has("repository")) {
      tail.field("repository").raw('{');
      JsonNode repoId = e.repo().id();
      if (repoId != null) {
        tail.raw("\"id\":").raw(JsonSlice.of(repoId, mapper)).raw(',');
      }
      int slash = fullName.indexOf('/');
      String owner = fullName.substring(0, slash);
      tail.raw("\"name\":").string(fullName.substring(slash + 1));
      tail.raw(",\"full_name\":").string(fullName);
      tail.raw(",\"owner\":{\"login\":").string(owner).raw('}');
      tail.raw(",\"html_url\":").string("https://github.com/" + fullName).raw('}');
    }
    if (!payload.has("sender") && e.actor() != null) {
      tail.field("sender").raw(e.actor());
    }
    if (!payload.has("organization") && e.org() != null) {
      tail.field("organization").raw(e.org());
    }
    tail.field("_backfill").raw("{\"event_id\":").string(e.id());
    if (e.createdAt() != null) {
      tail.raw(",\"created_at\":").string(e.createdAt());
    }
    tail.raw("}}");
    String key = DeliveryKey.of(e.event(), payload.keyFields(fullName));
    String deliveryId = "gharchive-" + e.id();
    byte[] value =
        EncodedDelivery.encode(
            new EncodedDelivery.Fields(
                deliveryId,
                e.event(),
                payload.action(),
                fullName,
                clock.instant().truncatedTo(ChronoUnit.MILLIS),
                DeliverySource.GH_ARCHIVE),
            line,
            payload.start(),
            payload.end() - 1,
            tail.bytes(),
            tail.length());
    return BackfillDelivery.encoded(key, deliveryId, value);
  }

  /**
   * The delivery built as a tree and written back: for the odd payload the splice would not
   * reproduce (a repeated top-level name, or a {@code _backfill} of its own, which is replaced).
   */
  private BackfillDelivery treeDelivery(Event e, byte[] line, PayloadScan scan) throws IOException {
    ObjectNode payload =
        (ObjectNode) mapper.readTree(line, scan.start(), scan.end() - scan.start());
    String fullName = e.fullName();
    if (!payload.has("repository")) {
      ObjectNode repository = payload.putObject("repository");
      if (e.repo().id() != null) {
        repository.set("id", e.repo().id());
      }
      int slash = fullName.indexOf('/');
      repository.put("name", fullName.substring(slash + 1));
      repository.put("full_name", fullName);
      repository.putObject("owner").put("login", fullName.substring(0, slash));
      repository.put("html_url", "https://github.com/" + fullName);
    }
    if (!payload.has("sender") && e.actor() != null) {
      payload.set("sender", e.actor().tree(mapper));
    }
    if (!payload.has("organization") && e.org() != null) {
      payload.set("organization", e.org().tree(mapper));
    }
    ObjectNode meta = payload.putObject("_backfill");
    meta.put("event_id", e.id());
    if (e.createdAt() != null) {
      meta.put("created_at", e.createdAt());
    }
    JsonNode action = payload.path("action");
    Delivery delivery =
        Delivery.newBuilder()
            .setDeliveryId("gharchive-" + e.id())
            .setEvent(e.event())
            .setAction(action.isTextual() ? action.asText() : null)
            .setRepository(fullName)
            .setReceivedAt(clock.instant().truncatedTo(ChronoUnit.MILLIS))
            .setSource(DeliverySource.GH_ARCHIVE)
            .setPayloadJson(mapper.writeValueAsString(payload))
            .build();
    return new BackfillDelivery(DeliveryKey.of(e.event(), payload), delivery);
  }
}
