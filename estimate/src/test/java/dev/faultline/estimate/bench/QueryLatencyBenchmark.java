package dev.faultline.estimate.bench;

import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.testing.GraphFixture;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.SessionConfig;

/**
 * Query latency of every library query on a synthetic graph of 100,000 issues, and the write
 * ceiling: a bare {@code UNWIND $rows MERGE (i:Issue {id: row.id}) SET i += row.props} of the same
 * rows. Printed, not asserted: a benchmark, not a test (no JUnit annotations; {@code faultline
 * bench} runs its {@code main}).
 *
 * <p>Not part of {@code mvn verify}. Run it as a plain main class from a copy of the classes (a
 * concurrent build of graph-model would empty {@code target/} under a running benchmark):
 *
 * <pre>
 * mkdir -p /tmp/bench
 * mvn -B -o -q -pl estimate -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=/tmp/bench/cp.txt
 * cp -r estimate/target/classes estimate/target/test-classes /tmp/bench/
 * java -Xmx3g -cp "/tmp/bench/test-classes:/tmp/bench/classes:$(cat /tmp/bench/cp.txt)" \
 *     dev.faultline.estimate.bench.QueryLatencyBenchmark
 * </pre>
 *
 * System properties: {@code faultline.bench.issues} (100000), {@code faultline.bench.runs} (timed
 * runs per query, 20), {@code faultline.bench.seed} (42), {@code faultline.bench.only} (query
 * names, comma-separated: time only these), {@code faultline.bench.out} (a file: also write the
 * figures there as one flat JSON object, for {@code faultline bench}). It takes about five minutes
 * on two cores.
 *
 * <p>The synthetic graph follows {@code graph-model/README.md} and is written with the test
 * fixture's statements in UNWIND batches of 1000: six frameworks with skewed shares, about 40
 * releases each, issues spread over four and a half years (60% bugs; symptoms, stages, root causes
 * and fix patterns skewed, with realistic shares of UNKNOWN), labels, reported versions,
 * FILED_AGAINST the latest earlier release, a fixing PR for about 40% of closed bugs, and 500
 * alerts.
 */
public final class QueryLatencyBenchmark {
  private static final int BATCH = 1000;
  private static final String DATABASE = "neo4j";
  private static final String CEILING =
      "UNWIND $rows AS row MERGE (i:Issue {id: row.id}) SET i += row.props";

  private static final String[] FRAMEWORKS = {
    "deepspeed", "pytorch", "megatron-lm", "colossalai", "vllm", "horovod"
  };
  private static final String[] REPOS = {
    "deepspeedai/DeepSpeed",
    "pytorch/pytorch",
    "NVIDIA/Megatron-LM",
    "hpcaitech/ColossalAI",
    "vllm-project/vllm",
    "horovod/horovod"
  };
  private static final double[] FRAMEWORK_SHARE = {0.35, 0.25, 0.12, 0.12, 0.12, 0.04};
  private static final String[] WORDS =
      ("nccl hang timeout allreduce all_gather reduce_scatter broadcast barrier watchdog deadlock zero stage3 stage2"
              + " offload optimizer checkpoint save load resume convert memory leak cuda oom fragmentation activation"
              + " pipeline parallel tensor sequence expert moe fp16 bf16 loss nan divergence gradient accumulation"
              + " launcher rendezvous hostfile ssh master port rank world size init process group gloo mpi torchrun"
              + " kernel fused attention flash triton compile build install import setup wheel extension ninja"
              + " inference generation sampling batching scheduler request throughput latency slow regression"
              + " multi node multi gpu single device mismatch shape dtype sharded partition merge reshard engine"
              + " config json argument default flag environment version transformers accelerate huggingface model"
              + " llama gpt bert mixtral falcon qwen training finetune lora quantization int8 fp8 speculative decoding")
          .split(" ");

  private final Random random;
  private final int issues;
  private final int runs;
  private final Taxonomy taxonomy = Taxonomy.load();

  /** Sized by the system properties of the class comment. */
  QueryLatencyBenchmark() {
    this.issues = Integer.getInteger("faultline.bench.issues", 100_000);
    this.runs = Integer.getInteger("faultline.bench.runs", 20);
    this.random = new Random(Long.getLong("faultline.bench.seed", 42L));
  }

  public static void main(String[] args) throws Exception {
    new QueryLatencyBenchmark().run();
  }

  void run() throws Exception {
    Path directory = Files.createTempDirectory("faultline-query-bench");
    try (EmbeddedNeo4j neo4j =
            EmbeddedNeo4j.start(directory, 0, 0, "bench-" + Long.toHexString(System.nanoTime()));
        Driver driver =
            GraphDatabase.driver(
                neo4j.boltUri(), AuthTokens.basic(neo4j.user(), neo4j.password()))) {
      driver.verifyConnectivity();
      new GraphSchema(driver, DATABASE).migrate();
      GraphFixture graph = new GraphFixture(driver, DATABASE);

      Synthetic data = generate();
      System.out.printf(
          Locale.ROOT,
          "%nSynthetic graph: %d issues, %d releases, %d pull requests, %d alerts%n",
          data.issues.size(),
          data.releases.size(),
          data.pullRequests.size(),
          data.alerts.size());

      // The ceiling first, on an empty Issue label, as the pipeline writer meets it on a backfill;
      // after one
      // untimed pass so that JIT, page cache and store files are as warm as for the writes measured
      // later.
      writeRate(graph, CEILING, data.issues);
      deleteIssues(driver);
      double ceiling = writeRate(graph, CEILING, data.issues);
      double ceilingUpdate = writeRate(graph, CEILING, data.issues);
      deleteIssues(driver);

      writeRate(graph, GraphFixture.WRITE_RELEASES, data.releases);
      double model = writeRate(graph, GraphFixture.WRITE_ISSUES, data.issues);
      double prs = writeRate(graph, GraphFixture.WRITE_PULL_REQUESTS, data.pullRequests);
      writeRate(graph, GraphFixture.WRITE_ALERTS, data.alerts);
      System.out.printf(
          Locale.ROOT,
          "%nWrites (UNWIND batches of %d, one transaction each; load average %.1f)%n",
          BATCH,
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      System.out.printf(
          Locale.ROOT,
          "  ceiling: bare MERGE (i:Issue {id}) SET i += props, new nodes   %,10.0f rows/s%n",
          ceiling);
      System.out.printf(
          Locale.ROOT,
          "  ceiling: the same rows again, existing nodes                %,10.0f rows/s%n",
          ceilingUpdate);
      System.out.printf(
          Locale.ROOT,
          "  test fixture's full issue write (labels, versions, release, 4 edges) %,10.0f rows/s%n",
          model);
      System.out.printf(
          Locale.ROOT,
          "  pull requests with FIXES                                     %,10.0f rows/s%n",
          prs);
      Map<String, Double> results = new java.util.TreeMap<>();
      results.put("issues", (double) issues);
      results.put("ceiling_rows_per_s", ceiling);
      results.put("ceiling_update_rows_per_s", ceilingUpdate);
      results.put("fixture_write_rows_per_s", model);
      results.put("pr_write_rows_per_s", prs);

      QueryLibrary library = new QueryLibrary(driver, DATABASE);
      List<String> sampleBugs = data.sampleBugIds;
      // Printed because the figures mean little without it on a shared machine.
      var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      System.out.printf(
          Locale.ROOT,
          "%nQuery latency over %d runs after 3 warm-up runs (ms); %d cores, load average %.1f%n",
          runs,
          os.getAvailableProcessors(),
          os.getSystemLoadAverage());
      System.out.printf(
          Locale.ROOT, "  %-28s %8s %8s %8s %8s%n", "query", "p50", "p95", "max", "rows");
      String only = System.getProperty("faultline.bench.only");
      List<String> chosen = only == null ? null : Arrays.asList(only.split(","));
      for (QueryDefinition q : library.list()) {
        if (chosen != null && !chosen.contains(q.name())) {
          continue;
        }
        long[] nanos = new long[runs];
        int rows = 0;
        for (int r = -3; r < runs; r++) {
          Map<String, String> params =
              q.parameter("issue").isPresent()
                  ? Map.of("issue", sampleBugs.get(Math.floorMod(r + 3, sampleBugs.size())))
                  : Map.of();
          long start = System.nanoTime();
          rows = library.run(q.name(), params).size();
          if (r >= 0) {
            nanos[r] = System.nanoTime() - start;
          }
        }
        Arrays.sort(nanos);
        System.out.printf(
            Locale.ROOT,
            "  %-28s %8.1f %8.1f %8.1f %8d%n",
            q.name(),
            percentile(nanos, 0.50) / 1e6,
            percentile(nanos, 0.95) / 1e6,
            nanos[nanos.length - 1] / 1e6,
            rows);
        results.put("query_p50_ms_" + q.name(), percentile(nanos, 0.50) / 1e6);
        results.put("query_p95_ms_" + q.name(), percentile(nanos, 0.95) / 1e6);
      }
      String out = System.getProperty("faultline.bench.out");
      if (out != null) {
        Files.writeString(Path.of(out), json(results));
      }
      System.out.printf(
          Locale.ROOT, "  load average at the end: %.1f%n%n", os.getSystemLoadAverage());
    } finally {
      try (Stream<Path> paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * A flat JSON object of numbers; the keys are query names and fixed identifiers, nothing to
   * escape.
   */
  static String json(Map<String, Double> values) {
    StringBuilder b = new StringBuilder("{\n");
    values.forEach(
        (k, v) ->
            b.append(b.length() > 2 ? ",\n" : "")
                .append("  \"")
                .append(k)
                .append("\": ")
                .append(String.format(Locale.ROOT, "%.3f", v)));
    return b.append("\n}\n").toString();
  }

  /** Nearest-rank percentile of sorted values. */
  static double percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double writeRate(
      GraphFixture graph, String statement, List<Map<String, Object>> rows) {
    long start = System.nanoTime();
    for (int from = 0; from < rows.size(); from += BATCH) {
      graph.write(statement, rows.subList(from, Math.min(rows.size(), from + BATCH)));
    }
    return rows.size() / ((System.nanoTime() - start) / 1e9);
  }

  private static void deleteIssues(Driver driver) {
    try (var session = driver.session(SessionConfig.forDatabase(DATABASE))) {
      session
          .run("MATCH (i:Issue) CALL (i) { DETACH DELETE i } IN TRANSACTIONS OF 10000 ROWS")
          .consume();
    }
  }

  /** The synthetic rows. */
  record Synthetic(
      List<Map<String, Object>> releases,
      List<Map<String, Object>> issues,
      List<Map<String, Object>> pullRequests,
      List<Map<String, Object>> alerts,
      List<String> sampleBugIds) {}

  Synthetic generate() {
    ZonedDateTime start = ZonedDateTime.of(2021, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    long spanSeconds = 4L * 365 * 86400 + 180L * 86400;

    List<Map<String, Object>> releases = new ArrayList<>();
    Map<String, List<ZonedDateTime>> releaseDates = new HashMap<>();
    Map<String, List<String>> releaseVersions = new HashMap<>();
    for (String framework : FRAMEWORKS) {
      List<ZonedDateTime> dates = new ArrayList<>();
      List<String> versions = new ArrayList<>();
      ZonedDateTime at = start.minusDays(30);
      for (int n = 0; n < 40; n++) {
        at = at.plusDays(20 + random.nextInt(30)).plusHours(random.nextInt(24));
        String version = "0." + (n / 5) + "." + (n % 5);
        dates.add(at);
        versions.add(version);
        releases.add(GraphFixture.releaseRow(framework, version, at, n % 10 == 9));
      }
      releaseDates.put(framework, dates);
      releaseVersions.put(framework, versions);
    }

    List<String> symptoms = taxonomy.codes(Dimension.SYMPTOM);
    List<String> rootCauses = taxonomy.codes(Dimension.ROOT_CAUSE);
    List<String> fixPatterns = taxonomy.codes(Dimension.FIX_PATTERN);
    List<String> stages = taxonomy.codes(Dimension.STAGE);
    String[] extraLabels = {
      "enhancement", "question", "documentation", "training", "inference", "zero", "pipeline",
          "nccl", "checkpoint",
      "moe", "good first issue", "help wanted", "needs triage", "stale", "wontfix", "duplicate",
          "build", "ci",
      "performance", "memory", "rocm", "cpu", "windows", "launcher", "fp8"
    };
    String[] torch = {
      "2.0.1", "2.1.0", "2.1.2", "2.2.0", "2.2.2", "2.3.0", "2.3.1", "2.4.0", "2.5.1", "2.6.0"
    };

    List<Map<String, Object>> issueRows = new ArrayList<>(issues);
    List<String> closedBugs = new ArrayList<>();
    List<String> sample = new ArrayList<>();
    int[] numbers = new int[FRAMEWORKS.length];
    for (int n = 0; n < issues; n++) {
      int f = pick(FRAMEWORK_SHARE);
      String framework = FRAMEWORKS[f];
      String id = REPOS[f] + "#" + (++numbers[f]);
      // Later years have more issues: density grows linearly.
      ZonedDateTime created =
          start.plusSeconds((long) (spanSeconds * Math.sqrt(random.nextDouble())));
      double k = random.nextDouble();
      String kind =
          k < 0.60
              ? "BUG"
              : k < 0.75
                  ? "FEATURE_REQUEST"
                  : k < 0.93 ? "QUESTION" : k < 0.97 ? "DOCUMENTATION" : "OTHER";
      GraphFixture.Issue issue =
          GraphFixture.issue(id).framework(framework).kind(kind).createdAt(created);
      double s = random.nextDouble();
      if (s < 0.65) {
        issue.closedAt(
            created.plusSeconds((long) (-Math.log(1 - random.nextDouble()) * 30 * 86400)));
      } else if (s < 0.655) {
        issue.state("deleted");
      }
      List<String> labels = new ArrayList<>();
      if (kind.equals("BUG")) {
        issue.symptom(random.nextDouble() < 0.1 ? "UNKNOWN" : zipf(symptoms));
        issue.stage(random.nextDouble() < 0.15 ? "UNKNOWN" : zipf(stages));
        issue.rootCause(random.nextDouble() < 0.55 ? "UNKNOWN" : zipf(rootCauses));
        issue.fixPattern(random.nextDouble() < 0.6 ? "UNKNOWN" : zipf(fixPatterns));
        double p = random.nextDouble();
        issue.phase(p < 0.45 ? "TRAINING" : p < 0.70 ? "INFERENCE" : p < 0.75 ? "BOTH" : "UNKNOWN");
        double d = random.nextDouble();
        issue.distributedSpecific(d < 0.45 ? Boolean.TRUE : d < 0.85 ? Boolean.FALSE : null);
        if (random.nextDouble() < 0.9) {
          labels.add("bug");
        }
        if (random.nextDouble() < 0.02) {
          issue.humanGiven("symptom");
        }
      } else {
        issue.symptom("NONE");
        issue.fixPattern("UNKNOWN");
      }
      for (int l = random.nextInt(3); l > 0; l--) {
        String label =
            extraLabels[
                (int) Math.min(extraLabels.length - 1, Math.abs(random.nextGaussian()) * 6)];
        if (!labels.contains(label)) {
          labels.add(label);
        }
      }
      issue.labels(labels.toArray(String[]::new));
      List<ZonedDateTime> dates = releaseDates.get(framework);
      int latest = -1;
      for (int r = 0; r < dates.size() && dates.get(r).isBefore(created); r++) {
        latest = r;
      }
      List<String> versions = new ArrayList<>();
      if (random.nextDouble() < 0.6) {
        versions.add(
            "torch@"
                + torch[
                    Math.min(
                        torch.length - 1,
                        Math.max(0, (int) (created.getYear() - 2021) * 2 + random.nextInt(3)))]);
      }
      if (latest >= 0) {
        issue.release(framework + "@" + releaseVersions.get(framework).get(latest));
        if (random.nextDouble() < 0.5 && !framework.equals("pytorch")) {
          versions.add(framework + "@" + releaseVersions.get(framework).get(latest));
        }
      }
      issue.versions(versions.toArray(String[]::new));
      issue.title(title());
      issueRows.add(issue.toRow());
      if (kind.equals("BUG")) {
        if (sample.size() < 50 && random.nextDouble() < 0.01) {
          sample.add(id);
        }
        if (s < 0.65 && random.nextDouble() < 0.4) {
          closedBugs.add(id);
        }
      }
    }

    List<Map<String, Object>> prs = new ArrayList<>();
    int prNumber = 1_000_000;
    for (int n = 0; n < closedBugs.size(); n++) {
      String issueId = closedBugs.get(n);
      String repo = issueId.substring(0, issueId.indexOf('#'));
      List<String> fixes = new ArrayList<>(List.of(issueId));
      if (random.nextDouble() < 0.1
          && n + 1 < closedBugs.size()
          && closedBugs.get(n + 1).startsWith(repo + "#")) {
        fixes.add(closedBugs.get(++n));
      }
      long additions = Math.round(Math.exp(2.7 + 1.6 * random.nextGaussian()));
      long deletions = Math.round(Math.exp(1.6 + 1.5 * random.nextGaussian()));
      prs.add(
          GraphFixture.pr(repo + "#" + (++prNumber))
              .fixes(fixes.toArray(String[]::new))
              .lines(additions, deletions)
              .merged(random.nextDouble() < 0.85)
              .toRow());
    }

    List<Map<String, Object>> alerts = new ArrayList<>();
    for (int n = 0; n < 500; n++) {
      ZonedDateTime raised = start.plusSeconds((long) (spanSeconds * random.nextDouble()));
      Map<String, Object> props = new HashMap<>();
      props.put("id", "alert-" + n);
      props.put("framework", FRAMEWORKS[pick(FRAMEWORK_SHARE)]);
      props.put("dimension", "symptom");
      props.put("category", zipf(symptoms));
      props.put("kind", random.nextDouble() < 0.7 ? "SURGE" : "NEW_COMBINATION");
      props.put("windowStart", raised.minusDays(7));
      props.put("windowEnd", raised);
      props.put("count", 5L + random.nextInt(20));
      props.put("baseline", 2.0 + random.nextDouble() * 3);
      props.put("score", 2.0 + random.nextDouble() * 5);
      props.put("explanation", "synthetic alert " + n);
      props.put("raisedAt", raised);
      List<String> examples = new ArrayList<>();
      for (int e = 0; e < 3; e++) {
        examples.add((String) issueRows.get(random.nextInt(issueRows.size())).get("id"));
      }
      alerts.add(Map.of("id", "alert-" + n, "props", props, "examples", examples));
    }
    return new Synthetic(releases, issueRows, prs, alerts, sample);
  }

  private String title() {
    int length = 4 + random.nextInt(6);
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < length; w++) {
      if (w > 0) {
        b.append(' ');
      }
      b.append(
          WORDS[
              (int)
                  Math.min(WORDS.length - 1, Math.abs(random.nextGaussian()) * WORDS.length / 3)]);
    }
    return b.toString();
  }

  private int pick(double[] shares) {
    double r = random.nextDouble();
    for (int i = 0; i < shares.length; i++) {
      r -= shares[i];
      if (r < 0) {
        return i;
      }
    }
    return shares.length - 1;
  }

  /** A code with a Zipf-like skew: the first codes of the list are the most frequent. */
  private String zipf(List<String> codes) {
    double[] weights = new double[codes.size()];
    double total = 0;
    for (int i = 0; i < weights.length; i++) {
      weights[i] = 1.0 / (i + 1);
      total += weights[i];
    }
    double r = random.nextDouble() * total;
    for (int i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) {
        return codes.get(i);
      }
    }
    return codes.get(codes.size() - 1);
  }
}
