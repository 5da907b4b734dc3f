package dev.faultline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.KafkaClients;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.DeadLetter;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;

/** The issue pipeline on a real KRaft broker, a real Neo4j server and a Flink MiniCluster. */
class IssuePipelineIT {
  private static final String PASSWORD = "pipeline-it-password";
  private static final Duration WAIT = Duration.ofSeconds(60);
  @TempDir static Path dir;
  private static PipelineStack stack;
  private static Driver driver;
  private static JobClient job;

  @BeforeAll
  static void startStack() throws Exception {
    stack =
        PipelineStack.start(
            dir, PASSWORD, Topic.DELIVERIES, Topic.DEAD_LETTER, Topic.ISSUES_CLASSIFIED);
    driver = stack.driver();
    JobConfig config = stack.jobConfig("it-" + UUID.randomUUID(), dir.resolve("checkpoints"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    IssuePipelineJob.build(env, config);
    job = env.executeAsync(IssuePipelineJob.NAME);
  }

  @AfterAll
  static void stopStack() throws Exception {
    if (job != null) {
      job.cancel().get();
    }
    stack.close();
  }

  @Test
  void writesTheLatestStateOfAnIssueWhateverTheArrivalOrder() throws Exception {
    String repo = "acme/trainer-" + UUID.randomUUID().toString().substring(0, 8);
    send(delivery(repo, 7, "opened", "Loss is NaN", "open", "2024-03-01T10:00:00Z"));
    send(delivery(repo, 7, "closed", "Loss is NaN with ZeRO-3", "closed", "2024-03-03T10:00:00Z"));
    // An older edit arrives last: it must not win.
    send(delivery(repo, 7, "edited", "stale title", "open", "2024-03-02T10:00:00Z"));
    String id = repo + "#7";
    awaitTrue(() -> "closed".equals(stateOf(id)), "issue " + id + " closed in the graph");
    // Wait for the stale edit to pass through too, then check nothing regressed.
    send(delivery(repo, 8, "opened", "marker", "open", "2024-03-04T10:00:00Z"));
    awaitTrue(() -> stateOf(repo + "#8") != null, "marker issue written");
    Record r =
        driver
            .executableQuery(
                "MATCH (i:Issue {id: $id})-[:IN_REPO]->(:Repository {fullName: $repo}) RETURN i.title AS title, count(*) AS n")
            .withParameters(Map.of("id", id, "repo", repo))
            .execute()
            .records()
            .get(0);
    assertEquals("Loss is NaN with ZeRO-3", r.get("title").asString());
    assertEquals(1, r.get("n").asLong());
  }

  @Test
  void sendsUnreadableRecordsToTheDeadLetterTopicAndKeepsRunning() throws Exception {
    String repo = "acme/poison-" + UUID.randomUUID().toString().substring(0, 8);
    try (KafkaProducer<String, byte[]> producer = producer()) {
      producer
          .send(
              new ProducerRecord<>(
                  Topic.DELIVERIES.topicName(),
                  repo + "#1",
                  "not avro".getBytes(StandardCharsets.UTF_8)))
          .get();
    }
    send(
        new Delivery(
            "d-" + UUID.randomUUID(),
            "issues",
            "opened",
            repo,
            Instant.now(),
            DeliverySource.WEBHOOK,
            "{not json"));
    send(delivery(repo, 2, "opened", "healthy issue after poison", "open", "2024-05-01T00:00:00Z"));
    awaitTrue(() -> stateOf(repo + "#2") != null, "issue after the poison records written");
    List<DeadLetter> letters = deadLettersFor(repo, 2);
    assertEquals(2, letters.size());
    assertEquals("issue-pipeline/normalise", letters.get(0).getStage());
  }

  @Test
  void reclassifiesWhenTheIssueChangesAndLinksTheFixingPullRequestAndRelease() throws Exception {
    String repo = "deepspeedai/DeepSpeed";
    // A real repository (its framework and releases matter): an issue number of its own keeps
    // reruns on one graph apart.
    long seed = Long.getLong("faultline.it.seed", System.nanoTime());
    System.out.println(
        "IssuePipelineIT issue number seed: "
            + seed
            + " (rerun with -Dfaultline.it.seed="
            + seed
            + ")");
    int n = 90_000 + new Random(seed).nextInt(9_999);
    String id = repo + "#" + n;
    send(Deliveries.release(repo, "v0.14.0", "2024-01-10T00:00:00Z"));
    awaitTrue(
        () -> count("MATCH (r:Release {id: 'DeepSpeed@0.14.0'}) RETURN count(r)", id) == 1,
        "release written");
    send(
        Deliveries.issue(
            repo,
            n,
            "opened",
            "Training hangs: NCCL watchdog timeout in all_reduce after 30 minutes",
            "With ZeRO-3 on 16 GPUs the job hangs.\ndeepspeed 0.14.0\ntorch 2.3.0",
            "open",
            "2024-02-01T10:00:00Z"));
    awaitTrue(() -> "HANG".equals(value(id, "i.symptom")), "issue classified as HANG");
    assertEquals(
        1L,
        count(
            "MATCH (:Issue {id: $id})-[:HAS_SYMPTOM]->(:Symptom {code: 'HANG'}) RETURN count(*)",
            id));
    assertEquals(
        1L,
        count(
            "MATCH (:Issue {id: $id})-[:FILED_AGAINST]->(:Release {id: 'DeepSpeed@0.14.0'}) RETURN count(*)",
            id));
    assertEquals(
        1L,
        count(
            "MATCH (:Issue {id: $id})-[:REPORTS]->(:Version {id: 'torch@2.3.0'}) RETURN count(*)",
            id));
    // every label explains itself: dimensions without an edge keep their evidence on the issue
    assertNotNull(value(id, "i.kindEvidence"), "kind evidence");
    assertNotNull(value(id, "i.distributedSpecificEvidence"), "distributed-specific evidence");
    assertEquals("UNKNOWN", value(id, "i.fixPattern"));
    assertNotNull(value(id, "i.fixPatternEvidence"), "why the fix pattern is UNKNOWN");
    // every dimension keeps its distribution over its codes, the symptom's mass largest on HANG
    for (Dimension d : Dimension.values()) {
      List<?> p = (List<?>) value(id, "i." + d.probabilitiesProperty());
      assertEquals(d.distributionCodes().size(), p.size(), d + " probabilities");
      double sum = p.stream().mapToDouble(x -> ((Number) x).doubleValue()).sum();
      assertEquals(1.0, sum, 1e-3, d + " probabilities sum to 1");
    }
    List<?> symptom = (List<?>) value(id, "i.symptomProbabilities");
    int hang = Dimension.SYMPTOM.distributionCodes().indexOf("HANG");
    for (Object q : symptom) {
      assertTrue(((Number) symptom.get(hang)).doubleValue() >= ((Number) q).doubleValue());
    }

    // The reporter edits the issue: now it is an out-of-memory crash. The old symptom edge must go.
    send(
        Deliveries.issue(
            repo,
            n,
            "edited",
            "CUDA out of memory with ZeRO-3 offload",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
            "open",
            "2024-02-02T10:00:00Z"));
    awaitTrue(
        () -> "OUT_OF_MEMORY".equals(value(id, "i.symptom")),
        "issue re-classified as OUT_OF_MEMORY");
    assertEquals(1L, count("MATCH (:Issue {id: $id})-[r:HAS_SYMPTOM]->() RETURN count(r)", id));

    // A maintainer comments, then a merged PR says it fixes the issue.
    send(
        Deliveries.comment(
            repo, n, 7001, "Confirmed, looking into it.", "MEMBER", "2024-02-03T10:00:00Z"));
    awaitTrue(() -> Long.valueOf(1).equals(value(id, "i.commentCount")), "comment counted");
    send(
        Deliveries.mergedPullRequest(
            repo,
            n + 1,
            "Fix offload buffer sizing",
            "Fixes #" + n + ". Add a check before allocating.",
            "2024-02-05T10:00:00Z"));
    awaitTrue(
        () ->
            count(
                    "MATCH (p:PullRequest {merged: true})-[:FIXES]->(:Issue {id: $id}) RETURN count(p)",
                    id)
                == 1,
        "FIXES edge");
    // the merged fix lends the issue its fix pattern (the learned layer reads the change as a
    // change): the evidence
    // names the fix and moves to the edge, none stays behind on the issue
    awaitTrue(
        () ->
            count(
                    "MATCH (:Issue {id: $id})-[r:RESOLVED_BY]->(:FixPattern) "
                        + "WHERE r.evidence STARTS WITH 'from the merged fix \"Fix offload buffer sizing\"' RETURN count(r)",
                    id)
                == 1,
        "RESOLVED_BY edge with its evidence");
    assertTrue(
        String.valueOf(value(id, "i.classifierVersion")).startsWith("learned-"),
        "the stream runs the learned layer");
    assertNull(value(id, "i.fixPatternEvidence"), "fix-pattern evidence left on the issue");
    awaitClassifiedRecords(id, 4);
  }

  @Test
  void mutatedPayloadsNeverStopTheJobAndPoisonEndsInTheDeadLetterTopic() throws Exception {
    String repo = "acme/fuzz-" + UUID.randomUUID().toString().substring(0, 8);
    byte[] seed =
        Deliveries.issue(repo, 1, "opened", "seed", "body", "open", "2024-04-01T00:00:00Z")
            .getPayloadJson()
            .getBytes(StandardCharsets.UTF_8);
    dev.faultline.embedded.testing.PayloadMutator mutator =
        new dev.faultline.embedded.testing.PayloadMutator(42);
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 0; i < 300; i++) {
        String payload = new String(mutator.mutate(seed), StandardCharsets.UTF_8);
        Delivery d =
            new Delivery(
                "fuzz-" + i,
                "issues",
                "opened",
                repo,
                Instant.now(),
                DeliverySource.WEBHOOK,
                payload);
        producer.send(
            new ProducerRecord<>(
                Topic.DELIVERIES.topicName(), repo + "#1", AvroCodec.deliveries().encode(d)));
      }
      producer.flush();
    }
    String marker = repo + "#2";
    send(
        Deliveries.issue(
            repo, 2, "opened", "after the storm", "body", "open", "2024-04-02T00:00:00Z"));
    awaitTrue(() -> stateOf(marker) != null, "an issue sent after 300 mutated payloads is written");
    assertEquals(org.apache.flink.api.common.JobStatus.RUNNING, job.getJobStatus().get());
    List<DeadLetter> letters = deadLettersFor(repo, 1);
    assertTrue(!letters.isEmpty(), "some mutated payloads were poison");
    letters.forEach(l -> assertTrue(!l.getReason().isBlank(), "a dead letter says why"));
  }

  @Test
  void titlesThatLookLikeCypherOrScriptAreStoredAsText() throws Exception {
    String repo = "acme/inject-" + UUID.randomUUID().toString().substring(0, 8);
    send(
        Deliveries.issue(
            repo,
            1,
            "opened",
            "a neighbour written first",
            "body",
            "open",
            "2024-04-01T00:00:00Z"));
    awaitTrue(() -> stateOf(repo + "#1") != null, "neighbour issue written");
    String title = "'}) MATCH (n) DETACH DELETE n // <script>alert(1)</script>";
    send(
        Deliveries.issue(
            repo,
            2,
            "opened",
            title,
            "$rows ${jndi:ldap://x} \"; DROP",
            "open",
            "2024-04-02T00:00:00Z"));
    awaitTrue(() -> stateOf(repo + "#2") != null, "issue written");
    assertEquals(title, value(repo + "#2", "i.title"));
    assertEquals(
        2,
        count("MATCH (i:Issue)-[:IN_REPO]->(:Repository {fullName: $id}) RETURN count(i)", repo),
        "the neighbour and its repository are still there");
  }

  /** Reads the classified topic until it holds {@code expected} records of the issue. */
  private static void awaitClassifiedRecords(String id, int expected) {
    try (KafkaConsumer<byte[], byte[]> consumer =
        KafkaClients.fromStart(
            stack.bootstrapServers(),
            "c-",
            Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      long[] found = {0};
      KafkaClients.readUntil(
          consumer,
          Topic.ISSUES_CLASSIFIED.topicName(),
          WAIT,
          () ->
              found[0]
                  + " of "
                  + expected
                  + " classified records of "
                  + id
                  + " on "
                  + Topic.ISSUES_CLASSIFIED.topicName(),
          rec -> {
            if (id.equals(new String(rec.key(), StandardCharsets.UTF_8))) {
              found[0]++;
            }
          },
          () -> found[0] >= expected);
    }
  }

  private static List<DeadLetter> deadLettersFor(String repo, int expected) throws Exception {
    AvroCodec<DeadLetter> codec = AvroCodec.deadLetters();
    List<DeadLetter> found = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        KafkaClients.fromStart(
            stack.bootstrapServers(),
            "dlq-",
            Map.of(),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      KafkaClients.readUntil(
          consumer,
          Topic.DEAD_LETTER.topicName(),
          Duration.ofSeconds(30),
          () -> expected + " dead letters of " + repo + ", found " + found.size(),
          rec -> {
            DeadLetter letter = codec.decode(rec.value());
            if (letter.getKey() != null && letter.getKey().startsWith(repo)) {
              found.add(letter);
            }
          },
          () -> found.size() >= expected);
    }
    return found;
  }

  static Delivery delivery(
      String repo, int number, String action, String title, String state, String updatedAt) {
    String payload =
        """
        {"action": "%s", "issue": {"number": %d, "title": "%s", "state": "%s", "body": "body text",
          "html_url": "https://github.com/%s/issues/%d", "user": {"login": "reporter"}, "labels": [{"name": "bug"}],
          "created_at": "2024-03-01T10:00:00Z", "updated_at": "%s", "closed_at": null},
         "repository": {"full_name": "%s"}}
        """
            .formatted(action, number, title, state, repo, number, updatedAt, repo);
    return new Delivery(
        "d-" + UUID.randomUUID(),
        "issues",
        action,
        repo,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload);
  }

  private static Object value(String id, String expression) {
    return stack.issueValue(id, expression);
  }

  private static long count(String statement, String id) {
    return stack.count(statement, id);
  }

  private static KafkaProducer<String, byte[]> producer() {
    return stack.producer();
  }

  private static void send(Delivery d) {
    stack.send(d);
  }

  private static String stateOf(String id) {
    List<Record> records =
        driver
            .executableQuery("MATCH (i:Issue {id: $id}) RETURN i.state AS state")
            .withParameters(Map.of("id", id))
            .execute()
            .records();
    return records.isEmpty() ? null : records.get(0).get("state").asString();
  }

  static void awaitTrue(Poll.Condition condition, String what) {
    Poll.until(WAIT, what, condition);
  }
}
