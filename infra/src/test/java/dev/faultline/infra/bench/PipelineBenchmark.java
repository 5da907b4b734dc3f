package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.infra.local.LocalProcess;
import dev.faultline.infra.local.StackClient;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.functions.DecodeAndNormalise;
import dev.faultline.jobs.IssuePipeline;
import dev.faultline.jobs.normalise.GitHubNormaliser;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.SinkOptions;
import dev.faultline.jobs.source.RawDeliveryDeserializer;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
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
import java.util.concurrent.ConcurrentHashMap;
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
 *   <li>Kafka → decode/normalise/classify → Neo4j (the issue pipeline, bounded) vs Kafka → decode → discard;
 *   <li>the graph writer with all relationships vs a bare {@code UNWIND … MERGE} of the same rows (issue 5's
 *       70%-of-ceiling goal);
 *   <li>delivery → visible in Neo4j latency, p50/p99, at 10/s and 500/s, through a {@code faultline local} child
 *       process, and its resident memory idle and under load.
 * </ul>
 *
 * Run: {@code mvn -B -o -pl infra test-compile} then the {@code bench} launcher command, or {@code java -cp ...
 * dev.faultline.infra.bench.PipelineBenchmark [events] [outDir]}.
 */
public final class PipelineBenchmark {
  private static final String PASSWORD = "bench-password";
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, Object> results = new HashMap<>();

  public static void main(String[] args) throws Exception {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    Path out = Path.of(args.length > 1 ? args[1] : "target/bench");
    Files.createDirectories(out);
    new PipelineBenchmark().run(events, out);
    System.exit(0);
  }

  void run(int events, Path out) throws Exception {
    Path dir = Files.createTempDirectory("faultline-bench");
    System.out.printf("pipeline benchmark: %d events, %d cores%n", events, Runtime.getRuntime().availableProcessors());
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(dir.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver = GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic("neo4j", PASSWORD))) {
      kafka.createTopics(4, List.of(Topic.DELIVERIES.topicName(), Topic.DEAD_LETTER.topicName(), Topic.ISSUES_CLASSIFIED.topicName()));
      new GraphSchema(driver, "neo4j").migrate();
      List<Delivery> deliveries = deliveries("bench/pipeline", events);
      produce(kafka, deliveries);

      double discard = timed(events, () -> discardJob(kafka));
      double pipeline = timed(events, () -> pipelineJob(kafka, neo4j));
      results.put("kafka_discard_events_per_s", discard);
      results.put("pipeline_events_per_s", pipeline);
      System.out.printf("Kafka -> decode -> discard      %,10.0f events/s%n", discard);
      System.out.printf("Kafka -> classify -> Neo4j      %,10.0f events/s  (%.1f%% of discard)%n", pipeline, 100 * pipeline / discard);

      List<IssueRow> rows = classifiedRows(deliveries("bench/writer", events));
      double ceiling = timed(rows.size(), () -> bareMerge(driver, rows));
      double writer = timed(rows.size(), () -> fullWriter(driver, rows));
      results.put("graph_writer_rows_per_s", writer);
      results.put("bare_merge_rows_per_s", ceiling);
      System.out.printf("bare UNWIND MERGE (ceiling)     %,10.0f rows/s%n", ceiling);
      System.out.printf("graph writer, all relationships %,10.0f rows/s  (%.1f%% of ceiling)%n", writer, 100 * writer / ceiling);
    }
    latencyAndMemory(dir);
    Files.writeString(out.resolve("pipeline.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(results));
    System.out.println("results in " + out.resolve("pipeline.json"));
  }

  interface Work {
    void run() throws Exception;
  }

  private static double timed(int items, Work work) throws Exception {
    long t = System.nanoTime();
    work.run();
    return items / ((System.nanoTime() - t) / 1e9);
  }

  private List<Delivery> deliveries(String repo, int n) {
    SyntheticIssues text = new SyntheticIssues(7);
    List<Delivery> out = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
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
    return new Delivery(UUID.randomUUID().toString(), "issues", "opened", repo, Instant.now(), DeliverySource.WEBHOOK, payload.toString());
  }

  private static void produce(EmbeddedKafka kafka, List<Delivery> deliveries) throws Exception {
    AvroCodec<Delivery> codec = AvroCodec.deliveries();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.LINGER_MS_CONFIG, 20),
            new StringSerializer(),
            new ByteArraySerializer())) {
      for (Delivery d : deliveries) {
        producer.send(new ProducerRecord<>(Topic.DELIVERIES.topicName(), d.getRepository() + "#" + d.getDeliveryId(), codec.encode(d)));
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

  private static void pipelineJob(EmbeddedKafka kafka, EmbeddedNeo4j neo4j) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    JobConfig config =
        new JobConfig(
            kafka.bootstrapServers(), Map.of(), "bench-pipeline-" + UUID.randomUUID(),
            new GraphConfig(neo4j.boltUri().toString(), "neo4j", PASSWORD, "neo4j"), SinkOptions.DEFAULTS, Duration.ofSeconds(5), 2,
            Files.createTempDirectory("bench-ckpt").toUri().toString());
    IssuePipelineJob.build(env, config, true);
    env.execute("bench-pipeline");
  }

  private List<IssueRow> classifiedRows(List<Delivery> deliveries) throws Exception {
    GitHubNormaliser normaliser = new GitHubNormaliser(json);
    IssueClassification classification = new IssueClassification(new Classifier(ClassifierConfig.defaults()));
    List<IssueRow> rows = new ArrayList<>();
    for (Delivery d : deliveries) {
      for (GitHubEvent e : normaliser.normalise(d)) {
        IssueAccumulator acc = new IssueAccumulator();
        acc.fold(e);
        rows.add(classification.classify(acc, acc.stateVersion));
      }
    }
    return rows;
  }

  /** The ceiling: the same rows' issue properties written with a bare UNWIND … MERGE, no relationships. */
  private static void bareMerge(Driver driver, List<IssueRow> rows) {
    for (int i = 0; i < rows.size(); i += 1000) {
      List<Map<String, Object>> batch =
          rows.subList(i, Math.min(rows.size(), i + 1000)).stream()
              .map(
                  r -> {
                    Map<String, Object> props = new HashMap<>();
                    r.toParameters().forEach((k, v) -> {
                      if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                        props.put(k, v);
                      }
                    });
                    props.putAll(r.toParameters().get("classification") instanceof Map<?, ?> c ? castMap(c) : Map.of());
                    return Map.<String, Object>of("id", "ceiling:" + r.id(), "props", props);
                  })
              .toList();
      driver.executableQuery("UNWIND $rows AS row MERGE (i:Issue {id: row.id}) SET i += row.props").withParameters(Map.of("rows", batch)).execute();
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  private static void fullWriter(Driver driver, List<IssueRow> rows) {
    IssueWriter writer = new IssueWriter(driver, "neo4j");
    for (int i = 0; i < rows.size(); i += 1000) {
      writer.write(rows.subList(i, Math.min(rows.size(), i + 1000)));
    }
  }

  private void latencyAndMemory(Path dir) throws Exception {
    try (LocalProcess stack = new LocalProcess(dir.resolve("local"), dir.resolve("logs"))) {
      Process p = stack.launch("local.log");
      StackClient client = stack.client();
      StackClient.await(() -> status(client) == 200, Duration.ofSeconds(180), "local stack healthy");
      Thread.sleep(10_000);
      long[] idle = LocalProcess.rssMiB(p);
      results.put("local_idle_rss_mib", idle[0]);
      System.out.printf("faultline local idle           %,10d MiB resident%n", idle[0]);
      for (int rate : new int[] {10, 500}) {
        int count = rate == 10 ? 100 : 5_000;
        List<Long> latencies = latency(client, "bench/latency-" + rate, rate, count);
        long p50 = percentile(latencies, 50);
        long p99 = percentile(latencies, 99);
        results.put("latency_p50_ms_at_" + rate, p50);
        results.put("latency_p99_ms_at_" + rate, p99);
        System.out.printf("delivery -> Neo4j at %3d/s      p50 %,6d ms  p99 %,6d ms  (%d of %d seen)%n", rate, p50, p99, latencies.size(), count);
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

  /** Sends {@code count} signed deliveries at {@code rate}/s; a poller notes when each issue appears in the graph. */
  private List<Long> latency(StackClient client, String repo, int rate, int count) throws Exception {
    Map<Integer, Long> sent = new ConcurrentHashMap<>();
    Map<Integer, Long> seen = new ConcurrentHashMap<>();
    ExecutorService senders = Executors.newFixedThreadPool(16);
    SyntheticIssues text = new SyntheticIssues(11);
    long start = System.nanoTime();
    long intervalNanos = 1_000_000_000L / rate;
    Thread poller =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted() && seen.size() < count) {
                try {
                  var rows = client.cypher("MATCH (i:Issue {repo: $repo}) RETURN i.number", Map.of("repo", repo));
                  long now = System.nanoTime();
                  rows.forEach(r -> seen.putIfAbsent(r.path("row").path(0).asInt(), now));
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  // keep polling
                }
              }
            });
    poller.start();
    for (int n = 1; n <= count; n++) {
      long due = start + n * intervalNanos;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      int number = n;
      byte[] body = json.writeValueAsBytes(json.readTree(delivery(repo, number, text.title(), text.body(1_000)).getPayloadJson()));
      senders.submit(
          () -> {
            sent.put(number, System.nanoTime());
            return client.deliver("issues", UUID.randomUUID().toString(), body).statusCode();
          });
    }
    senders.shutdown();
    senders.awaitTermination(5, TimeUnit.MINUTES);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (seen.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    poller.interrupt();
    List<Long> latencies = new ArrayList<>();
    seen.forEach((n, t) -> latencies.add(Math.max(0, (t - sent.getOrDefault(n, t)) / 1_000_000)));
    Collections.sort(latencies);
    return latencies;
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }
}
