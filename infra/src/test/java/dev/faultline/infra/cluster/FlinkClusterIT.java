package dev.faultline.infra.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.SessionConfig;

/**
 * The job jar on a real Flink standalone cluster (a JobManager and two TaskManagers, each its own
 * JVM, Flink and log4j only on their classpath), submitted with {@code faultline jobs submit}
 * through the REST API, against a real Kafka and Neo4j: deliveries reach the graph; a savepoint, a
 * cancel and a resubmission from the savepoint lose nothing and double nothing.
 */
class FlinkClusterIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD =
      "cluster-it-" + UUID.randomUUID().toString().substring(0, 8);

  @TempDir Path tmp;

  @Test
  void pipelineJarRunsOnStandaloneClusterAndResumesFromSavepointWithoutLossOrDuplicates()
      throws Exception {
    Path jobJar =
        Path.of(
            System.getProperty("faultline.job.jar", "target/flink-dist/usrlib/faultline-jobs.jar"));
    assertTrue(
        Files.isRegularFile(jobJar),
        "job jar missing at " + jobJar + ": run 'mvn -pl jobs-dist install' first");
    try (JarFile jar = new JarFile(jobJar.toFile())) {
      // Both entry classes and the bundled connector are in the jar; the cluster does not have
      // them.
      for (String c :
          List.of(
              "dev/faultline/jobs/IssuePipelineJob.class",
              "dev/faultline/stats/CategoryStatsJob.class",
              "org/apache/flink/connector/kafka/source/KafkaSource.class",
              "org/neo4j/driver/Driver.class")) {
        assertNotNull(jar.getEntry(c), c + " is not in the job jar");
      }
    }
    Instant started = Instant.now();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        StandaloneFlinkCluster flink =
            StandaloneFlinkCluster.start(
                tmp.resolve("flink"),
                Path.of(System.getProperty("faultline.flink.lib", "target/flink-dist/lib")),
                System.getProperty("faultline.flink.jvm-opens", ""),
                2,
                2);
        KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
      bootstrapForDiagnostics = kafka.bootstrapServers();
      System.out.printf(
          "FlinkClusterIT: Kafka, Neo4j and a 3-JVM Flink cluster up in %d ms%n",
          Duration.between(started, Instant.now()).toMillis());
      try {
        kafka.createTopics(4, Arrays.stream(Topic.values()).map(Topic::topicName).toList());
        new GraphSchema(driver, "neo4j").migrate();
        FlinkRestClient rest = FlinkRestClient.forJobManager(flink.jobManagerAddress());
        String repo = "it-" + UUID.randomUUID().toString().substring(0, 8) + "/DeepSpeed";
        List<String> jobArgs =
            List.of(
                "--jar",
                jobJar.toString(),
                "--job",
                "pipeline",
                "--parallelism",
                "2",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--neo4j-uri",
                neo4j.boltUri().toString(),
                "--neo4j-user",
                EmbeddedNeo4j.USER,
                "--neo4j-password",
                PASSWORD,
                "--group-id",
                "cluster-it-" + UUID.randomUUID(),
                "--checkpoint-interval-ms",
                "1000",
                "--sink-flush-ms",
                "200");

        // 1. Submit with the command, as an operator would.
        String first = submit(flink, jobArgs);
        rest.awaitRunning(first, Duration.ofSeconds(60));

        // 2. Twelve issues, three of them edited later (newest title wins).
        Map<String, String> expectedTitles = new HashMap<>();
        for (int n = 1; n <= 12; n++) {
          send(
              producer,
              issue(
                  repo,
                  n,
                  "opened",
                  "NCCL timeout in allreduce on rank " + n,
                  "2024-03-01T10:00:00Z"),
              expectedTitles);
        }
        for (int n = 1; n <= 3; n++) {
          send(
              producer,
              issue(
                  repo,
                  n,
                  "edited",
                  "NCCL watchdog timeout in allreduce, rank " + n + " (edited)",
                  "2024-03-02T10:00:00Z"),
              expectedTitles);
        }
        producer.flush();
        awaitGraph(driver, repo, expectedTitles, flink);

        // 3. Savepoint, cancel, resubmit from the savepoint.
        String savepoint =
            rest.awaitSavepoint(
                first,
                rest.triggerSavepoint(first, flink.savepointDir().toUri().toString(), false),
                Duration.ofSeconds(60));
        rest.cancel(first);
        assertEquals("CANCELED", rest.awaitTerminal(first, Duration.ofSeconds(60)));
        List<String> resumeArgs = new ArrayList<>(jobArgs);
        resumeArgs.addAll(List.of("--from-savepoint", savepoint));
        String second = submit(flink, resumeArgs);
        rest.awaitRunning(second, Duration.ofSeconds(60));
        var restored = rest.checkpoints(second).path("latest").path("restored");
        assertTrue(
            restored.path("is_savepoint").asBoolean(),
            "second job not restored from a savepoint: " + restored);
        String savepointName =
            Path.of(java.net.URI.create(savepoint).getPath()).getFileName().toString();
        assertTrue(
            restored.path("external_path").asText().endsWith(savepointName),
            "restored from " + restored + ", not " + savepoint);

        // 4. More: eight new issues and one more edit of an old one.
        for (int n = 13; n <= 20; n++) {
          send(
              producer,
              issue(
                  repo,
                  n,
                  "opened",
                  "ZeRO-3 checkpoint load hangs on rank " + n,
                  "2024-03-03T10:00:00Z"),
              expectedTitles);
        }
        send(
            producer,
            issue(
                repo,
                4,
                "edited",
                "NCCL timeout after resume, rank 4 (edited)",
                "2024-03-04T10:00:00Z"),
            expectedTitles);
        producer.flush();
        awaitGraph(driver, repo, expectedTitles, flink);

        // 5. Nothing doubled: each (issue, version) classified exactly once in the exactly-once
        // topic; nothing lost.
        Map<String, Integer> perVersion =
            awaitClassified(kafka.bootstrapServers(), repo, 20 + 3 + 1, flink);
        perVersion.forEach(
            (k, count) ->
                assertEquals(1, count, "classified more than once across the restore: " + k));
        assertEquals(20 + 3 + 1, perVersion.size(), "classified versions: " + perVersion.keySet());
        assertEquals(20, issueCount(driver, repo));
        // the job jar's learned classifier loaded on the cluster, for the first job and for the one
        // restored into
        // the same task managers (a new user-code class loader): no fallback to the rules
        assertEquals(
            List.of(),
            classifierVersions(driver, repo).stream()
                .filter(v -> !v.startsWith("learned-"))
                .toList(),
            "issues not classified by the learned layer");

        run(
            new String[] {
              "jobs", "cancel", "--jobmanager", flink.jobManagerAddress(), "--job", "pipeline"
            });
        assertEquals("CANCELED", rest.jobState(second));
        System.out.printf(
            "FlinkClusterIT: done in %d ms%n", Duration.between(started, Instant.now()).toMillis());
      } catch (Throwable t) {
        flink.printLogs(System.err);
        throw t;
      }
    }
  }

  /** Runs {@code faultline jobs submit ...} and returns the job id it printed. */
  private static String submit(StandaloneFlinkCluster flink, List<String> args) throws Exception {
    List<String> all =
        new ArrayList<>(List.of("jobs", "submit", "--jobmanager", flink.jobManagerAddress()));
    all.addAll(args);
    String out = run(all.toArray(String[]::new));
    Matcher m =
        Pattern.compile("submitted faultline-issue-pipeline as job ([0-9a-f]{32})").matcher(out);
    assertTrue(m.find(), "no job id in: " + out);
    return m.group(1);
  }

  private static String run(String[] args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = new JobsCommand(System.getenv()).run(Arrays.copyOfRange(args, 1, args.length), o, e);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(
        0,
        code,
        "faultline "
            + String.join(" ", args)
            + " failed: "
            + err.toString(StandardCharsets.UTF_8)
            + text);
    return text;
  }

  private static KafkaProducer<String, byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  private static void send(
      KafkaProducer<String, byte[]> producer, Delivery d, Map<String, String> expectedTitles)
      throws Exception {
    var payload = JSON.readTree(d.getPayloadJson());
    String key = DeliveryKey.of(d.getEvent(), payload);
    producer
        .send(
            new ProducerRecord<>(
                Topic.DELIVERIES.topicName(), key, AvroCodec.deliveries().encode(d)))
        .get();
    expectedTitles.put(
        d.getRepository() + "#" + payload.path("issue").path("number").asInt(),
        payload.path("issue").path("title").asText());
  }

  private static Delivery issue(
      String repo, int number, String action, String title, String updatedAt) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", action);
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", title);
    issue.put(
        "body",
        "Training with DeepSpeed 0.14.0 on 2 nodes: the NCCL watchdog aborts the collective after 1800000 ms.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + repo + "/issues/" + number);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels").addObject().put("name", "bug");
    issue.put("created_at", "2024-03-01T10:00:00Z");
    issue.put("updated_at", updatedAt);
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", repo);
    return new Delivery(
        "d-" + UUID.randomUUID(),
        "issues",
        action,
        repo,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }

  private static List<String> classifierVersions(Driver driver, String repo) {
    try (var s = driver.session(SessionConfig.forDatabase("neo4j"))) {
      return s.run(
              "MATCH (i:Issue) WHERE i.id STARTS WITH $repo RETURN DISTINCT i.classifierVersion AS v",
              Map.of("repo", repo + "#"))
          .list(r -> r.get("v").asString());
    }
  }

  private static long issueCount(Driver driver, String repo) {
    try (var s = driver.session(SessionConfig.forDatabase("neo4j"))) {
      return s.run(
              "MATCH (i:Issue) WHERE i.id STARTS WITH $repo RETURN count(i) AS n",
              Map.of("repo", repo + "#"))
          .single()
          .get("n")
          .asLong();
    }
  }

  private static void awaitGraph(
      Driver driver, String repo, Map<String, String> expectedTitles, StandaloneFlinkCluster flink)
      throws Exception {
    Poll.until(
        Duration.ofSeconds(60),
        () -> {
          flink.assertAllAlive();
          try (var s = driver.session(SessionConfig.forDatabase("neo4j"))) {
            Map<String, String> titles = new HashMap<>();
            for (Record r :
                s.run(
                        "MATCH (i:Issue) WHERE i.id STARTS WITH $repo RETURN i.id AS id, i.title AS title",
                        Map.of("repo", repo + "#"))
                    .list()) {
              titles.put(r.get("id").asString(), r.get("title").asString());
            }
            return titles;
          }
        },
        expectedTitles::equals,
        last ->
            "the expected issues in the graph "
                + expectedTitles
                + ", found "
                + last
                + "; "
                + topicCounts(flink));
  }

  /** Committed classified records of the repo's issues, counted per (issue id, state version). */
  private static String bootstrapForDiagnostics;

  /** What the job's input and output topics hold, for a failure message. */
  private static String topicCounts(StandaloneFlinkCluster flink) {
    if (bootstrapForDiagnostics == null) {
      return "";
    }
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapForDiagnostics);
    StringBuilder b = new StringBuilder("topics:");
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      for (Topic t : Topic.values()) {
        List<TopicPartition> parts =
            consumer.partitionsFor(t.topicName()).stream()
                .map(i -> new TopicPartition(i.topic(), i.partition()))
                .toList();
        long n = consumer.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum();
        b.append(' ').append(t.topicName()).append('=').append(n);
        if (t == Topic.DEAD_LETTER && n > 0) {
          consumer.assign(parts);
          consumer.seekToBeginning(parts);
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofSeconds(3))) {
            b.append(" [")
                .append(
                    new String(r.value(), java.nio.charset.StandardCharsets.UTF_8),
                    0,
                    Math.min(300, r.value().length))
                .append(']');
            break;
          }
        }
      }
    } catch (RuntimeException e) {
      b.append(" (").append(e).append(')');
    }
    return b.toString();
  }

  private static Map<String, Integer> awaitClassified(
      String bootstrap, String repo, int expectedVersions, StandaloneFlinkCluster flink)
      throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    Map<String, Integer> counts = new HashMap<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(Topic.ISSUES_CLASSIFIED.topicName()).stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Poll.until(
          Duration.ofSeconds(60),
          () -> expectedVersions + " classified versions, found " + counts.keySet(),
          () -> {
            flink.assertAllAlive();
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
              if (r.key() != null && r.key().startsWith(repo + "#")) {
                counts.merge(r.key() + "@" + r.timestamp(), 1, Integer::sum);
              }
            }
            return counts.size() >= expectedVersions;
          });
      // One more poll round: a duplicate committed right behind would show now.
      consumer
          .poll(Duration.ofSeconds(2))
          .forEach(
              r -> {
                if (r.key() != null && r.key().startsWith(repo + "#")) {
                  counts.merge(r.key() + "@" + r.timestamp(), 1, Integer::sum);
                }
              });
    }
    return counts;
  }
}
