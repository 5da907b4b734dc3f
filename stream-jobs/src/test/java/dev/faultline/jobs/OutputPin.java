package dev.faultline.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.ClassifiedIssueSerializer;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * A behaviour pin for refactors (issue #33 item 5), run by hand, not a test: feeds the dev and
 * training items (read from {@code ../shared} at run time; nothing of them is kept but hashes) as
 * GitHub-shaped deliveries (each issue opened, every third commented on, every fifth closed later;
 * each change a merged pull request, every fourth closing an issue of its repository; three
 * releases per repository) through {@link IssuePipeline} on a local Flink environment under one
 * offline tier, and writes the SHA-256 of every output: the classified records' Avro bytes as the
 * Kafka sink writes them, the graph write parameters of every issue, pull request and release row,
 * the writers' statements, and every named query's rows (several parameter sets each) over a real
 * Neo4j holding those rows. Run it before and after a change and diff the two files.
 *
 * <pre>
 * mvn -B -q -o -pl stream-jobs -am test-compile dependency:build-classpath \
 *   -Dmdep.includeScope=test -Dmdep.outputFile=target/pin.cp
 * java -cp stream-jobs/target/test-classes:stream-jobs/target/classes:$(cat stream-jobs/target/pin.cp) \
 *   dev.faultline.jobs.OutputPin learned /tmp/pin-learned.txt
 * </pre>
 *
 * <p>Times the graph stamps when it writes ({@code datetime()} of a label's history) are replaced
 * by {@code <written>} before hashing.
 */
public final class OutputPin {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private static final Instant BASE = Instant.parse("2023-01-02T00:00:00Z");
  private static final long DAY = 86_400_000L;

  private OutputPin() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: OutputPin learned|rules OUT.txt");
      System.exit(2);
    }
    String tier = args[0];
    Path out = Path.of(args[1]);
    Path shared = Path.of(System.getProperty("faultline.shared", "../shared"));
    List<JsonNode> issues = new ArrayList<>();
    List<JsonNode> changes = new ArrayList<>();
    for (JsonNode item : lines(shared.resolve("eval/dev.jsonl"))) {
      (item.path("state").asText().equals("merged") ? changes : issues).add(item);
    }
    issues.addAll(lines(shared.resolve("train/issues.jsonl")));
    changes.addAll(lines(shared.resolve("train/changes.jsonl")));
    List<Delivery> deliveries = deliveries(issues, changes);

    Map<String, List<String>> pins = new TreeMap<>();
    Instant started = Instant.now();
    Collected collected = run(tier, deliveries);
    pins.put("classified-avro", collected.classified);
    pins.put("issue-params", params(collected.issues, IssueRow::toParameters));
    pins.put("pull-request-params", params(collected.pullRequests, PullRequestRow::toParameters));
    pins.put("release-params", params(collected.releases, ReleaseRow::toParameters));
    pins.put("rejected", collected.rejected);
    graph(collected, pins, started);

    StringBuilder text = new StringBuilder();
    text.append("# OutputPin tier=")
        .append(tier)
        .append(" deliveries=")
        .append(deliveries.size())
        .append('\n');
    pins.forEach(
        (name, lines) ->
            text.append(name)
                .append(' ')
                .append(lines.size())
                .append(' ')
                .append(sha(String.join("\n", lines)))
                .append('\n'));
    text.append("## per item\n");
    pins.forEach(
        (name, lines) ->
            lines.forEach(l -> text.append(name).append(' ').append(sha(l)).append('\n')));
    Files.writeString(out, text.toString());
    String dump = System.getProperty("faultline.pin.dump");
    if (dump != null) {
      // Whole outputs, for finding what differs; they hold the items' texts: keep them out of the
      // project.
      StringBuilder all = new StringBuilder();
      pins.forEach(
          (name, lines) -> lines.forEach(l -> all.append(name).append(' ').append(l).append('\n')));
      Files.writeString(Path.of(dump), all.toString());
    }
    System.out.println(text.substring(0, text.indexOf("## per item")));
    System.exit(0);
  }

  /** What the pipeline emitted, each stream in a stable order (by key, then emission). */
  private record Collected(
      List<String> classified,
      List<IssueRow> issues,
      List<PullRequestRow> pullRequests,
      List<ReleaseRow> releases,
      List<String> rejected) {}

  private static Collected run(String tier, List<Delivery> deliveries) throws Exception {
    AvroCodec<Delivery> codec = AvroCodec.deliveries();
    List<RawDelivery> raw = new ArrayList<>();
    for (int i = 0; i < deliveries.size(); i++) {
      Delivery d = deliveries.get(i);
      String key = DeliveryKey.of(d.getEvent(), JSON.readTree(d.getPayloadJson()));
      raw.add(new RawDelivery(key, codec.encode(d), "faultline.deliveries", 0, i));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
    DataStream<RawDelivery> source = env.fromData(raw);
    IssuePipeline.Outputs out =
        IssuePipeline.apply(
            source,
            IssuePipeline.Settings.offline(
                dev.faultline.jobs.classify.ClassifierTier.fromEnvironment(
                    Map.of(dev.faultline.jobs.classify.ClassifierTier.ENV, tier))));
    DataStream<Tagged> all =
        out.classified()
            .map(OutputPin::classifiedTag)
            .union(
                out.issues().map(r -> new Tagged("i", r.id(), r, null, null, null)),
                out.pullRequests().map(r -> new Tagged("p", r.id(), null, r, null, null)),
                out.releases()
                    .map(
                        r ->
                            new Tagged(
                                "r",
                                r.framework() + "@" + r.version() + "@" + r.tag(),
                                null,
                                null,
                                r,
                                null)),
                out.rejected().map(r -> new Tagged("x", r.reason, null, null, null, r.reason)));
    List<Tagged> tagged = new ArrayList<>();
    try (var it = all.executeAndCollect("output-pin")) {
      it.forEachRemaining(tagged::add);
    }
    // Stable: within one kind and key the emission order is the keyed operator's, hence fixed.
    tagged.sort(Comparator.comparing((Tagged t) -> t.kind).thenComparing(t -> t.key));
    List<String> classified = new ArrayList<>();
    List<IssueRow> issues = new ArrayList<>();
    List<PullRequestRow> prs = new ArrayList<>();
    List<ReleaseRow> releases = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    for (Tagged t : tagged) {
      switch (t.kind) {
        case "c" -> classified.add(t.key + " " + t.text);
        case "i" -> issues.add(t.issue);
        case "p" -> prs.add(t.pullRequest);
        case "r" -> releases.add(t.release);
        default -> rejected.add(t.text);
      }
    }
    return new Collected(classified, issues, prs, releases, rejected);
  }

  /** One output with its kind and key (a POJO for Flink). */
  public static final class Tagged implements java.io.Serializable {
    public String kind;
    public String key;
    public IssueRow issue;
    public PullRequestRow pullRequest;
    public ReleaseRow release;
    public String text;

    public Tagged() {}

    Tagged(
        String kind,
        String key,
        IssueRow issue,
        PullRequestRow pullRequest,
        ReleaseRow release,
        String text) {
      this.kind = kind;
      this.key = key;
      this.issue = issue;
      this.pullRequest = pullRequest;
      this.release = release;
      this.text = text;
    }
  }

  private static Tagged classifiedTag(dev.faultline.jobs.records.ClassifiedIssueEvent e) {
    byte[] value =
        new ClassifiedIssueSerializer("faultline.issues.classified")
            .serialize(e, null, null)
            .value();
    return new Tagged("c", e.issue.id, null, null, null, HexFormat.of().formatHex(value));
  }

  private static <R> List<String> params(
      List<R> rows, java.util.function.Function<R, Map<String, Object>> toParameters)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (R r : rows) {
      out.add(canon(toParameters.apply(r)));
    }
    return out;
  }

  /** Writes the rows to a fresh Neo4j and pins the statements and every query's rows. */
  private static void graph(Collected c, Map<String, List<String>> pins, Instant started)
      throws Exception {
    Path dir = Files.createTempDirectory("output-pin-neo4j");
    String password = "pin-" + Long.toHexString(System.nanoTime());
    try (EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(dir, 0, 0, password);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", password))) {
      new GraphSchema(driver, "neo4j").migrate();
      write(new IssueWriter(driver, "neo4j"), c.issues);
      write(new PullRequestWriter(driver, "neo4j"), c.pullRequests);
      write(new ReleaseWriter(driver, "neo4j"), c.releases);
      pins.put("statements", statements());
      QueryLibrary library = new QueryLibrary(driver, "neo4j");
      String someIssue = c.issues.isEmpty() ? "none#0" : c.issues.get(c.issues.size() / 2).id();
      List<String> rows = new ArrayList<>();
      for (QueryDefinition q : library.list()) {
        for (Map<String, String> p : parameterSets(q, someIssue)) {
          List<Map<String, Object>> result;
          String outcome;
          try {
            result = library.run(q.name(), p);
            outcome = canon(normalise(result, started));
          } catch (RuntimeException e) {
            outcome = "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
          }
          rows.add(q.name() + " " + new TreeMap<>(p) + " " + outcome);
        }
      }
      pins.put("queries", rows);
    }
  }

  /**
   * Writes the rows as the graph sink does, at most one row per key in a batch (its RowBuffer keeps
   * the newest): every key's first row, then every key's second, and so on, in batches of 500. Two
   * states of one issue in one statement would leave both states' classification edges (the
   * statement deletes the old edges before it creates the new ones for every row at once), which no
   * sink batch does and which reads back in no fixed order.
   */
  private static <R> void write(dev.faultline.graph.BatchWriter<R> writer, List<R> rows) {
    Map<String, List<R>> byKey = new LinkedHashMap<>();
    rows.forEach(r -> byKey.computeIfAbsent(writer.keyOf(r), k -> new ArrayList<>()).add(r));
    for (int round = 0; ; round++) {
      List<R> batch = new ArrayList<>();
      for (List<R> states : byKey.values()) {
        if (round < states.size()) {
          batch.add(states.get(round));
        }
      }
      if (batch.isEmpty()) {
        return;
      }
      for (int i = 0; i < batch.size(); i += 500) {
        writer.write(batch.subList(i, Math.min(batch.size(), i + 500)));
      }
    }
  }

  /** The writers' expanded statements (by reflection: the field is private). */
  private static List<String> statements() throws Exception {
    List<String> out = new ArrayList<>();
    for (Class<?> w : List.of(IssueWriter.class, PullRequestWriter.class, ReleaseWriter.class)) {
      var ctor = w.getConstructor(Driver.class, String.class);
      Object writer = ctor.newInstance(null, "neo4j");
      var field = dev.faultline.graph.BatchWriter.class.getDeclaredField("statement");
      field.setAccessible(true);
      out.add(w.getSimpleName() + " " + field.get(writer));
    }
    return out;
  }

  private static List<Map<String, String>> parameterSets(QueryDefinition q, String issue) {
    List<Map<String, String>> sets = new ArrayList<>();
    Map<String, String> base = new LinkedHashMap<>();
    if (q.parameter("issue").isPresent()) {
      base.put("issue", issue);
    }
    if (q.parameter("asOf").isPresent()) {
      base.put("asOf", "2025-06-01T00:00:00Z");
    }
    sets.add(base);
    for (String[] variant :
        new String[][] {
          {"framework", "DeepSpeed"},
          {"minConfidence", "all"},
          {"mode", "all"},
          {"mode", "confident"},
          {"dimension", "stage"},
          {"includeUnknown", "true"},
          {"kind", "null"}
        }) {
      if (q.parameter(variant[0]).isPresent()) {
        Map<String, String> p = new LinkedHashMap<>(base);
        p.put(variant[0], variant[1]);
        sets.add(p);
      }
    }
    return sets;
  }

  /** A value as text: maps with sorted keys, every leaf with its type. */
  private static String canon(Object v) {
    if (v instanceof Map<?, ?> m) {
      StringBuilder b = new StringBuilder("{");
      new TreeMap<String, Object>(
              m.entrySet().stream()
                  .collect(
                      java.util.stream.Collectors.toMap(
                          e -> String.valueOf(e.getKey()),
                          e -> e.getValue() == null ? NULL : e.getValue())))
          .forEach((k, x) -> b.append(k).append('=').append(canon(x)).append(','));
      return b.append('}').toString();
    }
    if (v instanceof List<?> l) {
      StringBuilder b = new StringBuilder("[");
      l.forEach(x -> b.append(canon(x)).append(','));
      return b.append(']').toString();
    }
    if (v == null || v == NULL) {
      return "null";
    }
    if (v.getClass().isArray()) {
      List<Object> items = new ArrayList<>();
      for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
        items.add(java.lang.reflect.Array.get(v, i));
      }
      return "array" + canon(items);
    }
    return v.getClass().getSimpleName() + ":" + v;
  }

  private static final Object NULL = new Object();

  /** Rows with the graph's own write times replaced (they are the clock's, not the data's). */
  private static Object normalise(Object v, Instant started) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), normalise(x, started)));
      return out;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(x -> normalise(x, started)).toList();
    }
    if (v instanceof String s && s.length() >= 20 && s.charAt(4) == '-' && s.contains("T")) {
      try {
        Instant t = java.time.OffsetDateTime.parse(s).toInstant();
        return t.isBefore(started.minusSeconds(60)) ? s : "<written>";
      } catch (DateTimeParseException notATime) {
        return s;
      }
    }
    return v;
  }

  // ---------------------------------------------------------------------------------------------
  // Deliveries made from the items (their texts stay in memory; only hashes are written).

  private static List<Delivery> deliveries(List<JsonNode> issues, List<JsonNode> changes) {
    List<Delivery> out = new ArrayList<>();
    Map<String, List<Integer>> issueNumbers = new TreeMap<>();
    for (int i = 0; i < issues.size(); i++) {
      JsonNode item = issues.get(i);
      String repo = item.path("repo").asText();
      int number = item.path("number").asInt();
      issueNumbers.computeIfAbsent(repo, r -> new ArrayList<>()).add(number);
      long created = BASE.toEpochMilli() + (i * 7919L % 700) * DAY;
      out.add(issue(item, "opened", "open", created, created, i));
      if (i % 3 == 0) {
        out.add(comment(repo, number, 1_000_000L + i, created + 2 * DAY, i));
      }
      if (i % 5 == 0) {
        out.add(issue(item, "closed", "closed", created, created + 9 * DAY, i));
      }
    }
    for (int i = 0; i < changes.size(); i++) {
      JsonNode item = changes.get(i);
      String repo = item.path("repo").asText();
      List<Integer> targets = issueNumbers.getOrDefault(repo, List.of());
      Integer fixes = i % 4 == 0 && !targets.isEmpty() ? targets.get(i % targets.size()) : null;
      long at = BASE.toEpochMilli() + (i * 104729L % 720) * DAY;
      out.add(pullRequest(item, 900_000 + i, fixes, at));
    }
    for (String repo : issueNumbers.keySet()) {
      for (int k = 0; k < 3; k++) {
        out.add(release(repo, "v0." + k + ".0", BASE.toEpochMilli() + (120L + 240L * k) * DAY));
      }
    }
    return out;
  }

  private static Delivery issue(
      JsonNode item, String action, String state, long created, long updated, int i) {
    String repo = item.path("repo").asText();
    int number = item.path("number").asInt();
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", action);
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", item.path("title").asText());
    issue.put("body", item.path("text").asText());
    issue.put("state", state);
    issue.put("html_url", "https://github.com/" + repo + "/issues/" + number);
    issue.putObject("user").put("login", "reporter-" + (i % 17));
    ArrayNode labels = issue.putArray("labels");
    item.path("labels").forEach(l -> labels.addObject().put("name", l.asText()));
    issue.put("created_at", Instant.ofEpochMilli(created).toString());
    issue.put("updated_at", Instant.ofEpochMilli(updated).toString());
    if (state.equals("closed")) {
      issue.put("closed_at", Instant.ofEpochMilli(updated).toString());
    } else {
      issue.putNull("closed_at");
    }
    payload.putObject("repository").put("full_name", repo);
    return delivery("issues", action, repo, payload, updated, "i" + i + action);
  }

  private static final String[] COMMENTS = {
    "Same here after the upgrade; it hangs at the first all-reduce with 8 ranks.",
    "Could you share the full stack trace and the launcher command?",
    "This is fixed on main now, please try the nightly build.",
    "We see an out-of-memory error on the second node only, the first is fine.",
  };

  private static Delivery comment(String repo, int number, long commentId, long at, int i) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "created");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", "t");
    issue.put("state", "open");
    issue.put("created_at", Instant.ofEpochMilli(at - 2 * DAY).toString());
    issue.put("updated_at", Instant.ofEpochMilli(at).toString());
    ObjectNode comment = payload.putObject("comment");
    comment.put("id", commentId);
    comment.put("body", COMMENTS[i % COMMENTS.length]);
    comment.put("author_association", i % 2 == 0 ? "MEMBER" : "NONE");
    comment.putObject("user").put("login", "commenter-" + (i % 5));
    comment.put("created_at", Instant.ofEpochMilli(at).toString());
    comment.put("updated_at", Instant.ofEpochMilli(at).toString());
    payload.putObject("repository").put("full_name", repo);
    return delivery("issue_comment", "created", repo, payload, at, "c" + i);
  }

  private static Delivery pullRequest(JsonNode item, int number, Integer fixes, long at) {
    String repo = item.path("repo").asText();
    int given = item.path("number").asInt();
    int n = given > 0 ? given : number;
    String body = item.path("text").asText() + (fixes == null ? "" : "\n\nFixes #" + fixes);
    int lines = item.path("lines_changed").asInt(8);
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "closed");
    payload.put("number", n);
    ObjectNode pr = payload.putObject("pull_request");
    pr.put("number", n);
    pr.put("title", item.path("title").asText());
    pr.put("body", body);
    pr.put("state", "closed");
    pr.put("merged", true);
    pr.put("merged_at", Instant.ofEpochMilli(at).toString());
    pr.put("created_at", Instant.ofEpochMilli(at - DAY).toString());
    pr.put("updated_at", Instant.ofEpochMilli(at).toString());
    pr.put("additions", lines - lines / 3);
    pr.put("deletions", lines / 3);
    pr.put("changed_files", item.path("files_changed").asInt(1));
    pr.put("html_url", "https://github.com/" + repo + "/pull/" + n);
    pr.putObject("user").put("login", "author-" + (number % 7));
    payload.putObject("repository").put("full_name", repo);
    return delivery("pull_request", "closed", repo, payload, at, "p" + number);
  }

  private static Delivery release(String repo, String tag, long at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "published");
    ObjectNode release = payload.putObject("release");
    release.put("tag_name", tag);
    release.put("published_at", Instant.ofEpochMilli(at).toString());
    release.put("created_at", Instant.ofEpochMilli(at).toString());
    release.put("prerelease", false);
    release.put("html_url", "https://github.com/" + repo + "/releases/tag/" + tag);
    payload.putObject("repository").put("full_name", repo);
    return delivery("release", "published", repo, payload, at, "r" + repo + tag);
  }

  private static Delivery delivery(
      String event, String action, String repo, ObjectNode payload, long at, String id) {
    return new Delivery(
        "pin-" + id,
        event,
        action,
        repo,
        Instant.ofEpochMilli(at),
        DeliverySource.WEBHOOK,
        payload.toString());
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  private static String sha(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
