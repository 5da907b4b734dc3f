package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.relabel.LabelSnapshots;
import dev.faultline.infra.relabel.Reclassify;
import dev.faultline.infra.relabel.RelabelReport;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.Neo4jVectorStore;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * {@code faultline reclassify}'s throughput on real servers in this JVM (Kafka, Neo4j, a Flink
 * MiniCluster at parallelism 2), printed, never asserted, in one run:
 *
 * <ol>
 *   <li>the encoder's one-item rate (the baseline): {@link MiniLmEmbedder}, one text per call, one
 *       thread;
 *   <li>first labelling: N synthetic issues (one "opened" delivery each, about 2 KB) through the
 *       bounded issue pipeline without stored vectors, as the live pipeline labels them: one
 *       encoder call per issue; the sink stores each text vector;
 *   <li>{@code reclassify}: {@link Reclassify#replay} of the same deliveries under a new group, the
 *       classifier reading each vector from the graph; then the labels before and after compared
 *       (they must all be equal: a stored vector is the encoder's);
 *   <li>a comment event's classification when the comment leaves the encoded text unchanged (the
 *       shared classifier with its in-memory cache), CPU and wall time per event.
 * </ol>
 *
 * Each rate comes with the process's CPU time per issue (Kafka, Flink, classifier and Neo4j all run
 * in this process) and the load average before and after. Run: {@code java -cp ...
 * dev.faultline.infra.bench.ReclassifyBenchmark [issues]} (docs/performance.md).
 */
public final class ReclassifyBenchmark {
  private static final String PASSWORD = "bench-password";
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    Path dir = Files.createTempDirectory("faultline-reclassify-bench");
    System.out.printf(
        Locale.ROOT,
        "reclassify benchmark: %,d issues, %d cores, load average %s%n",
        n,
        Runtime.getRuntime().availableProcessors(),
        load());
    encoderBaseline(300);
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
      produce(kafka, deliveries("bench/reclassify", n));

      JobConfig first = config(kafka, neo4j, "bench-first-" + UUID.randomUUID());
      timed(
          "first labelling (bounded pipeline, encoder per issue)",
          n,
          () -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            IssuePipelineJob.build(
                env, first.withReplay(Replay.of(ReplayScope.ALL).withStoredVectors(false)));
            env.execute("bench-first-labelling");
          });
      long withVector =
          count(driver, "MATCH (i:Issue) WHERE i.textVector IS NOT NULL RETURN count(i) AS n");
      System.out.printf(Locale.ROOT, "  issues with a stored text vector: %,d%n", withVector);
      List<RelabelReport.Labels> before = snapshot(first);

      // Three replays in a row, as reclassify runs them: the first right after the first labelling
      // (the graph and the JVM still settling from it), then two more.
      JobConfig replay = null;
      for (int round = 1; round <= 3; round++) {
        JobConfig c = config(kafka, neo4j, "bench-reclassify-" + round + "-" + UUID.randomUUID());
        timed(
            "reclassify #" + round + " (bounded replay, vectors from the graph)",
            n,
            () ->
                Reclassify.replay(
                    c.withReplay(Replay.of(ReplayScope.ALL)),
                    5_000,
                    p ->
                        System.out.printf(
                            Locale.ROOT,
                            "  progress: %,d of %,d (%.0f/s since the job was submitted)%n",
                            p.done(),
                            p.total(),
                            p.perSecond()),
                    job -> {}));
        replay = c;
      }
      long snap = System.nanoTime();
      List<RelabelReport.Labels> after = snapshot(replay);
      System.out.printf(
          Locale.ROOT,
          "  issues %,d before, %,d after; labels or version changed on %d (the command's"
              + " snapshot of the labels took %.1f s)%n",
          before.size(),
          after.size(),
          changed(before, after),
          (System.nanoTime() - snap) / 1e9);

      // Where the rest goes: the same replay with the rules alone (no learned layer: the
      // pipeline's own floor), and the graph lookups alone.
      JobConfig rules = config(kafka, neo4j, "bench-rules-" + UUID.randomUUID());
      timed(
          "replay with the rules tier alone (Kafka, Flink, rules, Neo4j writes; no learned layer)",
          n,
          () -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            IssuePipelineJob.build(
                env,
                rules
                    .withTier(ClassifierTier.RULES)
                    .withReplay(Replay.of(ReplayScope.ALL).withStoredVectors(false)));
            env.execute("bench-rules-replay");
          });
      lookups(driver, neo4j, Math.min(n, 2_000));
    }
    commentEvents(500);
    System.exit(0);
  }

  /** The graph's labels, as the command's snapshot reads them. */
  private static List<RelabelReport.Labels> snapshot(JobConfig config) {
    try (LabelSnapshots labels = new LabelSnapshots(config.io().graph())) {
      return labels.snapshot(Reclassify.Scope.all());
    }
  }

  private static JobConfig config(EmbeddedKafka kafka, EmbeddedNeo4j neo4j, String group)
      throws Exception {
    return config(kafka, neo4j, group, SinkOptions.DEFAULTS);
  }

  private static JobConfig config(
      EmbeddedKafka kafka, EmbeddedNeo4j neo4j, String group, SinkOptions sink) throws Exception {
    return JobConfig.live(
        new JobIo(
            KafkaSettings.of(kafka.bootstrapServers()),
            group,
            new GraphConfig(neo4j.boltUri().toString(), "neo4j", PASSWORD, "neo4j"),
            sink,
            new JobIo.Checkpoints(
                Duration.ofSeconds(5), Files.createTempDirectory("bench-ckpt").toUri().toString()),
            2));
  }

  interface Work {
    void run() throws Exception;
  }

  private static void timed(String what, int items, Work work) throws Exception {
    String loadBefore = load();
    long cpu = processCpuNanos();
    long t = System.nanoTime();
    work.run();
    double secs = (System.nanoTime() - t) / 1e9;
    double cpuMs = (processCpuNanos() - cpu) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "%s: %,d issues in %.1f s = %.1f issues/s; process CPU %.2f ms per issue (%.0f issues per"
            + " CPU-s); load average %s -> %s%n",
        what,
        items,
        secs,
        items / secs,
        cpuMs / items,
        items / (cpuMs / 1000),
        loadBefore,
        load());
  }

  /** The encoder alone, one text per call, one thread: wall and thread CPU per item. */
  private static void encoderBaseline(int items) {
    MiniLmEmbedder encoder = MiniLmEmbedder.shared();
    SyntheticIssues text = new SyntheticIssues(91);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < items + 20; i++) {
      texts.add(text.title() + "\n" + text.body(2_000));
    }
    for (int i = 0; i < 20; i++) {
      encoder.embed(texts.get(i));
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    String loadBefore = load();
    long cpu = threads.getCurrentThreadCpuTime();
    long t = System.nanoTime();
    for (int i = 20; i < texts.size(); i++) {
      encoder.embed(texts.get(i));
    }
    double secs = (System.nanoTime() - t) / 1e9;
    double cpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "encoder alone (baseline), one text per call, 1 thread: %d texts, %.1f texts/s wall,"
            + " %.2f CPU-ms per text (%.0f per CPU-s); load average %s -> %s%n",
        items,
        items / secs,
        cpuMs / items,
        items / (cpuMs / 1000),
        loadBefore,
        load());
  }

  /**
   * Comment events whose comment leaves the first 96 word pieces unchanged, through the shared
   * classifier (its memory holds the opened issue's vector): CPU and wall per event.
   */
  private static void commentEvents(int events) {
    LearnedClassifier c = LearnedClassifier.shared();
    SyntheticIssues text = new SyntheticIssues(23);
    List<IssueText> opened = new ArrayList<>();
    List<IssueText> commented = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      String title = text.title();
      String body = text.body(2_000);
      opened.add(IssueText.of("bench/comments", i + 1, title, body));
      commented.add(
          new IssueText(
              "bench/comments",
              i + 1,
              title,
              body,
              List.of(),
              List.of(
                  new Comment(
                      "maintainer",
                      true,
                      "Thanks, we can reproduce this with %d ranks; a fix is in review."
                          .formatted(i + 2))),
              List.of(),
              "open"));
    }
    opened.forEach(in -> c.classifyKeyed(in, ChangeDetails.NONE));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    String loadBefore = load();
    long cpu = threads.getCurrentThreadCpuTime();
    long t = System.nanoTime();
    for (IssueText in : commented) {
      c.classifyKeyed(in, ChangeDetails.NONE);
    }
    double secs = (System.nanoTime() - t) / 1e9;
    double cpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "comment event, encoded text unchanged (shared classifier, vector in memory): %d events,"
            + " %.2f CPU-ms and %.2f wall-ms per event; load average %s -> %s%n",
        events,
        cpuMs / events,
        secs * 1000 / events,
        loadBefore,
        load());
  }

  /** Text vector lookups alone, one thread, as the replay's classifier makes them. */
  private static void lookups(Driver driver, EmbeddedNeo4j neo4j, int n) {
    List<String> keys = new ArrayList<>();
    try (var s = driver.session()) {
      s.run(
              "MATCH (i:Issue) WHERE i.textVectorKey IS NOT NULL RETURN i.textVectorKey AS k"
                  + " LIMIT $n",
              Map.of("n", n))
          .forEachRemaining(r -> keys.add(r.get("k").asString()));
    }
    try (Neo4jVectorStore store =
        new Neo4jVectorStore(
            new GraphConfig(neo4j.boltUri().toString(), "neo4j", PASSWORD, "neo4j"))) {
      for (int i = 0; i < Math.min(100, keys.size()); i++) {
        store.find(keys.get(i));
      }
      String loadBefore = load();
      long cpu = processCpuNanos();
      long t = System.nanoTime();
      for (String k : keys) {
        store.find(k);
      }
      double secs = (System.nanoTime() - t) / 1e9;
      double cpuMs = (processCpuNanos() - cpu) / 1e6;
      System.out.printf(
          Locale.ROOT,
          "text vector lookups alone (Neo4jVectorStore.find, 1 thread): %,d lookups, %.2f wall-ms"
              + " and %.2f process CPU-ms each; load average %s -> %s%n",
          keys.size(),
          secs * 1000 / keys.size(),
          cpuMs / keys.size(),
          loadBefore,
          load());
    }
  }

  private static int changed(List<RelabelReport.Labels> before, List<RelabelReport.Labels> after) {
    Map<String, Map<String, String>> b = new HashMap<>();
    before.forEach(l -> b.put(l.id(), l.codes()));
    int n = 0;
    for (RelabelReport.Labels l : after) {
      if (!l.codes().equals(b.get(l.id()))) {
        n++;
      }
    }
    return n + Math.max(0, before.size() - after.size());
  }

  private static long count(Driver driver, String query) {
    try (var s = driver.session()) {
      return s.run(query).single().get("n").asLong();
    }
  }

  private static List<Delivery> deliveries(String repo, int n) {
    SyntheticIssues text = new SyntheticIssues(5);
    List<Delivery> out = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      ObjectNode payload = JSON.createObjectNode();
      payload.put("action", "opened");
      ObjectNode issue = payload.putObject("issue");
      issue.put("number", i);
      issue.put("title", text.title());
      issue.put("body", text.body(2_000));
      issue.put("state", "open");
      issue.put("created_at", "2024-05-01T00:00:00Z");
      issue.put("updated_at", "2024-05-01T00:00:00Z");
      issue.put("html_url", "https://github.com/" + repo + "/issues/" + i);
      issue.putArray("labels");
      payload.putObject("repository").put("full_name", repo);
      out.add(
          new Delivery(
              UUID.randomUUID().toString(),
              "issues",
              "opened",
              repo,
              Instant.now(),
              DeliverySource.WEBHOOK,
              payload.toString()));
    }
    return out;
  }

  private static void produce(EmbeddedKafka kafka, List<Delivery> deliveries) {
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
      for (Delivery d : deliveries) {
        producer.send(
            new ProducerRecord<>(
                Topic.DELIVERIES.topicName(),
                d.getRepository() + "#" + d.getDeliveryId(),
                codec.encode(d)));
      }
      producer.flush();
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "?";
    }
  }
}
