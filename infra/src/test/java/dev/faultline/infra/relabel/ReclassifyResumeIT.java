package dev.faultline.infra.relabel;

import static dev.faultline.infra.relabel.ScopedHistory.concat;
import static dev.faultline.infra.relabel.ScopedHistory.producer;
import static dev.faultline.infra.relabel.ScopedHistory.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.ReplayResume;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * A killed and resumed {@code faultline reclassify} leaves the same labels and label history as an
 * uninterrupted one, on real parts (one in-process Kafka, two in-process Neo4j servers, Flink mini
 * clusters). The same history (issues whose diagnosis is in an early maintainer's comment, later
 * comments that add nothing, merged fixes) is labelled by the rules tier into graph A and graph B;
 * A is relabelled by the learned tier in one run; B's run is throttled (its Kafka consumer fetches
 * one record per partition every 300 ms), killed once its group has committed the first two rounds
 * of deliveries (every issue opened and diagnosed) and before its end, and resumed by the command
 * with the same report directory: every issue spans the kill, its diagnosis before it. Every
 * issue's label history is compared (each label's code and version, the label it replaced and its
 * version, whether each was given before the run or in it), and so is what the product shows of it:
 * the report {@code reclassify --changes-since} rebuilds from the graph, whose "before" is each
 * run's before.json.
 */
class ReclassifyResumeIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "reclassify-resume-pw";
  private static final String REPO = "deepspeedai/DeepSpeed";
  private static final int ISSUES = 24;
  private static final int COMMENTS = 5;

  /** What a maintainer's first comment diagnoses, by issue (written for this test). */
  private static final String[] DIAGNOSES = {
    "Confirmed: every rank hangs in all_reduce and the NCCL watchdog times out after 1800 s; the"
        + " communicator was created twice on rank 3.",
    "This is an out of memory error: CUDA out of memory while saving the ZeRO stage 3 checkpoint,"
        + " the optimizer states are gathered on one GPU.",
    "The loss becomes nan with bf16 after resuming from the checkpoint: the loss scaler state is"
        + " not restored.",
    "The build fails: the fused Adam extension does not compile against CUDA 12.4, nvcc reports an"
        + " unsupported gpu architecture.",
    "Segmentation fault in the pipeline engine when a stage has no layers; the schedule indexes an"
        + " empty list.",
    "Throughput dropped by half after the upgrade: the gradient buckets are reduced one by one"
        + " instead of overlapping with the backward pass.",
  };

  /** Said after the diagnosis: nothing a classifier could label from. */
  private static final String[] LATER = {
    "Any update on this?",
    "Same here.",
    "Thanks for looking into it.",
    "+1",
    "Is there a workaround for now?",
  };

  @Test
  void aKilledAndResumedRunLeavesTheLabelsAndHistoryOfAnUninterruptedOne(@TempDir Path tmp)
      throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4jA = EmbeddedNeo4j.start(tmp.resolve("neo4j-a"), 0, 0, PASSWORD);
        EmbeddedNeo4j neo4jB = EmbeddedNeo4j.start(tmp.resolve("neo4j-b"), 0, 0, PASSWORD);
        Driver a = driver(neo4jA);
        Driver b = driver(neo4jB)) {
      kafka.createTopics(2, Arrays.stream(Topic.values()).map(Topic::topicName).toList());
      new GraphSchema(a, "neo4j").migrate();
      new GraphSchema(b, "neo4j").migrate();
      String[] connA = conn(kafka, neo4jA);
      String[] connB = conn(kafka, neo4jB);
      int deliveries = sendHistory(kafka.bootstrapServers());

      // 1. Both graphs labelled by the rules tier.
      for (String[] conn : List.of(connA, connB)) {
        Reclassify.replay(
            config(conn, "history-" + UUID.randomUUID()).withTier(ClassifierTier.RULES),
            500,
            p -> {},
            j -> {});
      }

      // 2. A: relabelled by the learned tier in one run.
      Instant startedA = Instant.now();
      Path dirA = tmp.resolve("report-a");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(
          0, run(out, concat(new String[] {"reclassify", "--report-dir", "" + dirA}, connA)));
      assertTrue(out.toString().contains("reclassify: done"), out.toString());

      // 3. B: the same run, throttled and killed after committed progress, then resumed.
      Instant startedB = Instant.now();
      Path dirB = tmp.resolve("report-b");
      String group = "faultline-reclassify-resume-it";
      JobConfig throttled =
          config(
              concat(
                  new String[] {
                    "--kafka.max.partition.fetch.bytes", "1",
                    "--kafka.fetch.min.bytes", "100000000",
                    "--kafka.fetch.max.wait.ms", "300"
                  },
                  connB),
              group);
      Files.createDirectories(dirB);
      try (LabelSnapshots labels = new LabelSnapshots(throttled.io().graph())) {
        ReclassifyCommand.write(
            dirB.resolve("before.json"), labels.snapshot(Reclassify.Scope.all()));
      }
      Files.writeString(
          dirB.resolve("run.json"),
          "{\"group\":\"" + group + "\",\"startedAt\":\"" + startedB + "\"}");
      long[] atKill = killAfterCommittedProgress(throttled, 2L * ISSUES);
      assertTrue(
          atKill[0] > 0 && atKill[0] < atKill[1], "killed midway: " + Arrays.toString(atKill));
      ReplayResume handled = Reclassify.handled(throttled.io());
      Set<String> spanning = spanning(kafka.bootstrapServers(), handled);
      assertFalse(spanning.isEmpty(), "some issues have deliveries on both sides of the kill");
      out.reset();
      assertEquals(
          0, run(out, concat(new String[] {"reclassify", "--report-dir", "" + dirB}, connB)));
      assertTrue(out.toString().contains("resuming the run of group " + group), out.toString());
      assertTrue(out.toString().contains("folded into their issues' state"), out.toString());
      System.out.printf(
          "ReclassifyResumeIT: %d deliveries, killed at %d of %d replayed, %d issues span the"
              + " kill%n",
          deliveries, atKill[0], atKill[1], spanning.size());

      // 4. The same labels and history, issue by issue: every label's code and version, the label
      // it replaced and its version, and when each was given (before the run or in it). A run is
      // one pass of the label history, so the intermediate states each run's interleaving and sink
      // batches let through, and the kill, leave the history of its last row alone.
      Map<String, Map<String, Object>> histA = history(a, startedA);
      Map<String, Map<String, Object>> histB = history(b, startedB);
      assertEquals(ISSUES, histA.size());
      assertEquals(histA.keySet(), histB.keySet());
      int replacedBeforeTheRun = 0;
      for (String id : histA.keySet()) {
        String which = id + (spanning.contains(id) ? " (spans)" : "");
        Map<String, Object> ha = histA.get(id);
        assertTrue(ha.get("classifierVersion").toString().startsWith("learned-"), id);
        assertEquals(ha, histB.get(id), which);
        for (Dimension d : Dimension.LABELLED) {
          if ("in the run".equals(ha.get(d.labelledAtProperty()))
              && "before the run".equals(ha.get(d.previousAtProperty()))) {
            replacedBeforeTheRun++;
          }
        }
      }
      assertTrue(replacedBeforeTheRun > 0, "labels from before the run replaced in both runs");
      System.out.printf(
          "ReclassifyResumeIT: %d labels replaced the label from before the run, the same in both"
              + " runs%n",
          replacedBeforeTheRun);

      // 5. What the product shows of that history: the report `reclassify --changes-since` rebuilds
      // from the graph alone is the same for both runs, and its "before" is each run's own
      // before.json, issue by issue.
      assertEquals(
          changesSince(tmp.resolve("changes-a"), startedA, connA),
          changesSince(tmp.resolve("changes-b"), startedB, connB));
      assertEquals(
          labelled(ReclassifyCommand.read(dirA.resolve("before.json"))),
          rebuiltBefore(connA, startedA));
      assertEquals(
          labelled(ReclassifyCommand.read(dirB.resolve("before.json"))),
          rebuiltBefore(connB, startedB));
    }
  }

  /** The report.json of {@code reclassify --changes-since since} on the graph of {@code conn}. */
  private static com.fasterxml.jackson.databind.JsonNode changesSince(
      Path dir, Instant since, String[] conn) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(
            out,
            concat(
                new String[] {
                  "reclassify", "--changes-since", since.toString(), "--report-dir", "" + dir
                },
                conn)),
        out.toString());
    return JSON.readTree(dir.resolve("report.json").toFile());
  }

  /** The labels before {@code since} as the graph's history rebuilds them, by issue. */
  private static Map<String, Map<String, String>> rebuiltBefore(String[] conn, Instant since) {
    try (LabelSnapshots graph =
        new LabelSnapshots(JobConfig.fromArgs(conn, Map.of()).io().graph())) {
      return labelled(graph.snapshotAsOf(Reclassify.Scope.all(), since));
    }
  }

  /** A snapshot's labelled dimensions and classifier version, by issue. */
  private static Map<String, Map<String, String>> labelled(List<RelabelReport.Labels> labels) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (RelabelReport.Labels l : labels) {
      Map<String, String> codes = new TreeMap<>(l.codes());
      codes.keySet().removeIf(k -> Dimension.ofKey(k).map(d -> !d.labelled()).orElse(false));
      out.put(l.id(), codes);
    }
    return out;
  }

  /**
   * Runs B's replay throttled and kills it once its group has committed at least {@code least}
   * deliveries and before it has replayed everything; returns {done, total} at the kill.
   */
  private static long[] killAfterCommittedProgress(JobConfig throttled, long least)
      throws Exception {
    AtomicReference<JobClient> job = new AtomicReference<>();
    AtomicLong done = new AtomicLong(-1);
    AtomicLong total = new AtomicLong();
    AtomicBoolean finished = new AtomicBoolean();
    Thread attempt =
        new Thread(
            () -> {
              try {
                Reclassify.replay(
                    throttled,
                    200,
                    p -> {
                      if (p.done() >= least && p.done() < p.total() && done.get() < 0) {
                        done.set(p.done());
                        total.set(p.total());
                        try {
                          job.get().cancel().get(); // killed
                        } catch (Exception ignored) {
                          // already ending
                        }
                      }
                    },
                    job::set);
                finished.set(true);
              } catch (Exception killed) {
                // the replay was killed
              }
            });
    attempt.start();
    attempt.join(Duration.ofMinutes(6).toMillis());
    assertFalse(finished.get(), "the throttled replay was killed before its end");
    return new long[] {done.get(), total.get()};
  }

  /**
   * The issues with deliveries on both sides of where the killed attempt got to: an issue's own
   * deliveries, and its fixes' (another key, maybe another partition).
   */
  private static Set<String> spanning(String bootstrap, ReplayResume handled) throws Exception {
    Map<String, Set<Boolean>> sides = new HashMap<>();
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          consumer.partitionsFor(Topic.DELIVERIES.topicName()).stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      long read = 0;
      long all = end.values().stream().mapToLong(Long::longValue).sum();
      while (read < all) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
          read++;
          String issue = issueOf(r.key());
          sides
              .computeIfAbsent(issue, k -> new HashSet<>())
              .add(handled.handled(r.partition(), r.offset()));
        }
      }
    }
    Set<String> out = new HashSet<>();
    sides.forEach(
        (issue, s) -> {
          if (s.size() == 2) {
            out.add(issue);
          }
        });
    return out;
  }

  /** The issue a delivery key is about: a fix's key names the PR, {@code 1000 + n} fixes n. */
  private static String issueOf(String key) {
    int n = Integer.parseInt(key.substring(key.indexOf('#') + 1));
    return REPO + "#" + (n > 1000 ? n - 1000 : n);
  }

  /**
   * Every issue's labelled dimensions' history: code, version, previous code and version, and
   * whether each time lies before the run started or in it (the two runs' times differ).
   */
  private static Map<String, Map<String, Object>> history(Driver driver, Instant runStart) {
    ZonedDateTime start = runStart.atZone(java.time.ZoneOffset.UTC);
    Map<String, Map<String, Object>> out = new TreeMap<>();
    driver
        .session()
        .run("MATCH (i:Issue) RETURN i.id AS id, properties(i) AS p")
        .forEachRemaining(
            r -> {
              Map<String, Object> p = r.get("p").asMap();
              Map<String, Object> h = new TreeMap<>();
              h.put("classifierVersion", p.get("classifierVersion"));
              for (Dimension d : Dimension.LABELLED) {
                h.put(d.property(), "" + p.get(d.property()));
                h.put(d.versionProperty(), "" + p.get(d.versionProperty()));
                h.put(d.previousProperty(), "" + p.get(d.previousProperty()));
                h.put(d.previousVersionProperty(), "" + p.get(d.previousVersionProperty()));
                h.put(d.labelledAtProperty(), when(p.get(d.labelledAtProperty()), start));
                h.put(d.previousAtProperty(), when(p.get(d.previousAtProperty()), start));
              }
              out.put(r.get("id").asString(), h);
            });
    return out;
  }

  private static String when(Object at, ZonedDateTime runStart) {
    if (!(at instanceof ZonedDateTime t)) {
      return "none";
    }
    return t.isBefore(runStart) ? "before the run" : "in the run";
  }

  /**
   * Sends the history, round by round over the issues (every issue opened, then every first
   * comment, ...), so that any point in the topic lies inside many issues' histories; every third
   * issue gets a merged fix after its comments. Returns the deliveries sent.
   */
  private static int sendHistory(String bootstrap) throws Exception {
    int sent = 0;
    try (KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
      for (int round = 0; round <= COMMENTS; round++) {
        for (int n = 1; n <= ISSUES; n++) {
          send(producer, round == 0 ? opened(n) : comment(n, round));
          sent++;
        }
      }
      for (int n = 3; n <= ISSUES; n += 3) {
        send(producer, mergedFix(n));
        sent++;
      }
    }
    return sent;
  }

  private static String at(int n, int round) {
    return Instant.parse("2025-03-01T10:00:00Z").plus(Duration.ofHours(round * 24L + n)).toString();
  }

  private static ObjectNode issueNode(ObjectNode payload, int n, int round) {
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", n);
    issue.put("title", "Problem after upgrading to the new release (#" + n + ")");
    issue.put(
        "body",
        "Since the upgrade our job on 2 nodes of 8 GPUs does not behave as before. Details"
            + " follow in the comments.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + n);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels");
    issue.put("comments", round);
    issue.put("created_at", at(n, 0));
    issue.put("updated_at", at(n, round));
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", REPO);
    return issue;
  }

  private static Delivery opened(int n) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "opened");
    issueNode(payload, n, 0);
    return delivery("issues", "opened", payload);
  }

  private static Delivery comment(int n, int round) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "created");
    issueNode(payload, n, round);
    ObjectNode comment = payload.putObject("comment");
    comment.put("id", 100_000L * round + n);
    comment.put(
        "body", round == 1 ? DIAGNOSES[n % DIAGNOSES.length] : LATER[(n + round) % LATER.length]);
    comment.put("author_association", round == 1 ? "MEMBER" : "NONE");
    comment.putObject("user").put("login", round == 1 ? "maintainer" : "user" + round);
    comment.put("created_at", at(n, round));
    comment.put("updated_at", at(n, round));
    return delivery("issue_comment", "created", payload);
  }

  /** Issue {@code n}'s merged fix (PR {@code 1000 + n}), merged after its last comment. */
  private static Delivery mergedFix(int n) {
    return RelabelFixtures.mergedPullRequest(
        REPO,
        1000 + n,
        "Synchronise the stream before the collective",
        "Fixes #"
            + n
            + ". The collective waited on a stream that was never synchronised; this synchronises"
            + " it before the call.",
        new RelabelFixtures.MergedChange(at(n, COMMENTS), at(n, COMMENTS + 1), 12, 3, 1));
  }

  private static Delivery delivery(String event, String action, ObjectNode payload) {
    return RelabelFixtures.delivery(event, action, REPO, payload);
  }

  private static Driver driver(EmbeddedNeo4j neo4j) {
    return GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
  }

  private static String[] conn(EmbeddedKafka kafka, EmbeddedNeo4j neo4j) {
    return ScopedHistory.conn(
        kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);
  }

  /** A bounded replay of everything under {@code group} (the learned tier unless changed). */
  private static JobConfig config(String[] conn, String group) {
    return JobConfig.fromArgs(
            concat(new String[] {"--group-id", group, "--checkpoint-interval-ms", "500"}, conn),
            Map.of())
        .withReplay(Replay.of(ReplayScope.ALL));
  }

  private static int run(ByteArrayOutputStream out, String... args) {
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    return new Faultline().run(args, p, p);
  }
}
