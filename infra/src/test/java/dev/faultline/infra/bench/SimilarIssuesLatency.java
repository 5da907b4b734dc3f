package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.dashboard.Dashboard;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.sink.IssueRows;
import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * Lookup latency of similar issues on a graph of synthetic issues (issue #35; 10,000 by default),
 * written the pipeline's way: each invented issue ({@link SyntheticIssues}, a Python traceback in
 * three of five) is classified by the shared learned classifier (so its text vector is the real
 * all-MiniLM-L6-v2 one), mapped by {@link IssueRows} and written by {@link IssueWriter}; a quarter
 * of them are closed by a merged fixing pull request and a third have a maintainer's answer. Then,
 * after a warm-up, it times:
 *
 * <ul>
 *   <li>{@code by issue}: the {@code similar-issues} query for a random issue (the drill-down's
 *       lookup: both indexes, fusion, fixes and answers of the ten found);
 *   <li>{@code pasted text}: {@code POST /api/similar} over HTTP on a real Javalin server with the
 *       dashboard and the real encoder: a new synthetic report is encoded, its error lines found,
 *       both indexes queried, the JSON written (what "find issues like this" costs a user);
 *   <li>{@code today}: the query it replaced (main 240c4b6) by issue, for comparison;
 *   <li>{@code bare index lookups}: the baseline, the two index calls alone with the issue's plain
 *       words and stored vector ({@code bench/bare-index-lookups.cypher}): what the fusion, the
 *       filters, the fixes and the answers add to them.
 * </ul>
 *
 * Printed with the machine's cores and load average. Run (infra test classpath, as the other
 * benchmarks):
 *
 * <pre>
 * java -cp "$CP" dev.faultline.infra.bench.SimilarIssuesLatency [--issues 10000] [--lookups 300] [--seed 35]
 * </pre>
 */
public final class SimilarIssuesLatency {
  private static final String DATABASE = "neo4j";
  private static final int BATCH = 500;
  private static final String[] FRAMEWORKS = {"DeepSpeed", "PyTorch", "Megatron-LM", "vLLM"};
  private static final String[] REPOS = {
    "deepspeedai/DeepSpeed", "pytorch/pytorch", "NVIDIA/Megatron-LM", "vllm-project/vllm"
  };
  private static final String[] ERRORS = {
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:%d, unhandled system error",
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.00 MiB",
    "RuntimeError: Error(s) in loading state_dict for Module: size mismatch for layer %d",
    "AssertionError: micro batch size %d does not divide the global batch size",
    "ImportError: /tmp/fused_adam.so: undefined symbol: _ZN3c10%d",
  };

  private final int issues;
  private final int lookups;
  private final Random random;
  private final SyntheticIssues texts;
  private final Map<String, String> words = new HashMap<>();

  SimilarIssuesLatency(int issues, int lookups, long seed) {
    this.issues = issues;
    this.lookups = lookups;
    this.random = new Random(seed);
    this.texts = new SyntheticIssues(seed);
  }

  public static void main(String[] args) throws Exception {
    int issues = 10_000;
    int lookups = 300;
    long seed = 35;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--issues" -> issues = Integer.parseInt(args[i + 1]);
        case "--lookups" -> lookups = Integer.parseInt(args[i + 1]);
        case "--seed" -> seed = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    new SimilarIssuesLatency(issues, lookups, seed).run();
  }

  void run() throws Exception {
    Path directory = Files.createTempDirectory("faultline-similar-latency");
    try (EmbeddedNeo4j neo4j =
            EmbeddedNeo4j.start(directory, 0, 0, "bench-" + Long.toHexString(System.nanoTime()));
        Driver driver =
            GraphDatabase.driver(
                neo4j.boltUri(), AuthTokens.basic(neo4j.user(), neo4j.password()))) {
      new GraphSchema(driver, DATABASE).migrate();
      long start = System.nanoTime();
      List<String> ids = load(driver);
      System.out.printf(
          Locale.ROOT,
          "%d issues classified, encoded and written in %.0f s%n",
          ids.size(),
          (System.nanoTime() - start) / 1e9);
      QueryLibrary library = new QueryLibrary(driver, DATABASE);
      Dashboard dashboard =
          new Dashboard(
              library, Dashboard.DEFAULT_POLL_INTERVAL, t -> MiniLmEmbedder.shared().embed(t));
      Javalin app =
          Javalin.create(
                  cfg -> {
                    cfg.startup.showJavalinBanner = false;
                    dashboard.register(cfg);
                  })
              .start("127.0.0.1", 0);
      try {
        measure(driver, library, ids, "http://127.0.0.1:" + app.port() + "/api/similar");
      } finally {
        dashboard.close();
        app.stop();
      }
    }
  }

  private void measure(Driver driver, QueryLibrary library, List<String> ids, String url)
      throws Exception {
    String today = resource("/bench/similar-issues-240c4b6.cypher");
    String bare = resource("/bench/bare-index-lookups.cypher");
    HttpClient http = HttpClient.newHttpClient();
    ObjectMapper json = new ObjectMapper();
    long[] byIssue = new long[lookups];
    long[] pasted = new long[lookups];
    long[] before = new long[lookups];
    long[] baseline = new long[lookups];
    int warmUp = 30;
    for (int r = -warmUp; r < lookups; r++) {
      String id = ids.get(random.nextInt(ids.size()));
      long t0 = System.nanoTime();
      library.run("similar-issues", Map.of("issue", id, "limit", "10"));
      long t1 = System.nanoTime();
      Map<String, String> report = new LinkedHashMap<>();
      report.put("title", texts.title());
      report.put("text", body());
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofSeconds(30))
                  .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(report)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      long t2 = System.nanoTime();
      if (response.statusCode() != 200) {
        throw new IllegalStateException(response.body());
      }
      try (var session = driver.session()) {
        session.run(today, Map.of("issue", id, "pastOnly", false, "limit", 10L)).list();
      }
      long t3 = System.nanoTime();
      try (var session = driver.session()) {
        session.run(bare, Map.of("issue", id, "words", words.get(id))).list();
      }
      long t4 = System.nanoTime();
      if (r == -warmUp) {
        System.out.printf(
            Locale.ROOT,
            "first lookups (query planning, encoder loading): by issue %.0f ms, pasted text %.0f"
                + " ms%n",
            (t1 - t0) / 1e6,
            (t2 - t1) / 1e6);
      }
      if (r >= 0) {
        byIssue[r] = t1 - t0;
        pasted[r] = t2 - t1;
        before[r] = t3 - t2;
        baseline[r] = t4 - t3;
      }
    }
    var os = ManagementFactory.getOperatingSystemMXBean();
    System.out.printf(
        Locale.ROOT,
        "%nSimilar-issues lookups on %d issues, %d timed each after %d warm-up; %d cores, load"
            + " average %.1f (ms)%n",
        ids.size(),
        lookups,
        warmUp,
        os.getAvailableProcessors(),
        os.getSystemLoadAverage());
    System.out.printf(Locale.ROOT, "  %-44s %8s %8s %8s%n", "lookup", "p50", "p95", "max");
    print("by issue (similar-issues query)", byIssue);
    print("pasted text (POST /api/similar, encoder incl.)", pasted);
    print("today's query by issue (main 240c4b6)", before);
    print("baseline: bare index lookups by issue", baseline);
  }

  private static void print(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "  %-44s %8.1f %8.1f %8.1f%n",
        name,
        percentile(sorted, 0.50) / 1e6,
        percentile(sorted, 0.95) / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  /** Nearest-rank percentile of sorted values. */
  static long percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Writes the synthetic issues (and fixes) the pipeline's way; returns their ids. */
  private List<String> load(Driver driver) {
    IssueClassification classification = new IssueClassification(LearnedClassifier.shared());
    IssueWriter issueWriter = new IssueWriter(driver, DATABASE);
    PullRequestWriter prWriter = new PullRequestWriter(driver, DATABASE);
    List<String> ids = new ArrayList<>();
    List<IssueRow> rows = new ArrayList<>();
    List<PullRequestRow> fixes = new ArrayList<>();
    long t0 = 1_640_995_200_000L; // 2022-01-01
    for (int n = 1; n <= issues; n++) {
      int f = random.nextInt(FRAMEWORKS.length);
      long created = t0 + (long) n * 3_600_000L * 3;
      boolean fixed = random.nextInt(4) == 0;
      IssueAccumulator acc = issue(REPOS[f], n, created, fixed);
      if (random.nextInt(3) == 0) {
        acc.fold(answer(acc, created + 86_400_000L));
      }
      rows.add(IssueRows.of(classification.classify(acc, created, "bench-" + n)));
      ids.add(acc.issue.id);
      words.put(acc.issue.id, plainWords(acc.issue.title + " " + acc.issue.body));
      if (fixed) {
        fixes.add(fix(REPOS[f], FRAMEWORKS[f], issues + n, acc.issue.id, acc.issue.closedAt));
      }
      if (rows.size() == BATCH || n == issues) {
        issueWriter.write(rows);
        prWriter.write(fixes);
        rows.clear();
        fixes.clear();
        if (n % 2_000 == 0) {
          System.out.printf(Locale.ROOT, "  %,d issues written%n", n);
        }
      }
    }
    return ids;
  }

  private IssueAccumulator issue(String repo, int n, long created, boolean closed) {
    IssueEvent i = new IssueEvent();
    i.id = repo + "#" + n;
    i.repo = repo;
    i.number = n;
    i.title = texts.title();
    i.body = body();
    i.state = closed ? "closed" : "open";
    i.closedAt = closed ? created + 5 * 86_400_000L : null;
    i.url = "https://github.com/" + repo + "/issues/" + n;
    i.author = "reporter" + random.nextInt(500);
    i.createdAt = created;
    i.updatedAt = closed ? i.closedAt : created;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(e);
    return acc;
  }

  private GitHubEvent answer(IssueAccumulator acc, long at) {
    CommentEvent c = new CommentEvent();
    c.commentId = acc.issue.number;
    c.author = "maintainer" + random.nextInt(20);
    c.maintainer = true;
    c.body = "Try setting the bucket size to " + random.nextInt(1000) + " and the timeout higher.";
    c.createdAt = at;
    c.updatedAt = at;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.COMMENT;
    e.key = acc.issue.id;
    e.issue = acc.issue;
    e.comment = c;
    return e;
  }

  private PullRequestRow fix(String repo, String framework, int n, String issueId, long merged) {
    int additions = 1 + random.nextInt(60);
    int deletions = random.nextInt(30);
    return new PullRequestRow(
        repo + "#" + n,
        repo,
        framework,
        n,
        "Fix " + issueId,
        "https://github.com/" + repo + "/pull/" + n,
        "closed",
        true,
        merged,
        merged - 3_600_000L,
        merged,
        additions,
        deletions,
        1 + random.nextInt(4),
        List.of(issueId),
        true,
        null,
        null,
        null,
        null,
        null);
  }

  /** A synthetic body, three in five with a Python traceback at the end. */
  private String body() {
    String body = texts.body(400 + random.nextInt(1200));
    if (random.nextInt(5) < 3) {
      body +=
          "\nTraceback (most recent call last):\n  File \"train.py\", line "
              + (1 + random.nextInt(400))
              + ", in <module>\n    engine.step()\n"
              + ERRORS[random.nextInt(ERRORS.length)].formatted(1 + random.nextInt(9000))
              + "\n";
    }
    return body;
  }

  /** The first 160 distinct words of a text, without Lucene's syntax characters. */
  static String plainWords(String text) {
    return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
        .filter(w -> w.length() >= 2)
        .distinct()
        .limit(160)
        .collect(java.util.stream.Collectors.joining(" "));
  }

  private static String resource(String path) {
    try (InputStream in = SimilarIssuesLatency.class.getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
