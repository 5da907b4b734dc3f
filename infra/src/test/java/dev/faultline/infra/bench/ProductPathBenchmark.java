package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.cli.Cli;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import dev.faultline.infra.relabel.ScopedHistory;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * The share estimates as a user gets them, scored against labels the product never saw (issue #31,
 * item 5). A benchmark, not a test: it prints Markdown tables and asserts nothing.
 *
 * <p>The issues of {@code ../shared/eval/dev.jsonl} (the learned layer never saw them; the merged
 * pull requests of the file are left out: they become PullRequest nodes, which {@code
 * category-shares} does not count) are delivered as GitHub would have sent them ({@link
 * #deliveries}: opened with the opening post, a comment event per later post, closed) to the real
 * stack in this JVM (Kafka, Neo4j, the live issue pipeline on a Flink MiniCluster), each opened on
 * a day of 2025 drawn by this harness. Then, phase by phase, the library's {@code category-shares}
 * query is run through the CLI ({@code faultline query}) over the whole year, each framework, and
 * the first half-year, for symptom and stage, without a validation sample and with {@code --draws}
 * samples of {@code --sample} issues drawn by {@code faultline sample draw} (a new seed each),
 * labelled by this harness from the gold file and recorded with {@code faultline sample import}:
 *
 * <ol>
 *   <li><b>learned</b>: every issue labelled by the default tier;
 *   <li><b>mixed tiers</b>: the second largest framework relabelled by the rules ({@code reclassify
 *       --framework}, rules tier), the third by a language model whose answers are the gold labels
 *       with each dimension replaced, with probability {@code --llm-error}, by another code drawn
 *       by this harness ({@code llm import}, {@code llm push}, {@code reclassify} with the tier on;
 *       the endpoint fails every request, so only the pushed answers label);
 *   <li><b>growing</b>: as 2, and after each draw {@code --growth} more issues (held back until
 *       then, created inside the sample's scope) are delivered before the queries: the population
 *       grew after the draw.
 * </ol>
 *
 * In every labelled sample a person leaves the symptom of an issue of another kind empty (there is
 * none) and, for a tenth of the drawn issues chosen by this harness, the stage (partial labels).
 * The truth of a scope is the gold shares among the gold bug reports of the issues the graph puts
 * in it (membership is the graph's; the labels are the gold file's; nothing is drawn by the code
 * under test). Scored per row: the share error (total variation distance over known codes) and
 * whether the 90% share interval holds the true share, per band of true share, codes absent from
 * the scope included.
 *
 * <p>Run: {@code infra/run-product-path-benchmark} (docs/estimates.md).
 */
public final class ProductPathBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "product-path-bench-pw";
  private static final String MODEL = "bench-model";
  private static final String[] DIMENSIONS = {"symptom", "stage"};
  static final String[] BANDS = {"absent", "< 5%", "5–15%", "≥ 15%"};

  /** One gold issue of the file and the creation day this harness gave it. */
  record Gold(String url, String id, JsonNode record, JsonNode gold, LocalDate created) {}

  private final Map<String, String> opt;
  private final Map<String, Gold> byId = new LinkedHashMap<>();
  private final Map<String, Tally> tallies = new TreeMap<>();
  private final Map<String, TrendTally> trendTallies = new TreeMap<>();
  private final StringBuilder log = new StringBuilder();
  private Map<String, String> env;
  private String[] conn;
  private Driver driver;

  ProductPathBenchmark(Map<String, String> opt) {
    this.opt = opt;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--dev", "../shared/eval/dev.jsonl");
    opt.put("--draws", "8");
    opt.put("--sample", "80");
    opt.put("--growth", "4");
    opt.put("--llm-error", "0.15");
    opt.put("--seed", "31");
    opt.put("--output", "target/product-path-bench.md");
    opt.put("--dump", "");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!opt.containsKey(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + " (" + opt.keySet() + ")");
      }
      opt.put(args[i], args[i + 1]);
    }
    ProductPathBenchmark b = new ProductPathBenchmark(opt);
    String md = b.run();
    System.out.println(md);
    Path out = Path.of(opt.get("--output"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, md, StandardCharsets.UTF_8);
    System.exit(0);
  }

  // ---- the run ----

  String run() throws Exception {
    List<Gold> issues = readGold(Path.of(opt.get("--dev")), Long.parseLong(opt.get("--seed")));
    int draws = Integer.parseInt(opt.get("--draws"));
    int growth = Integer.parseInt(opt.get("--growth"));
    int held = Math.min(issues.size() / 4, draws * growth);
    List<Gold> first = issues.subList(0, issues.size() - held);
    List<Gold> later = issues.subList(issues.size() - held, issues.size());
    Path dir = Files.createTempDirectory("faultline-product-path");
    HttpServer endpoint = failingEndpoint();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(dir.resolve("neo4j"), 0, 0, PASSWORD);
        Driver d =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
      driver = d;
      stack(kafka, neo4j);
      JobClient live = liveJob();
      deliver(producer, first);
      progress("phase learned: %d issues delivered and labelled", first.size());
      dump(opt.get("--dump"));
      phase("learned", draws, List.of(), producer);
      List<String> frameworks = frameworks();
      String rules = frameworks.size() > 1 ? frameworks.get(1) : null;
      String llm = frameworks.size() > 2 ? frameworks.get(2) : null;
      mixTiers(rules, llm, dir, endpoint, kafka);
      phase("mixed tiers", draws, List.of(), producer);
      phase("growing", draws, later, producer);
      live.cancel().get();
      return report(first.size(), later.size(), rules, llm);
    } finally {
      endpoint.stop(0);
    }
  }

  private void stack(EmbeddedKafka kafka, EmbeddedNeo4j neo4j) throws Exception {
    kafka.createTopics(
        2,
        Arrays.stream(Topic.values())
            .filter(t -> t != Topic.LLM_ANSWERS)
            .map(Topic::topicName)
            .toList());
    new GraphSchema(driver, "neo4j").migrate();
    conn =
        ScopedHistory.conn(
            kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);
    env = new HashMap<>();
    env.put("FAULTLINE_NEO4J_URI", neo4j.boltUri().toString());
    env.put("FAULTLINE_NEO4J_USER", EmbeddedNeo4j.USER);
    env.put("FAULTLINE_NEO4J_PASSWORD", PASSWORD);
  }

  /** The live issue pipeline on this JVM's mini cluster, the default (learned) tier. */
  private JobClient liveJob() throws Exception {
    String[] flags = {
      "--group-id", "live", "--checkpoint-interval-ms", "1000", "--sink-flush-ms", "200"
    };
    JobConfig config = JobConfig.fromArgs(concat(flags, conn), Map.of());
    StreamExecutionEnvironment e = StreamExecutionEnvironment.getExecutionEnvironment();
    IssuePipelineJob.build(e, config);
    return e.executeAsync("live");
  }

  /**
   * One phase: the queries without a sample, then per draw a new sample (and, while growing, the
   * next held-back issues delivered after it) and the queries again.
   */
  private void phase(String name, int draws, List<Gold> later, KafkaProducer<String, byte[]> p)
      throws Exception {
    if (later.isEmpty()) {
      clearSamples(); // the previous phase's last sample must not serve "no sample"
      measure(name, false);
    }
    int growth = later.isEmpty() ? 0 : later.size() / draws;
    for (int k = 0; k < draws; k++) {
      clearSamples();
      draw(name, k);
      if (growth > 0) {
        deliver(p, later.subList(k * growth, (k + 1) * growth));
      }
      measure(name, true);
      progress("phase %s: draw %d of %d measured", name, k + 1, draws);
    }
  }

  // ---- the gold file and the deliveries ----

  /** The file's issues (not its pull requests) in an order and with creation days of 2025. */
  static List<Gold> readGold(Path file, long seed) throws Exception {
    List<Gold> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode r = JSON.readTree(line);
      String url = r.path("url").asText();
      if (!url.contains("/issues/")) {
        continue;
      }
      String id = r.path("repo").asText() + "#" + r.path("number").asInt();
      out.add(new Gold(url, id, r, r.path("gold"), null));
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Gold> shuffled = new ArrayList<>();
    for (int i = out.size() - 1; i >= 0; i--) {
      shuffled.add(out.remove(rnd.nextInt(i + 1)));
    }
    List<Gold> dated = new ArrayList<>();
    for (Gold g : shuffled) {
      LocalDate day = LocalDate.of(2025, 1, 1).plusDays(rnd.nextInt(365));
      dated.add(new Gold(g.url(), g.id(), g.record(), g.gold(), day));
    }
    return dated;
  }

  private void deliver(KafkaProducer<String, byte[]> producer, List<Gold> issues) throws Exception {
    for (Gold g : issues) {
      byId.put(g.id().toLowerCase(Locale.ROOT), g);
      for (Delivery d : deliveries(g)) {
        ScopedHistory.send(producer, d);
      }
    }
    long want = byId.size();
    long deadline = System.nanoTime() + 600_000_000_000L;
    while (settled() < want) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(settled() + " of " + want + " issues settled in 10 min");
      }
      Thread.sleep(500);
    }
  }

  /**
   * Writes, per issue in the graph, the stored kind, symptom and stage distributions and what they
   * rest on (one JSON object a line), for a comparison with the classifier's direct output ({@code
   * ProductScopeCheck} in the estimate module's benchmarks); nothing when {@code file} is empty.
   */
  private void dump(String file) throws Exception {
    if (file.isEmpty()) {
      return;
    }
    StringBuilder b = new StringBuilder();
    for (Map<String, Object> r :
        driver
            .session()
            .run(
                "MATCH (i:Issue) RETURN i.id AS id, i.kind AS kind,"
                    + " i.kindProbabilities AS kindP, i.kindCalibration AS kindCal,"
                    + " i.symptomProbabilities AS symptomP, i.symptomCalibration AS symptomCal,"
                    + " i.stageProbabilities AS stageP, i.stageCalibration AS stageCal ORDER BY id")
            .list(r -> r.asMap())) {
      b.append(JSON.writeValueAsString(r)).append('\n');
    }
    Path out = Path.of(file);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, b, StandardCharsets.UTF_8);
    progress("graph's distributions written to %s", out);
  }

  /**
   * Issues labelled after their last delivery (the issue's state version, the newest change the
   * pipeline folded, at its last comment or its closing): a label of the opening post alone is not
   * scored.
   */
  private long settled() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Gold g : byId.values()) {
      List<Delivery> d = deliveries(g);
      long last = changedAt(d.get(d.size() - 1));
      rows.add(Map.of("id", g.id().toLowerCase(Locale.ROOT), "last", last));
    }
    return driver
        .session()
        .run(
            "UNWIND $rows AS r MATCH (i:Issue) WHERE toLower(i.id) = r.id AND i.kind IS NOT NULL"
                + " AND i.stateVersion >= r.last RETURN count(i) AS n",
            Map.of("rows", rows))
        .single()
        .get("n")
        .asLong();
  }

  /** When a delivery changed its issue: the payload's issue {@code updated_at}, in milliseconds. */
  static long changedAt(Delivery d) {
    try {
      String at = JSON.readTree(d.getPayloadJson()).path("issue").path("updated_at").asText();
      return Instant.parse(at).toEpochMilli();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A gold issue as GitHub would have delivered it ({@link CorpusDeliveries}): "opened" with the
   * title, labels and opening post as the body, one "issue_comment created" per later post and
   * "closed" when the issue is closed, the thread moved to open on the day this harness drew. The
   * classifier then reads the thread as {@code faultline classify} reads the record (the opening
   * post, the comments, the state), not the whole excerpt as one body.
   */
  static List<Delivery> deliveries(Gold g) {
    List<Delivery> out = new ArrayList<>();
    for (CorpusDeliveries.Delivery d :
        new CorpusDeliveries(JSON).issueOpenedOn(g.record(), g.created()).deliveries()) {
      JsonNode payload;
      try {
        payload = JSON.readTree(d.body());
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
      out.add(
          new Delivery(
              d.id(),
              d.event(),
              payload.path("action").asText(),
              g.record().path("repo").asText(),
              Instant.now(),
              DeliverySource.WEBHOOK,
              new String(d.body(), StandardCharsets.UTF_8)));
    }
    return out;
  }

  /** Frameworks by their number of issues in the graph, largest first. */
  private List<String> frameworks() {
    return driver
        .session()
        .run(
            "MATCH (i:Issue) WHERE i.framework IS NOT NULL"
                + " RETURN i.framework AS f, count(i) AS n ORDER BY n DESC, f")
        .list(r -> r.get("f").asString());
  }

  // ---- the tiers ----

  private void mixTiers(String rules, String llm, Path dir, HttpServer endpoint, EmbeddedKafka k)
      throws Exception {
    if (rules != null) {
      System.setProperty("faultline.classifier.tier", "rules");
      try {
        cli(
            concat(
                new String[] {
                  "reclassify",
                  "--framework",
                  rules,
                  "--report-dir",
                  dir.resolve("rules-report").toString()
                },
                conn));
      } finally {
        System.clearProperty("faultline.classifier.tier");
      }
      progress("%s relabelled by the rules", rules);
    }
    if (llm == null) {
      return;
    }
    String prompt = new Prompt(Taxonomy.load(), 0).version();
    SplittableRandom rnd = new SplittableRandom(Long.parseLong(opt.get("--seed")) + 7);
    double error = Double.parseDouble(opt.get("--llm-error"));
    StringBuilder results = new StringBuilder();
    for (String id : idsOf(llm)) {
      Gold g = byId.get(id.toLowerCase(Locale.ROOT));
      results.append(result(g, prompt, LlmAnswers.answer(g.gold(), error, rnd)));
    }
    Path file = dir.resolve("llm-results.jsonl");
    Files.writeString(file, results);
    Path cache = dir.resolve("llm-cache");
    cli("llm", "import", "--results", file.toString(), "--cache", cache.toString());
    cli("llm", "push", "--cache", cache.toString(), "--kafka-bootstrap", k.bootstrapServers());
    Map<String, String> withLlm = new HashMap<>(env);
    withLlm.put("FAULTLINE_LLM_ENDPOINT", "http://127.0.0.1:" + endpoint.getAddress().getPort());
    withLlm.put("FAULTLINE_LLM_MODEL", MODEL);
    withLlm.put("FAULTLINE_LLM_MAX_RETRIES", "0");
    withLlm.put("FAULTLINE_LLM_TIMEOUT_MS", "5000");
    Map<String, String> before = env;
    env = withLlm;
    try {
      cli(
          concat(
              new String[] {
                "reclassify",
                "--framework",
                llm,
                "--report-dir",
                dir.resolve("llm-report").toString()
              },
              conn));
    } finally {
      env = before;
    }
    LlmAnswers.noteErrors(log, llm, error);
    progress("%s relabelled by the language model's answers", llm);
  }

  private List<String> idsOf(String framework) {
    return driver
        .session()
        .run(
            "MATCH (i:Issue) WHERE i.framework = $f RETURN i.id AS id ORDER BY id",
            Map.of("f", framework))
        .list(r -> r.get("id").asString());
  }

  /** A Batch API output line answering a gold issue, as {@code llm export}'s custom_id names it. */
  private static String result(Gold g, String prompt, ObjectNode answer) {
    String key = AnswerCache.key(prompt, MODEL, "as exported " + g.url());
    ObjectNode o = JSON.createObjectNode();
    o.put("id", "batch_req_" + g.id());
    o.put("custom_id", g.url() + "#" + MODEL + "#" + prompt + "#" + key);
    ObjectNode response = o.putObject("response");
    response.put("status_code", 200);
    ObjectNode body = response.putObject("body");
    body.put("model", MODEL);
    body.putArray("choices")
        .addObject()
        .putObject("message")
        .put("role", "assistant")
        .put("content", answer.toString());
    o.putNull("error");
    return o + "\n";
  }

  private static HttpServer failingEndpoint() throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    s.createContext(
        "/",
        x -> {
          byte[] b = "{\"error\":{\"message\":\"no requests expected\"}}".getBytes();
          x.sendResponseHeaders(500, b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    s.start();
    return s;
  }

  // ---- samples ----

  private void clearSamples() {
    driver.session().run("MATCH (s:ValidationSample) DETACH DELETE s").consume();
  }

  /** A new sample of the year's issues, labelled from the gold file as a person would. */
  private void draw(String phase, int k) throws Exception {
    Path file = Files.createTempFile("sample-", ".jsonl");
    long seed = 1000L * (phase.hashCode() & 0xffff) + k;
    cli(
        "sample",
        "draw",
        "--n",
        opt.get("--sample"),
        "--seed",
        String.valueOf(seed),
        "--since",
        "2025-01-01",
        "--until",
        "2026-01-01",
        "--output",
        file.toString());
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder filled = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      ObjectNode o = (ObjectNode) JSON.readTree(line);
      Gold g = byId.get(o.path("id").asText().toLowerCase(Locale.ROOT));
      SampleLabels.fill(o, g.gold(), rnd);
      filled.append(o).append('\n');
    }
    Files.writeString(file, filled);
    cli("sample", "import", "--labels", file.toString());
  }

  // ---- the queries and their scores ----

  /** Every scope and dimension, scored into the phase's tallies. */
  private void measure(String phase, boolean sampled) throws Exception {
    List<Map<String, String>> scopes = new ArrayList<>();
    scopes.add(scope("year", null, "2025-01-01", "2026-01-01"));
    scopes.add(scope("first half", null, "2025-01-01", "2025-07-01"));
    for (String f : frameworks()) {
      scopes.add(scope("framework", f, "2025-01-01", "2026-01-01"));
    }
    Map<String, String> year = scopes.get(0);
    JsonNode trend = trends(year);
    String trendKey = phase + "|" + (sampled ? "sample " + opt.get("--sample") : "no sample");
    trendTallies
        .computeIfAbsent(trendKey, x -> new TrendTally())
        .add(trend, TrendScore.truth(members(year), trend));
    for (Map<String, String> s : scopes) {
      List<Gold> members = members(s);
      for (String dim : DIMENSIONS) {
        JsonNode rows = query(dim, s);
        double[] truth = ShareScore.truth(members, dim, rows);
        String key =
            phase
                + "|"
                + (sampled ? "sample " + opt.get("--sample") : "no sample")
                + "|"
                + s.get("kind")
                + "|"
                + dim;
        tallies.computeIfAbsent(key, x -> new Tally()).add(rows, truth);
      }
    }
  }

  private static Map<String, String> scope(String kind, String framework, String from, String to) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("kind", kind);
    m.put("framework", framework);
    m.put("from", from);
    m.put("to", to);
    return m;
  }

  /** The gold issues the graph puts in a scope. */
  private List<Gold> members(Map<String, String> s) {
    Map<String, Object> p = new HashMap<>();
    p.put("f", s.get("framework"));
    p.put("from", s.get("from") + "T00:00:00Z");
    p.put("to", s.get("to") + "T00:00:00Z");
    List<String> ids =
        driver
            .session()
            .run(
                "MATCH (i:Issue) WHERE ($f IS NULL OR i.framework = $f)"
                    + " AND i.createdAt >= datetime($from) AND i.createdAt < datetime($to)"
                    + " RETURN i.id AS id",
                p)
            .list(r -> r.get("id").asString());
    List<Gold> out = new ArrayList<>();
    for (String id : ids) {
      Gold g = byId.get(id.toLowerCase(Locale.ROOT));
      if (g != null) {
        out.add(g);
      }
    }
    return out;
  }

  /** {@code category-trends} of the symptom per month over a scope (every framework). */
  private JsonNode trends(Map<String, String> s) throws Exception {
    String out =
        cli(
            "query",
            "category-trends",
            "--format",
            "json",
            "-p",
            "dimension=symptom",
            "-p",
            "from=" + s.get("from") + "T00:00:00Z",
            "-p",
            "to=" + s.get("to") + "T00:00:00Z");
    return JSON.readTree(out.substring(out.indexOf('[')));
  }

  private JsonNode query(String dim, Map<String, String> s) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "query",
                "category-shares",
                "--format",
                "json",
                "-p",
                "dimension=" + dim,
                "-p",
                "from=" + s.get("from") + "T00:00:00Z",
                "-p",
                "to=" + s.get("to") + "T00:00:00Z"));
    if (s.get("framework") != null) {
      args.add("-p");
      args.add("framework=" + s.get("framework"));
    }
    String out = cli(args.toArray(String[]::new));
    return JSON.readTree(out.substring(out.indexOf('[')));
  }

  // ---- the CLI in this JVM ----

  private String cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    int rc = Cli.execute(Faultline.commandLine(env), args, p, p);
    if (rc != 0) {
      throw new IllegalStateException(
          "faultline " + String.join(" ", args) + " exited " + rc + ":\n" + out);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  static String[] concat(String[] a, String[] b) {
    String[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static KafkaProducer<String, byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  private static void progress(String format, Object... args) {
    System.err.printf(Locale.ROOT, "product-path: " + format + "%n", args);
  }

  // ---- the report ----

  private String report(int first, int later, String rules, String llm) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "## Product path: dev.jsonl's %d issues through the stack (%d first, %d after the draws)%n%n",
            first + later,
            first,
            later));
    md.append(
        String.format(
            Locale.ROOT,
            "Tiers in the mixed phases: %s by the rules, %s by language-model answers with %s of each"
                + " dimension wrong, the rest learned. %s draws of %s issues per phase.%n%n",
            rules,
            llm,
            opt.get("--llm-error"),
            opt.get("--draws"),
            opt.get("--sample")));
    md.append(log);
    md.append(Tally.header());
    tallies.forEach((k, t) -> md.append(t.row(k)));
    md.append(
        "\nShare error: total variation distance over the known codes, mean over scopes and draws."
            + " Coverage: share of (code, scope, draw) whose 90% share interval holds the true"
            + " share, by band of the true share (\"absent\": the code has no gold bug report in"
            + " the scope); '–' no such code; rows without an interval count as misses.\n");
    md.append(TrendTally.header());
    trendTallies.forEach((k, t) -> md.append(t.row(k)));
    md.append(
        "\n`category-trends`, symptom per month over the year: coverage is the share of (month,"
            + " symptom, draw) cells whose 90% count interval holds the true number of gold bug"
            + " reports with the symptom opened in the month (the graph's months), by the true"
            + " count and by the expected count (the row's estimate; banding by the true count"
            + " selects on the outcome, see TrendScore.estimateBand); zero cells included; rows"
            + " without an interval count as misses.\n");
    return md.toString();
  }

  /** Share error and coverage of the rows of one phase × sample × scope kind × dimension. */
  static final class Tally {
    double tvd;
    int scopes;
    final long[] hits = new long[4];
    final long[] total = new long[4];
    final double[] width = new double[4];
    final long[] withoutInterval = new long[4];
    final Set<String> methods = new java.util.TreeSet<>();

    void add(JsonNode rows, double[] truth) {
      scopes++;
      tvd += ShareScore.tvd(rows, truth);
      int k = 0;
      for (JsonNode r : rows) {
        methods.add(r.path("method").asText());
        double t = truth[k++];
        if (Double.isNaN(t)) {
          continue;
        }
        int b = ShareScore.band(t);
        boolean hasInterval = r.path("shareLow").isNumber() && r.path("shareHigh").isNumber();
        double lo = r.path("shareLow").asDouble();
        double hi = r.path("shareHigh").asDouble();
        total[b]++;
        withoutInterval[b] += hasInterval ? 0 : 1;
        // the rows print shares to 4 decimals: a true share within rounding of an end is inside
        if (hasInterval && lo - 5e-5 <= t && t <= hi + 5e-5) {
          hits[b]++;
        }
        width[b] += hasInterval ? hi - lo : 0;
      }
    }

    static String header() {
      return "| phase | sample | scopes | dimension | n | share error | coverage absent | < 5% | 5–15% |"
          + " ≥ 15% | mean width ≥ 15% | rows without an interval | coverage of rows with one |"
          + " methods |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    }

    String row(String key) {
      String[] k = key.split("\\|");
      StringBuilder b = new StringBuilder();
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %d | %.3f |",
              k[0],
              k[1],
              k[2],
              k[3],
              scopes,
              tvd / scopes));
      for (int i = 0; i < 4; i++) {
        b.append(
            total[i] == 0
                ? " – |"
                : String.format(
                    Locale.ROOT, " %.2f (%d) |", hits[i] / (double) total[i], total[i]));
      }
      b.append(total[3] == 0 ? " – |" : String.format(Locale.ROOT, " %.3f |", width[3] / total[3]));
      long all = Arrays.stream(total).sum();
      long without = Arrays.stream(withoutInterval).sum();
      long hit = Arrays.stream(hits).sum();
      b.append(String.format(Locale.ROOT, " %d of %d |", without, all));
      b.append(
          all == without
              ? " – |"
              : String.format(
                  Locale.ROOT, " %.2f (%d) |", hit / (double) (all - without), all - without));
      b.append(' ').append(String.join(", ", methods)).append(" |\n");
      return b.toString();
    }
  }

  /** The true monthly counts of a trend's rows. */
  static final class TrendScore {
    private TrendScore() {}

    /**
     * Per row of the trend (in its order), the number of gold bug reports among the members with
     * the row's symptom opened in the row's month; NaN for codes that are not known.
     */
    static double[] truth(List<Gold> members, JsonNode rows) {
      Map<String, Integer> count = new HashMap<>();
      for (Gold g : members) {
        if ("BUG".equals(g.gold().path("kind").asText())) {
          String month = g.created().withDayOfMonth(1).toString();
          count.merge(month + "|" + g.gold().path("symptom").asText(), 1, Integer::sum);
        }
      }
      double[] t = new double[rows.size()];
      int k = 0;
      for (JsonNode r : rows) {
        String c = r.path("code").asText();
        String month = r.path("period").asText();
        t[k++] =
            ShareScore.NOT_KNOWN.contains(c)
                ? Double.NaN
                : count.getOrDefault(month.substring(0, Math.min(10, month.length())) + "|" + c, 0);
      }
      return t;
    }

    /** Bands of the true monthly count: 0, 1–2, 3 or more. */
    static int band(double count) {
      return count == 0 ? 0 : count < 3 ? 1 : 2;
    }

    /**
     * Bands of the expected monthly count (the row's estimate): under 1, 1 to under 3, 3 or more.
     * Banding by the true count selects on the outcome: a cell lands in "3 or more" more often when
     * its count came out above its expectation, so even exact intervals of calibrated probabilities
     * cover those cells well under 90%; banding by the estimate does not select on the outcome.
     */
    static int estimateBand(double estimate) {
      return estimate < 1 ? 0 : estimate < 3 ? 1 : 2;
    }
  }

  /** Count coverage of a trend's month × symptom cells. */
  static final class TrendTally {
    int runs;
    final long[] hits = new long[3];
    final long[] total = new long[3];
    final double[] width = new double[3];
    final long[] hitsByEstimate = new long[3];
    final long[] totalByEstimate = new long[3];
    long withoutInterval;

    void add(JsonNode rows, double[] truth) {
      runs++;
      int k = 0;
      for (JsonNode r : rows) {
        double t = truth[k++];
        if (Double.isNaN(t)) {
          continue;
        }
        int b = TrendScore.band(t);
        boolean hasInterval = r.path("estimateLow").isNumber() && r.path("estimateHigh").isNumber();
        double lo = r.path("estimateLow").asDouble();
        double hi = r.path("estimateHigh").asDouble();
        int e = TrendScore.estimateBand(r.path("estimate").asDouble());
        total[b]++;
        totalByEstimate[e]++;
        withoutInterval += hasInterval ? 0 : 1;
        // the rows print counts to 1 decimal
        if (hasInterval && lo - 0.05 <= t && t <= hi + 0.05) {
          hits[b]++;
          hitsByEstimate[e]++;
        }
        width[b] += hasInterval ? hi - lo : 0;
      }
    }

    static String header() {
      return "\n| phase | sample | runs | cells | coverage all | true count 0 | 1–2 | ≥ 3 |"
          + " mean width 0 / 1–2 / ≥ 3 | expected count < 1 | 1–3 | ≥ 3 |"
          + " cells without an interval |\n"
          + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    }

    String row(String key) {
      String[] k = key.split("\\|");
      long all = Arrays.stream(total).sum();
      StringBuilder b = new StringBuilder();
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %d | %s |",
              k[0],
              k[1],
              runs,
              all,
              all == 0
                  ? "–"
                  : String.format(Locale.ROOT, "%.2f", Arrays.stream(hits).sum() / (double) all)));
      for (int i = 0; i < 3; i++) {
        b.append(
            total[i] == 0
                ? " – |"
                : String.format(
                    Locale.ROOT, " %.2f (%d) |", hits[i] / (double) total[i], total[i]));
      }
      b.append(' ');
      for (int i = 0; i < 3; i++) {
        b.append(total[i] == 0 ? "–" : String.format(Locale.ROOT, "%.1f", width[i] / total[i]));
        b.append(i < 2 ? " / " : " |");
      }
      for (int i = 0; i < 3; i++) {
        b.append(
            totalByEstimate[i] == 0
                ? " – |"
                : String.format(
                    Locale.ROOT,
                    " %.2f (%d) |",
                    hitsByEstimate[i] / (double) totalByEstimate[i],
                    totalByEstimate[i]));
      }
      b.append(String.format(Locale.ROOT, " %d |%n", withoutInterval));
      return b.toString();
    }
  }

  /** The language model's answers: the gold labels with a known error rate. */
  static final class LlmAnswers {
    private LlmAnswers() {}

    static final List<Dimension> ANSWERED =
        List.of(
            Dimension.KIND,
            Dimension.SYMPTOM,
            Dimension.ROOT_CAUSE,
            Dimension.FIX_PATTERN,
            Dimension.STAGE,
            Dimension.PHASE,
            Dimension.DISTRIBUTED_SPECIFIC);

    /**
     * Each dimension's gold code, replaced with probability {@code error} by another of its codes
     * (uniformly); then made consistent: a kind other than BUG has symptom NONE, a BUG no NONE.
     */
    static ObjectNode answer(JsonNode gold, double error, SplittableRandom rnd) {
      ObjectNode a = JSON.createObjectNode();
      for (Dimension d : ANSWERED) {
        String g = gold.path(d.field()).asText("null");
        String code = g;
        if (rnd.nextDouble() < error) {
          List<String> others = new ArrayList<>(codes(d));
          others.remove(g);
          code = others.get(rnd.nextInt(others.size()));
        }
        a.put(d.field(), code);
      }
      boolean bug = "BUG".equals(a.path("kind").asText());
      if (!bug) {
        a.put("symptom", "NONE");
      } else if ("NONE".equals(a.path("symptom").asText())) {
        List<String> s = new ArrayList<>(codes(Dimension.SYMPTOM));
        s.remove("NONE");
        a.put("symptom", s.get(rnd.nextInt(s.size())));
      }
      String ds = a.path("distributed_specific").asText();
      a.remove("distributed_specific");
      if ("null".equals(ds)) {
        a.putNull("distributed_specific");
      } else {
        a.put("distributed_specific", Boolean.parseBoolean(ds));
      }
      return a;
    }

    static List<String> codes(Dimension d) {
      List<String> c = new ArrayList<>(d.distributionCodes());
      c.remove("UNKNOWN");
      return c;
    }

    static void noteErrors(StringBuilder log, String framework, double error) {
      log.append(
          String.format(
              Locale.ROOT,
              "Language-model answers for %s: each dimension's gold code replaced by another with"
                  + " probability %.2f (drawn by this harness).%n%n",
              framework,
              error));
    }
  }

  /** How the harness fills a drawn sample: as a person would, from the gold labels. */
  static final class SampleLabels {
    private SampleLabels() {}

    /** A tenth of the drawn issues keep their stage empty. */
    static final double SKIP_STAGE = 0.1;

    static void fill(ObjectNode line, JsonNode gold, SplittableRandom rnd) {
      boolean bug = "BUG".equals(gold.path("kind").asText());
      for (Dimension d : LlmAnswers.ANSWERED) {
        String f = d.field();
        JsonNode g = gold.path(f);
        if (d == Dimension.SYMPTOM && !bug) {
          line.put(f, ""); // a question has no symptom: a person leaves it empty
        } else if (d == Dimension.DISTRIBUTED_SPECIFIC) {
          if (g.isNull() || "null".equals(g.asText())) {
            line.putNull(f);
          } else {
            line.put(f, g.asText());
          }
        } else {
          line.put(f, g.asText());
        }
      }
      if (rnd.nextDouble() < SKIP_STAGE) {
        line.put("stage", "");
      }
    }
  }

  /** Truth and error of a scope's rows. */
  static final class ShareScore {
    private ShareScore() {}

    static final Set<String> NOT_KNOWN = Set.of("UNKNOWN", "NONE", "null");

    /**
     * Per row of the query (in its order), the true share of its code among the known codes of the
     * gold bug reports of the scope; NaN for codes that are not known.
     */
    static double[] truth(List<Gold> members, String dim, JsonNode rows) {
      Map<String, Integer> count = new HashMap<>();
      int known = 0;
      for (Gold g : members) {
        if ("BUG".equals(g.gold().path("kind").asText())) {
          String c = g.gold().path(dim).asText();
          if (!NOT_KNOWN.contains(c)) {
            count.merge(c, 1, Integer::sum);
            known++;
          }
        }
      }
      double[] t = new double[rows.size()];
      int k = 0;
      for (JsonNode r : rows) {
        String c = r.path("code").asText();
        t[k++] =
            NOT_KNOWN.contains(c) || known == 0
                ? Double.NaN
                : count.getOrDefault(c, 0) / (double) known;
      }
      return t;
    }

    static double tvd(JsonNode rows, double[] truth) {
      double d = 0;
      int k = 0;
      for (JsonNode r : rows) {
        if (!Double.isNaN(truth[k])) {
          double s = r.path("share").isNumber() ? r.path("share").asDouble() : 0;
          d += Math.abs(s - truth[k]);
        }
        k++;
      }
      return d / 2;
    }

    static int band(double share) {
      return share == 0 ? 0 : share < 0.05 ? 1 : share < 0.15 ? 2 : 3;
    }
  }
}
