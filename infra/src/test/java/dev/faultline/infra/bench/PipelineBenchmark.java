package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.infra.local.LocalProcess;
import dev.faultline.infra.local.StackClient;
import dev.faultline.jobs.IssuePipeline;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.jobs.functions.DecodeAndNormalise;
import dev.faultline.jobs.normalise.GitHubNormaliser;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.IssueRows;
import dev.faultline.jobs.source.RawDeliveryDeserializer;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.legacy.DiscardingSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * The pipeline against its own ceilings, in one run on this machine (printed, never asserted):
 *
 * <ul>
 *   <li>Kafka → decode/normalise/classify → Neo4j (the issue pipeline, bounded) vs Kafka → decode →
 *       discard;
 *   <li>the graph writer with all relationships vs two bare {@code UNWIND … MERGE} ceilings of the
 *       same rows: the issue properties alone, and the same nodes, properties and relationships
 *       (issue 5's 70%-of-ceiling goal);
 *   <li>delivery → visible in Neo4j latency, p50/p99, at 10/s and 500/s, through a {@code faultline
 *       local} child process, and its resident memory idle and under load.
 * </ul>
 *
 * Run: {@code mvn -B -o -pl infra test-compile} then the {@code bench} launcher command, or {@code
 * java -cp ... dev.faultline.infra.bench.PipelineBenchmark [events] [outDir]}.
 */
public final class PipelineBenchmark {
  private static final String PASSWORD = "bench-password";
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, Object> results = new HashMap<>();

  public static void main(String[] args) throws Exception {
    if (args.length > 0
        && args[0].equals(
            "latency")) { // the live-latency part alone: java ... PipelineBenchmark latency
      PipelineBenchmark b = new PipelineBenchmark();
      b.latencyAndMemory(Files.createTempDirectory("faultline-bench"));
      System.out.println(b.results);
      System.exit(0);
    }
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    Path out = Path.of(args.length > 1 ? args[1] : "target/bench");
    Files.createDirectories(out);
    new PipelineBenchmark().run(events, out);
    System.exit(0);
  }

  void run(int events, Path out) throws Exception {
    Path dir = Files.createTempDirectory("faultline-bench");
    System.out.printf(
        "pipeline benchmark: %d events, %d cores%n",
        events, Runtime.getRuntime().availableProcessors());
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(dir.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", PASSWORD))) {
      kafka.createTopics(
          4,
          List.of(
              Topic.DELIVERIES.topicName(),
              Topic.DEAD_LETTER.topicName(),
              Topic.ISSUES_CLASSIFIED.topicName()));
      new GraphSchema(driver, "neo4j").migrate();
      List<EventMix.Mixed> mix = new EventMix("bench/pipeline", 7, 0).next(events);
      List<Delivery> deliveries = mix.stream().map(EventMix.Mixed::delivery).toList();
      produce(kafka, deliveries);
      Map<EventMix.Kind, Long> kinds = new java.util.EnumMap<>(EventMix.Kind.class);
      mix.forEach(m -> kinds.merge(m.kind(), 1L, Long::sum));
      System.out.printf("event mix: %s%n", kinds);

      long cpu = processCpuNanos();
      long jit = jitMillis();
      double discard = timed(events, () -> discardJob(kafka));
      double discardCpuMs = (processCpuNanos() - cpu) / 1e6 / events;
      double discardJitMs = (jitMillis() - jit) / (double) events;
      boolean queryStats = Boolean.getBoolean("faultline.bench.queryStats");
      if (queryStats) {
        driver
            .executableQuery("CALL db.stats.collect('QUERIES', {durationSeconds: 3600})")
            .execute();
      }
      cpu = processCpuNanos();
      jit = jitMillis();
      String group = "bench-pipeline-" + UUID.randomUUID();
      WarmWindow warm = WarmWindow.startIfAsked(kafka.bootstrapServers(), group);
      double pipeline = timed(events, () -> pipelineJob(kafka, neo4j, group));
      if (warm != null) {
        warm.report(events);
      }
      double pipelineCpuMs = (processCpuNanos() - cpu) / 1e6 / events;
      double pipelineJitMs = (jitMillis() - jit) / (double) events;
      if (queryStats) {
        printQueryStats(driver);
      }
      results.put("kafka_discard_events_per_s", discard);
      results.put("pipeline_events_per_s", pipeline);
      results.put("kafka_discard_cpu_ms_per_event", discardCpuMs);
      results.put("pipeline_cpu_ms_per_event", pipelineCpuMs);
      results.put("kafka_discard_jit_ms_per_event", discardJitMs);
      results.put("pipeline_jit_ms_per_event", pipelineJitMs);
      System.out.printf(
          "Kafka -> decode -> discard      %,10.0f events/s  %6.2f CPU-ms/event%n",
          discard, discardCpuMs);
      System.out.printf(
          "Kafka -> classify -> Neo4j      %,10.0f events/s  %6.2f CPU-ms/event  (%.1f%% of"
              + " discard)%n",
          pipeline, pipelineCpuMs, 100 * pipeline / discard);
      System.out.printf(
          "  of which the JIT compiler threads (CPU-ms per event): discard %.2f, pipeline %.2f%n",
          discardJitMs, pipelineJitMs);

      save(out);
      if (!Boolean.getBoolean("faultline.bench.skipWriter")) {
        writerAgainstCeilings(driver, Math.max(2_000, events / 2));
        save(out);
      }
    }
    if (!Boolean.getBoolean("faultline.bench.skipLatency")) {
      latencyAndMemory(dir, out);
    }
    Files.writeString(
        out.resolve("pipeline.json"),
        json.writerWithDefaultPrettyPrinter().writeValueAsString(results));
    System.out.println("results in " + out.resolve("pipeline.json"));
  }

  interface Work {
    void run() throws Exception;
  }

  /**
   * The statements the pipeline job ran (Neo4j's query collection, {@code
   * -Dfaultline.bench.queryStats=true}): invocations, how many were planned (compiled) again, and
   * the planning time, most planning first. Finds which statement Neo4j keeps re-planning.
   */
  private static void printQueryStats(Driver driver) {
    var rows =
        driver
            .executableQuery(
                """
                CALL db.stats.retrieve('QUERIES') YIELD data
                WITH data.query AS q, data.invocations AS inv
                RETURN left(replace(q, '\n', ' '), 140) AS query, size(inv) AS runs,
                       size([i IN inv WHERE i.elapsedCompileTimeInUs > 0]) AS planned,
                       reduce(t = 0, i IN inv | t + coalesce(i.elapsedCompileTimeInUs, 0))
                         AS compileMicros, keys(inv[0]) AS fields
                ORDER BY compileMicros DESC LIMIT 15
                """)
            .execute()
            .records();
    System.out.println("statements of the pipeline job, most planning time first:");
    for (var r : rows) {
      System.out.printf(
          "  %,8d ms planning  %,6d planned of %,6d runs  %s%n",
          r.get("compileMicros").asLong() / 1000,
          r.get("planned").asLong(),
          r.get("runs").asLong(),
          r.get("query").asString());
    }
    if (!rows.isEmpty()) {
      System.out.println("  (invocation fields: " + rows.get(0).get("fields") + ")");
    }
  }

  private static double timed(int items, Work work) throws Exception {
    long t = System.nanoTime();
    work.run();
    return items / ((System.nanoTime() - t) / 1e9);
  }

  private List<Delivery> deliveries(String repo, int n) {
    return deliveries(repo, 0, n);
  }

  private List<Delivery> deliveries(String repo, int firstNumber, int n) {
    SyntheticIssues text = new SyntheticIssues(7 + firstNumber);
    List<Delivery> out = new ArrayList<>(n);
    for (int i = firstNumber + 1; i <= firstNumber + n; i++) {
      out.add(delivery(repo, i, text.title(), text.body(2_000)));
    }
    return out;
  }

  private Delivery delivery(String repo, int number, String title, String body) {
    ObjectNode payload = json.createObjectNode();
    payload.put("action", "opened");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", title);
    issue.put("body", body);
    issue.put("state", "open");
    issue.put("created_at", "2024-05-01T00:00:00Z");
    issue.put("updated_at", "2024-05-01T00:00:00Z");
    issue.putArray("labels");
    payload.putObject("repository").put("full_name", repo);
    return new Delivery(
        UUID.randomUUID().toString(),
        "issues",
        "opened",
        repo,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }

  private static void produce(EmbeddedKafka kafka, List<Delivery> deliveries) throws Exception {
    AvroCodec<Delivery> codec = AvroCodec.deliveries();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                20),
            new StringSerializer(),
            new ByteArraySerializer())) {
      ObjectMapper json = new ObjectMapper();
      for (Delivery d : deliveries) {
        // Keyed as the receiver keys them (owner/repo#n): an issue's deliveries stay in order.
        producer.send(
            new ProducerRecord<>(
                Topic.DELIVERIES.topicName(),
                dev.faultline.schemas.DeliveryKey.of(
                    d.getEvent(), json.readTree(d.getPayloadJson())),
                codec.encode(d)));
      }
      producer.flush();
    }
  }

  private static void discardJob(EmbeddedKafka kafka) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    KafkaSource<RawDelivery> source =
        KafkaSource.<RawDelivery>builder()
            .setBootstrapServers(kafka.bootstrapServers())
            .setTopics(Topic.DELIVERIES.topicName())
            .setGroupId("bench-discard-" + UUID.randomUUID())
            .setStartingOffsets(OffsetsInitializer.earliest())
            .setBounded(OffsetsInitializer.latest())
            .setDeserializer(new RawDeliveryDeserializer())
            .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "deliveries")
        .process(new DecodeAndNormalise(IssuePipeline.REJECTED))
        .addSink(new DiscardingSink<>());
    env.execute("bench-discard");
  }

  private static void pipelineJob(EmbeddedKafka kafka, EmbeddedNeo4j neo4j, String group)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    JobConfig config =
        JobConfig.live(
                new JobIo(
                    KafkaSettings.of(kafka.bootstrapServers()),
                    group,
                    new GraphConfig(neo4j.boltUri().toString(), "neo4j", PASSWORD, "neo4j"),
                    sinkOptions(),
                    new JobIo.Checkpoints(
                        Duration.ofSeconds(5),
                        Files.createTempDirectory("bench-ckpt").toUri().toString()),
                    2))
            .withReplay(Replay.of(ReplayScope.ALL));
    IssuePipelineJob.build(env, config);
    env.execute("bench-pipeline");
  }

  /**
   * The sink's options: the defaults, or {@code -Dfaultline.bench.sinkFlushMs} /{@code
   * -Dfaultline.bench.sinkBatch} to compare others in the same job.
   */
  private static SinkOptions sinkOptions() {
    SinkOptions d = SinkOptions.DEFAULTS;
    return new SinkOptions(
        Integer.getInteger("faultline.bench.sinkBatch", d.batchSize()),
        Duration.ofMillis(
            Long.getLong("faultline.bench.sinkFlushMs", d.flushInterval().toMillis())),
        d.maxBackoff());
  }

  private List<IssueRow> classifiedRows(List<Delivery> deliveries) throws Exception {
    GitHubNormaliser normaliser = new GitHubNormaliser(json);
    IssueClassification classification =
        new IssueClassification(new Classifier(ClassifierConfig.defaults()));
    List<IssueRow> rows = new ArrayList<>();
    for (Delivery d : deliveries) {
      for (GitHubEvent e : normaliser.normalise(d)) {
        IssueAccumulator acc = new IssueAccumulator();
        acc.fold(e);
        rows.add(IssueRows.of(classification.classify(acc, acc.stateVersion, e.deliveryId)));
      }
    }
    return rows;
  }

  /**
   * The graph writer against two ceilings, each writing new issues of one real repository (so
   * releases, frameworks and taxonomy nodes are shared as in a backfill): a bare {@code UNWIND …
   * MERGE} of the same rows' issue properties without any relationship, and a bare {@code UNWIND …
   * MERGE} of the same nodes, properties and relationships (bench/bare-merge-same-graph.cypher).
   * One untimed pass of each first; then rounds in rotating order, so neither warm-up nor a
   * neighbour's load favours one of them; the medians are reported, by wall clock and by process
   * CPU.
   */
  private void writerAgainstCeilings(Driver driver, int rowsPerRun) throws Exception {
    new ReleaseWriter(driver, "neo4j").write(releases("DeepSpeed", "deepspeedai/DeepSpeed", 40));
    String sameGraph =
        new String(
            PipelineBenchmark.class
                .getResourceAsStream("/bench/bare-merge-same-graph.cypher")
                .readAllBytes(),
            StandardCharsets.UTF_8);
    IssueWriter writer = new IssueWriter(driver, "neo4j");
    Map<String, Work1> writes = new java.util.LinkedHashMap<>();
    writes.put(
        "bare_merge",
        rows -> batches(rows, batch -> run(driver, NODE_ONLY_CEILING, nodeOnly(batch))));
    writes.put(
        "bare_merge_same_graph",
        rows -> batches(rows, batch -> run(driver, sameGraph, params(batch))));
    writes.put("graph_writer", rows -> batches(rows, writer::write));
    int rounds = 5;
    int next = 0;
    Map<String, List<double[]>> rates = new HashMap<>();
    for (int round = -1; round < rounds; round++) {
      List<String> order = new ArrayList<>(writes.keySet());
      Collections.rotate(order, Math.max(0, round));
      for (String name : order) {
        List<IssueRow> rows = classifiedRows(deliveries("deepspeedai/DeepSpeed", next, rowsPerRun));
        next += rowsPerRun;
        long cpu = processCpuNanos();
        long wall = System.nanoTime();
        writes.get(name).run(rows);
        double wallRate = rows.size() / ((System.nanoTime() - wall) / 1e9);
        double cpuRate = rows.size() / ((processCpuNanos() - cpu) / 1e9);
        if (round >= 0) {
          rates.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {wallRate, cpuRate});
        }
      }
    }
    for (String name : writes.keySet()) {
      results.put(name + "_rows_per_s", median(rates.get(name), 0));
      results.put(name + "_rows_per_cpu_s", median(rates.get(name), 1));
    }
    double writerRate = median(rates.get("graph_writer"), 0);
    double nodeOnly = median(rates.get("bare_merge"), 0);
    double sameGraphRate = median(rates.get("bare_merge_same_graph"), 0);
    System.out.printf(
        "graph writer vs bare MERGE, %d rows per run, median of %d rounds in rotating order:%n",
        rowsPerRun, rounds);
    System.out.printf(
        "  bare MERGE, issue properties only  %,10.0f rows/s  %,10.0f rows/CPU-s%n",
        nodeOnly, median(rates.get("bare_merge"), 1));
    System.out.printf(
        "  bare MERGE, same nodes + edges     %,10.0f rows/s  %,10.0f rows/CPU-s%n",
        sameGraphRate, median(rates.get("bare_merge_same_graph"), 1));
    System.out.printf(
        "  graph writer (lifecycle-true)      %,10.0f rows/s  %,10.0f rows/CPU-s  (%.0f%% / %.0f%% of them)%n",
        writerRate,
        median(rates.get("graph_writer"), 1),
        100 * writerRate / nodeOnly,
        100 * writerRate / sameGraphRate);
  }

  private static final String NODE_ONLY_CEILING =
      "UNWIND $rows AS row MERGE (i:Issue {id: row.id}) SET i += row.props";

  interface Work1 {
    void run(List<IssueRow> rows) throws Exception;
  }

  interface BatchWork {
    void run(List<IssueRow> batch) throws Exception;
  }

  private static void batches(List<IssueRow> rows, BatchWork work) throws Exception {
    for (int i = 0; i < rows.size(); i += 1000) {
      work.run(rows.subList(i, Math.min(rows.size(), i + 1000)));
    }
  }

  private static void run(Driver driver, String statement, List<Map<String, Object>> rows) {
    try (var session = driver.session(org.neo4j.driver.SessionConfig.forDatabase("neo4j"))) {
      session.executeWrite(tx -> tx.run(statement, Map.of("rows", rows)).consume());
    }
  }

  private static List<Map<String, Object>> params(List<IssueRow> batch) {
    return batch.stream().map(IssueRow::toParameters).toList();
  }

  /** The rows' issue properties only, as one map per row: what the node-only ceiling writes. */
  private static List<Map<String, Object>> nodeOnly(List<IssueRow> batch) {
    return batch.stream()
        .map(
            r -> {
              Map<String, Object> parameters = r.toParameters();
              Map<String, Object> props = new HashMap<>();
              parameters.forEach(
                  (k, v) -> {
                    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                      props.put(k, v);
                    }
                  });
              props.putAll(
                  parameters.get("classification") instanceof Map<?, ?> c ? castMap(c) : Map.of());
              return Map.<String, Object>of("id", r.id(), "props", props);
            })
        .toList();
  }

  private static List<dev.faultline.graph.ReleaseRow> releases(
      String framework, String repo, int count) {
    List<dev.faultline.graph.ReleaseRow> out = new ArrayList<>();
    long published = Instant.parse("2021-01-01T00:00:00Z").toEpochMilli();
    for (int n = 0; n < count; n++) {
      published += Duration.ofDays(20).toMillis();
      String version = "0." + (n / 5) + "." + (n % 5);
      out.add(
          new dev.faultline.graph.ReleaseRow(
              framework, repo, version, "v" + version, null, published, false, false));
    }
    return out;
  }

  /**
   * CPU time of the JIT compiler threads so far, in ms (Linux: {@code /proc/self/task/*}, threads
   * named {@code C1/C2 CompilerThre…}; -1 elsewhere). In a bounded job of a few thousand events the
   * JIT is a large part of the process's CPU (docs/performance.md, "Pipeline").
   */
  static long jitMillis() {
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long ticks = 0;
    try (var threads = Files.list(tasks)) {
      for (Path task : threads.toList()) {
        ticks += compilerTicks(task);
      }
    } catch (java.io.IOException e) {
      return -1;
    }
    return ticks * 10; // USER_HZ is 100 on Linux
  }

  /** utime + stime of one thread if it is a JIT compiler thread, else 0 (a thread gone: 0). */
  private static long compilerTicks(Path task) {
    try {
      String name = Files.readString(task.resolve("comm")).trim();
      if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
        return 0;
      }
      String stat = Files.readString(task.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double median(List<double[]> values, int column) {
    double[] sorted = values.stream().mapToDouble(v -> v[column]).sorted().toArray();
    return sorted[sorted.length / 2];
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  /** The rates of the latency runs and how many deliveries each sends (about 10 s of each). */
  private static final int[][] LATENCY_RUNS = {{10, 100}, {100, 1_000}, {500, 5_000}};

  /**
   * Writes the figures so far to {@code out/pipeline.json}: a run stopped by the harness's stage
   * timeout (the latency runs on a loaded machine) still reports the parts it finished.
   */
  private void save(Path out) throws java.io.IOException {
    Files.writeString(
        out.resolve("pipeline.json"),
        json.writerWithDefaultPrettyPrinter().writeValueAsString(results));
  }

  private void latencyAndMemory(Path dir) throws Exception {
    latencyAndMemory(dir, null);
  }

  private void latencyAndMemory(Path dir, Path out) throws Exception {
    try (LocalProcess stack = new LocalProcess(dir.resolve("local"), dir.resolve("logs"))) {
      Process p = stack.launch("local.log");
      StackClient client = stack.client();
      Poll.until(Duration.ofSeconds(180), "local stack healthy", () -> status(client) == 200);
      Thread.sleep(10_000);
      long[] idle = LocalProcess.rssMiB(p);
      results.put("local_idle_rss_mib", idle[0]);
      System.out.printf("faultline local idle           %,10d MiB resident%n", idle[0]);
      // A live stack has seen traffic: the first deliveries after a start pay for connections,
      // query plans and compilation along the whole path. 300 deliveries of another repository,
      // not measured, warm it up.
      List<Long> warmUp = latency(client, new EventMix("bench/warm-up", 3, 0), 30, 300);
      System.out.printf(
          "warm-up at 30/s (not counted)  p50 %,6d ms  p99 %,6d ms%n",
          percentile(warmUp, 50), percentile(warmUp, 99));
      for (int[] run : LATENCY_RUNS) {
        int rate = run[0];
        int count = run[1];
        EventMix mix = new EventMix("bench/latency-" + rate, 11 + rate, 0);
        List<Long> latencies = latency(client, mix, rate, count);
        long[] figures = {
          percentile(latencies, 50),
          percentile(latencies, 90),
          percentile(latencies, 99),
          latencies.isEmpty() ? -1 : latencies.get(latencies.size() - 1)
        };
        String[] names = {"p50", "p90", "p99", "max"};
        for (int i = 0; i < names.length; i++) {
          results.put("latency_" + names[i] + "_ms_at_" + rate, figures[i]);
        }
        results.put("latency_unseen_at_" + rate, (long) (count - latencies.size()));
        if (out != null) {
          save(out);
        }
        System.out.printf(
            "delivery -> Neo4j at %3d/s      p50 %,6d ms  p90 %,6d ms  p99 %,6d ms  max %,6d ms"
                + "  (%d of %d seen)%n",
            rate, figures[0], figures[1], figures[2], figures[3], latencies.size(), count);
      }
      long[] loaded = LocalProcess.rssMiB(p);
      results.put("local_peak_rss_mib", loaded[1]);
      System.out.printf("faultline local peak           %,10d MiB resident%n", loaded[1]);
    }
  }

  private static int status(StackClient client) {
    try {
      return client.health().statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  /**
   * Sends {@code count} signed deliveries of the mix at {@code rate}/s; a poller reads every
   * issue's {@code stateVersion} of the mix's repository every 20 ms and notes when each delivery
   * became visible: its issue's {@code stateVersion} reached the event time it carries (so a
   * comment, an edit or a fixing pull request counts when the issue's row in the graph includes it,
   * not when the issue first appeared). Returns the sorted latencies (ms) of the deliveries seen.
   */
  private List<Long> latency(StackClient client, EventMix mixer, int rate, int count)
      throws Exception {
    List<EventMix.Mixed> mix = mixer.next(count);
    String repo = mix.get(0).delivery().getRepository();
    long[] sent = new long[count];
    long[] seen = new long[count];
    java.util.concurrent.atomic.AtomicInteger visible =
        new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService senders = Executors.newFixedThreadPool(16);
    long start = System.nanoTime();
    long intervalNanos = 1_000_000_000L / rate;
    Thread poller = new Thread(() -> pollVisibility(client, repo, mix, sent, seen, visible, count));
    poller.start();
    for (int n = 0; n < count; n++) {
      long due = start + n * intervalNanos;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      EventMix.Mixed m = mix.get(n);
      int index = n;
      byte[] body = m.payloadBytes();
      senders.submit(
          () -> {
            sent[index] = System.nanoTime();
            return client
                .deliver(m.delivery().getEvent(), m.delivery().getDeliveryId(), body)
                .statusCode();
          });
    }
    senders.shutdown();
    senders.awaitTermination(5, TimeUnit.MINUTES);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (visible.get() < count && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    poller.interrupt();
    poller.join();
    List<Long> latencies = new ArrayList<>();
    StringBuilder inOrder = new StringBuilder(); // by tenth of the run: does the start wait?
    for (int tenth = 0; tenth < 10; tenth++) {
      List<Long> part = new ArrayList<>();
      for (int n = tenth * count / 10; n < (tenth + 1) * count / 10; n++) {
        if (seen[n] != 0 && sent[n] != 0) {
          long ms = Math.max(0, (seen[n] - sent[n]) / 1_000_000);
          part.add(ms);
          latencies.add(ms);
        }
      }
      Collections.sort(part);
      inOrder.append(' ').append(percentile(part, 50));
    }
    System.out.printf("  p50 by tenth of the run (ms):%s%n", inOrder);
    Map<EventMix.Kind, List<Long>> byKind = new java.util.EnumMap<>(EventMix.Kind.class);
    for (int n = 0; n < count; n++) {
      if (seen[n] != 0 && sent[n] != 0) {
        byKind
            .computeIfAbsent(mix.get(n).kind(), k -> new ArrayList<>())
            .add(Math.max(0, (seen[n] - sent[n]) / 1_000_000));
      }
    }
    byKind.forEach(
        (k, v) -> {
          Collections.sort(v);
          System.out.printf(
              "  %-8s %5d seen  p50 %,6d ms  p99 %,6d ms%n",
              k.label(), v.size(), percentile(v, 50), percentile(v, 99));
        });
    Collections.sort(latencies);
    return latencies;
  }

  /** Marks each sent delivery seen once its issue's stateVersion in the graph reaches its time. */
  private static void pollVisibility(
      StackClient client,
      String repo,
      List<EventMix.Mixed> mix,
      long[] sent,
      long[] seen,
      java.util.concurrent.atomic.AtomicInteger visible,
      int count) {
    while (!Thread.currentThread().isInterrupted() && visible.get() < count) {
      try {
        var rows =
            client.cypher(
                "MATCH (i:Issue {repo: $repo}) RETURN i.number, i.stateVersion",
                Map.of("repo", repo));
        long now = System.nanoTime();
        Map<Integer, Long> versions = new HashMap<>();
        rows.forEach(
            r -> versions.put(r.path("row").path(0).asInt(), r.path("row").path(1).asLong()));
        for (int n = 0; n < count; n++) {
          EventMix.Mixed m = mix.get(n);
          Long version = versions.get(m.issue());
          if (seen[n] == 0 && sent[n] != 0 && version != null && version >= m.eventTime()) {
            seen[n] = now;
            visible.incrementAndGet();
          }
        }
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // keep polling
      }
    }
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }
}
