package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.infra.local.StackClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * The similar-issues benchmark against a running {@code ./faultline local}
 * (docs/similar-issues.md):
 *
 * <ul>
 *   <li>{@code load}: the labelled corpus ({@code dev.jsonl}, the training issues and changes) sent
 *       to the stack's receiver as signed webhook deliveries ({@link CorpusDeliveries}), then waits
 *       until the graph holds every issue in its last state;
 *   <li>{@code pool}: for the query issues of a split, the top 10 of every method, written as the
 *       pairs not judged yet (ids only) for a grader;
 *   <li>{@code pairs}: those pairs with both excerpts, read from the data at run time, in a
 *       shuffled order and without the methods that found them, for the grader to read;
 *   <li>{@code score}: nDCG@5 and precision@5 (grade &ge; 1) of every method on a split's judged
 *       queries;
 *   <li>{@code sweep}: the fusion's settings tried on a split's judgments (the training queries:
 *       the defaults of {@code similar-issues} were chosen there).
 * </ul>
 *
 * Run with the test classpath of {@code infra}: {@code java -cp ...
 * dev.faultline.infra.bench.SimilarIssuesBenchmark score --split dev --stack .faultline-sim
 * --http-port 18080 --bolt-port 17687}. The latency figure is {@link SimilarIssuesLatency}.
 */
public final class SimilarIssuesBenchmark {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Query issues per split: bug reports drawn with this seed. */
  static final long SEED = 35;

  private final Map<String, String> options;
  private final Path data;

  private SimilarIssuesBenchmark(Map<String, String> options) {
    this.options = options;
    this.data = Path.of(options.getOrDefault("data", "../shared"));
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println(
          "usage: SimilarIssuesBenchmark load|pool|pairs|score|sweep [--split train|dev]"
              + " [--queries N] [--stack DIR] [--http-port N] [--bolt-port N] [--data DIR]"
              + " [--judgments FILE] [--param name=value ...]");
      System.exit(2);
    }
    Map<String, String> options = new LinkedHashMap<>();
    List<String> params = new ArrayList<>();
    for (int i = 1; i < args.length; i += 2) {
      String key = args[i].replaceFirst("^--", "");
      if (key.equals("param")) {
        params.add(args[i + 1]);
      } else {
        options.put(key, args[i + 1]);
      }
    }
    options.put("params", String.join("\n", params));
    SimilarIssuesBenchmark bench = new SimilarIssuesBenchmark(options);
    switch (args[0]) {
      case "load" -> bench.load();
      case "pool" -> bench.pool();
      case "pairs" -> bench.pairs();
      case "score" -> bench.score();
      case "sweep" -> bench.sweep();
      default -> throw new IllegalArgumentException("unknown command " + args[0]);
    }
  }

  // ---- the corpus ---------------------------------------------------------------------------

  /** Every record of the corpus: dev first, then the training issues and changes. */
  List<JsonNode> corpus() throws IOException {
    List<JsonNode> out = new ArrayList<>(records("eval/dev.jsonl"));
    out.addAll(records("train/issues.jsonl"));
    out.addAll(records("train/changes.jsonl"));
    return out;
  }

  List<JsonNode> records(String file) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(data.resolve(file), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  /** The split's query issues: its bug reports (not pull requests), shuffled with {@link #SEED}. */
  List<String> queries(String split) throws IOException {
    String file = split.equals("dev") ? "eval/dev.jsonl" : "train/issues.jsonl";
    List<String> ids = new ArrayList<>();
    for (JsonNode r : records(file)) {
      if (r.path("gold").path("kind").asText().equals("BUG")
          && !r.path("url").asText().contains("/pull/")) {
        ids.add(r.path("repo").asText() + "#" + r.path("number").asInt());
      }
    }
    Collections.sort(ids);
    Collections.shuffle(ids, new Random(SEED));
    int n = Integer.parseInt(options.getOrDefault("queries", split.equals("dev") ? "40" : "30"));
    return ids.subList(0, Math.min(n, ids.size()));
  }

  // ---- the stack ----------------------------------------------------------------------------

  private Properties secrets() throws IOException {
    Properties p = new Properties();
    Path dir = Path.of(options.getOrDefault("stack", ".faultline"));
    try (InputStream in = new FileInputStream(dir.resolve("secrets.properties").toFile())) {
      p.load(in);
    }
    return p;
  }

  Driver driver() throws IOException {
    String password = secrets().getProperty("neo4j.password");
    return GraphDatabase.driver(
        "bolt://127.0.0.1:" + options.getOrDefault("bolt-port", "7687"),
        AuthTokens.basic("neo4j", password));
  }

  private void load() throws Exception {
    Properties s = secrets();
    StackClient client =
        new StackClient(
            Integer.parseInt(options.getOrDefault("http-port", "8080")),
            URI.create("http://127.0.0.1:" + options.getOrDefault("neo4j-http-port", "7474")),
            s.getProperty("neo4j.password"),
            s.getProperty("webhook.secret"));
    CorpusDeliveries deliveries = new CorpusDeliveries(JSON);
    Map<String, Long> lastChange = new TreeMap<>();
    int sent = 0;
    long start = System.nanoTime();
    for (JsonNode r : corpus()) {
      java.util.Optional<CorpusDeliveries.Item> made = deliveries.of(r);
      if (made.isEmpty()) {
        continue;
      }
      CorpusDeliveries.Item item = made.get();
      for (CorpusDeliveries.Delivery d : item.deliveries()) {
        var response = client.deliver(d.event(), d.id(), d.body());
        if (response.statusCode() / 100 != 2) {
          throw new IllegalStateException(
              d.id() + " answered " + response.statusCode() + ": " + response.body());
        }
        sent++;
      }
      if (!item.pullRequest()) {
        lastChange.put(item.id(), item.lastChange());
      }
      if (sent % 500 < item.deliveries().size()) {
        System.out.printf(Locale.ROOT, "  %,d deliveries sent%n", sent);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%,d deliveries of %,d issues sent in %.0f s; waiting for the graph%n",
        sent,
        lastChange.size(),
        (System.nanoTime() - start) / 1e9);
    try (Driver driver = driver()) {
      waitForIssues(driver, lastChange);
    }
  }

  private static void waitForIssues(Driver driver, Map<String, Long> lastChange)
      throws InterruptedException {
    List<Map<String, Object>> rows = new ArrayList<>();
    lastChange.forEach((id, at) -> rows.add(Map.of("id", id, "at", at)));
    long deadline = System.nanoTime() + 3_600_000_000_000L;
    long done = 0;
    while (System.nanoTime() < deadline) {
      try (var session = driver.session()) {
        done =
            session
                .run(
                    "UNWIND $rows AS row MATCH (i:Issue {id: row.id})"
                        + " WHERE i.stateVersion >= row.at AND i.classifierVersion IS NOT NULL"
                        + " RETURN count(i) AS n",
                    Map.of("rows", rows))
                .single()
                .get("n")
                .asLong();
      }
      System.out.printf(
          Locale.ROOT, "  %,d of %,d issues in their last state%n", done, rows.size());
      if (done == rows.size()) {
        return;
      }
      Thread.sleep(10_000);
    }
    throw new IllegalStateException("only " + done + " of " + rows.size() + " issues arrived");
  }

  // ---- methods and judgments ----------------------------------------------------------------

  /** The settings given with {@code --param name=value}, over the query's defaults. */
  Map<String, String> overrides() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String p : options.get("params").split("\n")) {
      if (!p.isBlank()) {
        m.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
      }
    }
    return m;
  }

  Path judgmentsFile(String split) {
    return Path.of(
        options.getOrDefault(
            "judgments", "infra/src/test/resources/similar/judgments-" + split + ".tsv"));
  }

  private void pool() throws Exception {
    String split = options.getOrDefault("split", "train");
    Judgments judged = Judgments.read(judgmentsFile(split));
    Path out = Path.of(options.getOrDefault("out", "target/similar/pool-" + split + ".tsv"));
    Files.createDirectories(out.getParent());
    List<String> lines = new ArrayList<>();
    int pairs = 0;
    try (Driver driver = driver()) {
      SimilarMethods methods = new SimilarMethods(driver, overrides());
      int depth = Integer.parseInt(options.getOrDefault("depth", "10"));
      List<String> names =
          options.containsKey("methods")
              ? List.of(options.get("methods").split(","))
              : methods.names();
      for (String q : queries(split)) {
        Map<String, Set<String>> found = new LinkedHashMap<>();
        for (String method : names) {
          for (String c : methods.top(method, q, depth)) {
            found.computeIfAbsent(c, k -> new LinkedHashSet<>()).add(method);
          }
        }
        for (var e : found.entrySet()) {
          pairs++;
          if (judged.grade(q, e.getKey()) == null) {
            lines.add(q + "\t" + e.getKey() + "\t" + String.join(",", e.getValue()));
          }
        }
      }
    }
    Files.write(out, lines, StandardCharsets.UTF_8);
    System.out.printf(
        Locale.ROOT,
        "%s: %,d pooled pairs, %,d not judged yet -> %s%n",
        split,
        pairs,
        lines.size(),
        out);
  }

  private void pairs() throws Exception {
    String split = options.getOrDefault("split", "train");
    Path pool = Path.of(options.getOrDefault("pool", "target/similar/pool-" + split + ".tsv"));
    Map<String, JsonNode> byId = new LinkedHashMap<>();
    for (JsonNode r : corpus()) {
      byId.put(r.path("repo").asText() + "#" + r.path("number").asInt(), r);
    }
    Map<String, List<String>> perQuery = new LinkedHashMap<>();
    for (String line : Files.readAllLines(pool)) {
      String[] f = line.split("\t");
      perQuery.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1]);
    }
    int chars = Integer.parseInt(options.getOrDefault("chars", "900"));
    for (var e : perQuery.entrySet()) {
      List<String> candidates = new ArrayList<>(e.getValue());
      Collections.shuffle(candidates, new Random(e.getKey().hashCode()));
      System.out.println("=== QUERY " + e.getKey());
      System.out.println(excerpt(byId.get(e.getKey()), 2_000));
      for (String c : candidates) {
        System.out.println("--- CANDIDATE " + c);
        System.out.println(excerpt(byId.get(c), chars));
      }
    }
  }

  private static String excerpt(JsonNode r, int chars) {
    if (r == null) {
      return "(not in the corpus)";
    }
    String t = r.path("text").asText("");
    return t.length() > chars ? t.substring(0, chars) + " [...]" : t;
  }

  private void score() throws Exception {
    String split = options.getOrDefault("split", "dev");
    Judgments judged = Judgments.read(judgmentsFile(split));
    List<String> queries = queries(split);
    try (Driver driver = driver()) {
      SimilarMethods methods = new SimilarMethods(driver, overrides());
      System.out.printf(
          Locale.ROOT,
          "%s: %d query issues, %,d judged pairs (grader: %s)%n",
          split,
          queries.size(),
          judged.size(),
          judged.grader());
      System.out.println(
          "| method (top 5) | nDCG@5 (90% interval) | precision@5, grade >= 1 (90% interval)"
              + " | not judged in top 5 |");
      System.out.println("|---|---|---|---|");
      for (String method : methods.names()) {
        Figures f = figures(methods, method, queries, judged);
        double[] n = bootstrap(f.perQueryNdcg());
        double[] p = bootstrap(f.perQueryPrecision());
        System.out.printf(
            Locale.ROOT,
            "| %s | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %d |%n",
            method,
            f.ndcg(),
            n[0],
            n[1],
            f.precision(),
            p[0],
            p[1],
            f.unjudged());
      }
    }
  }

  /**
   * nDCG@5, precision@5 and the unjudged results of one method over the queries, with each query's
   * figures for the interval.
   */
  record Figures(
      double ndcg,
      double precision,
      int unjudged,
      double[] perQueryNdcg,
      double[] perQueryPrecision) {}

  /**
   * The 5th and 95th percentiles of the mean over queries resampled with replacement (percentile
   * bootstrap, Efron and Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13), 2,000
   * resamples with a fixed seed.
   */
  static double[] bootstrap(double[] perQuery) {
    Random random = new Random(SEED);
    double[] means = new double[2_000];
    for (int b = 0; b < means.length; b++) {
      double sum = 0;
      for (int i = 0; i < perQuery.length; i++) {
        sum += perQuery[random.nextInt(perQuery.length)];
      }
      means[b] = sum / perQuery.length;
    }
    java.util.Arrays.sort(means);
    return new double[] {
      means[(int) (0.05 * means.length)], means[(int) (0.95 * means.length) - 1]
    };
  }

  static Figures figures(
      SimilarMethods methods, String method, List<String> queries, Judgments judged) {
    double ndcg = 0;
    double precision = 0;
    int unjudged = 0;
    double[] perNdcg = new double[queries.size()];
    double[] perPrecision = new double[queries.size()];
    int index = 0;
    for (String q : queries) {
      List<String> top = methods.top(method, q, 5);
      List<Integer> grades = new ArrayList<>();
      for (String c : top) {
        Integer g = judged.grade(q, c);
        if (g == null) {
          unjudged++;
        }
        grades.add(g == null ? 0 : g);
      }
      perNdcg[index] = Ranking.ndcg(grades, judged.grades(q), 5);
      perPrecision[index] = grades.stream().filter(g -> g >= 1).count() / 5.0;
      ndcg += perNdcg[index];
      precision += perPrecision[index];
      index++;
    }
    return new Figures(
        ndcg / queries.size(), precision / queries.size(), unjudged, perNdcg, perPrecision);
  }

  private void sweep() throws Exception {
    String split = options.getOrDefault("split", "train");
    Judgments judged = Judgments.read(judgmentsFile(split));
    List<String> queries = queries(split);
    try (Driver driver = driver()) {
      for (Map<String, String> setting :
          SweepGrid.settings(options.getOrDefault("grid", "fusion"))) {
        Map<String, String> params = new LinkedHashMap<>(overrides());
        params.putAll(setting);
        SimilarMethods methods = new SimilarMethods(driver, params);
        Figures f = figures(methods, "fusion", queries, judged);
        System.out.printf(
            Locale.ROOT, "%.4f\t%.4f\t%d\t%s%n", f.ndcg(), f.precision(), f.unjudged(), setting);
      }
    }
  }

  /** The library the methods run, on the stack's graph. */
  static QueryLibrary library(Driver driver) {
    return new QueryLibrary(driver, "neo4j");
  }
}
