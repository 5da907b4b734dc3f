package dev.faultline.infra.relabel;

import static dev.faultline.infra.relabel.ScopedHistory.concat;
import static dev.faultline.infra.relabel.ScopedHistory.liveJob;
import static dev.faultline.infra.relabel.ScopedHistory.producer;
import static dev.faultline.infra.relabel.ScopedHistory.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * {@code faultline reclassify} on real parts (in-process Kafka and Neo4j, Flink mini clusters): the
 * graph is labelled by the rules tier, the live job is switched to the learned tier, and reclassify
 * relabels history while new deliveries arrive; the report's counts equal the graph's, every issue
 * carries the new classifier's version, the deliveries sent during the run land, and a second run
 * changes nothing and doubles nothing.
 */
class ReclassifyIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "reclassify-it-pw";
  private static final String REPO = "deepspeedai/DeepSpeed";
  private static final String[] TITLES = {
    "Training hangs in all_reduce after the first step on two nodes",
    "CUDA out of memory while saving a checkpoint with ZeRO stage 3",
    "How do I set the micro batch size for pipeline parallel inference?",
    "Loss becomes nan with bf16 after resuming from a checkpoint",
    "NCCL error: unhandled system error during init_process_group",
  };

  @Test
  void relabelsHistoryWhileDeliveriesArriveAndASecondRunChangesNothing(@TempDir Path tmp)
      throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
      kafka.createTopics(2, Arrays.stream(Topic.values()).map(Topic::topicName).toList());
      new GraphSchema(driver, "neo4j").migrate();
      String[] conn =
          ScopedHistory.conn(
              kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);

      // 1. History labelled by the rules tier.
      JobClient live = liveJob(conn, ClassifierTier.RULES);
      for (int n = 1; n <= 10; n++) {
        send(producer, issue(n, TITLES[n % TITLES.length] + " (#" + n + ")"));
      }
      awaitIssues(driver, 10, "rules-");
      live.cancel().get();

      // 2. The stack now runs the learned tier (the default); reclassify while deliveries arrive.
      JobClient live2 = liveJob(conn, ClassifierTier.LEARNED);
      Path dir = tmp.resolve("report");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Thread run =
          new Thread(
              () ->
                  new Faultline()
                      .run(
                          concat(new String[] {"reclassify", "--report-dir", dir.toString()}, conn),
                          new PrintStream(out, true, StandardCharsets.UTF_8),
                          new PrintStream(out, true, StandardCharsets.UTF_8)));
      run.start();
      for (int n = 11; n <= 13; n++) {
        send(producer, issue(n, TITLES[n % TITLES.length] + " (sent during the run, #" + n + ")"));
      }
      run.join(Duration.ofMinutes(8).toMillis());
      assertTrue(out.toString().contains("reclassify: done"), out.toString());
      assertTrue(out.toString().contains("deliveries replayed"), "progress: " + out);
      awaitIssues(driver, 13, "learned-");

      JsonNode report = JSON.readTree(dir.resolve("report.json").toFile());
      JsonNode versions = report.at("/DeepSpeed/" + Reclassify.CLASSIFIER_VERSION);
      int relabelled = 0;
      for (JsonNode t : versions.get("transitions")) {
        if (t.get("from").asText().startsWith("rules-")
            && t.get("to").asText().startsWith("learned-")) {
          relabelled += t.get("count").asInt();
        }
      }
      assertEquals(10, relabelled, "every issue of history moved to the learned tier: " + versions);
      // The report's counts are the graph's: per code of symptom, the issues the graph holds now.
      JsonNode symptom = report.at("/DeepSpeed/symptom/after");
      for (var it = symptom.fields(); it.hasNext(); ) {
        var e = it.next();
        long inGraph =
            driver
                .session()
                .run(
                    "MATCH (i:Issue {framework: 'DeepSpeed'}) WHERE i.symptom = $c RETURN count(i) AS n",
                    Map.of("c", e.getKey()))
                .single()
                .get("n")
                .asLong();
        assertEquals(inGraph, e.getValue().asLong(), "symptom " + e.getKey());
      }

      // The graph keeps every label's version, time and the label it replaced: the labels before
      // the run rebuilt from the graph alone are the run's "before" snapshot (the issues of
      // history;
      // those sent during the run may land on either side of the snapshot's instant), and the
      // labels
      // now are its "after".
      java.time.Instant runStart =
          java.time.Instant.parse(
              JSON.readTree(dir.resolve("run.json").toFile()).path("startedAt").asText());
      LabelSnapshots graphOnly =
          new LabelSnapshots(JobConfig.fromArgs(conn, Map.of()).io().graph());
      Map<String, Map<String, String>> rebuiltBefore =
          byId(graphOnly.snapshotAsOf(Reclassify.Scope.all(), runStart));
      Map<String, Map<String, String>> savedBefore =
          byId(ReclassifyCommand.read(dir.resolve("before.json")));
      assertEquals(10, savedBefore.size());
      savedBefore.forEach(
          (id, codes) -> {
            Map<String, String> labelled = new java.util.TreeMap<>(codes);
            labelled
                .keySet()
                .removeIf(k -> Dimension.ofKey(k).map(d -> !d.labelled()).orElse(false));
            assertEquals(labelled, rebuiltBefore.get(id), "rebuilt from the graph: " + id);
          });
      assertEquals(
          byId(graphOnly.labelledNow(Reclassify.Scope.all())),
          byId(labelledOnly(ReclassifyCommand.read(dir.resolve("after.json")))));
      graphOnly.close();

      // ... and the command rebuilds that report later: every history issue moved rules -> learned.
      Path rebuiltDir = tmp.resolve("rebuilt");
      out.reset();
      assertEquals(
          0,
          new Faultline()
              .run(
                  concat(
                      new String[] {
                        "reclassify",
                        "--changes-since",
                        runStart.toString(),
                        "--report-dir",
                        rebuiltDir.toString()
                      },
                      conn),
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(out, true, StandardCharsets.UTF_8)),
          out.toString());
      int moved = 0;
      for (JsonNode t :
          JSON.readTree(rebuiltDir.resolve("report.json").toFile())
              .at("/DeepSpeed/" + Reclassify.CLASSIFIER_VERSION + "/transitions")) {
        if (t.get("from").asText().startsWith("rules-")
            && t.get("to").asText().startsWith("learned-")) {
          moved += t.get("count").asInt();
        }
      }
      assertEquals(10, moved, "the rebuilt report: " + out);

      // 3. A second run changes nothing and doubles nothing.
      out.reset();
      assertEquals(
          0,
          new Faultline()
              .run(
                  concat(new String[] {"reclassify", "--report-dir", dir.toString()}, conn),
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(out, true, StandardCharsets.UTF_8)),
          out.toString());
      JsonNode again = JSON.readTree(dir.resolve("report.json").toFile());
      for (var dims = again.path("DeepSpeed").fields(); dims.hasNext(); ) {
        var d = dims.next();
        assertEquals(0, d.getValue().get("changed").asInt(), d.getKey() + ": " + d.getValue());
        assertEquals(13, d.getValue().get("compared").asInt(), d.getKey());
      }
      assertEquals(
          13L,
          driver.session().run("MATCH (i:Issue) RETURN count(i) AS n").single().get("n").asLong());

      // 4. A run killed midway and started again with the same --report-dir loses and doubles
      // nothing. 600 more edits first, so that the replay takes long enough to be killed.
      for (int k = 0; k < 600; k++) {
        int n = 1 + k % 13;
        send(
            producer, issue(n, TITLES[n % TITLES.length] + " (#" + n + ", edit " + k + ")", 2 + k));
      }
      awaitTitles(driver, "edit 599)");
      Path killedDir = tmp.resolve("killed");
      String group = "faultline-reclassify-killed";
      JobConfig replayConfig =
          JobConfig.fromArgs(
                  concat(
                      new String[] {"--group-id", group, "--checkpoint-interval-ms", "500"}, conn),
                  Map.of())
              .withReplay(Replay.of(ReplayScope.ALL));
      java.nio.file.Files.createDirectories(killedDir);
      try (LabelSnapshots labels = new LabelSnapshots(replayConfig.io().graph())) {
        ReclassifyCommand.write(
            killedDir.resolve("before.json"), labels.snapshot(Reclassify.Scope.all()));
      }
      java.nio.file.Files.writeString(
          killedDir.resolve("run.json"), "{\"group\":\"" + group + "\"}");
      java.util.concurrent.atomic.AtomicLong seen = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicReference<JobClient> job =
          new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicBoolean completed =
          new java.util.concurrent.atomic.AtomicBoolean();
      long[] startedAt = {0};
      Thread killed =
          new Thread(
              () -> {
                try {
                  Reclassify.replay(
                      replayConfig,
                      200,
                      p -> {
                        seen.set(p.done());
                        boolean midway = p.done() > 0 && p.done() < p.total();
                        if (midway || System.nanoTime() - startedAt[0] > 1_500_000_000L) {
                          try {
                            job.get().cancel().get(); // killed
                          } catch (Exception ignored) {
                            // already ended
                          }
                        }
                      },
                      j -> {
                        startedAt[0] = System.nanoTime();
                        job.set(j);
                        // killed as soon as it is submitted: on an idle machine the small history
                        // replays in under a second, so a kill that waits for progress could come
                        // after the end (the test then saw a finished replay)
                        j.cancel();
                      });
                  completed.set(true);
                } catch (Exception cancelled) {
                  // the replay was killed
                }
              });
      killed.start();
      killed.join(Duration.ofMinutes(4).toMillis());
      long doneBeforeKill = seen.get();
      assertTrue(!completed.get(), "the replay was killed before it finished");
      out.reset();
      assertEquals(
          0,
          new Faultline()
              .run(
                  concat(new String[] {"reclassify", "--report-dir", killedDir.toString()}, conn),
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(out, true, StandardCharsets.UTF_8)),
          out.toString());
      assertTrue(out.toString().contains("resuming the run of group " + group), out.toString());
      System.out.printf(
          "ReclassifyIT: killed with %d deliveries committed; resumed: %s%n",
          doneBeforeKill, out.toString().lines().filter(l -> l.contains("replayed")).toList());
      JsonNode resumed = JSON.readTree(killedDir.resolve("report.json").toFile());
      for (var dims = resumed.path("DeepSpeed").fields(); dims.hasNext(); ) {
        var d = dims.next();
        assertEquals(13, d.getValue().get("compared").asInt(), d.getKey());
        assertEquals(0, d.getValue().get("gone").asInt(), d.getKey());
        assertEquals(0, d.getValue().get("added").asInt(), d.getKey());
      }
      assertEquals(
          13L,
          driver.session().run("MATCH (i:Issue) RETURN count(i) AS n").single().get("n").asLong());
      assertEquals(
          0L,
          driver
              .session()
              .run(
                  "MATCH (i:Issue)-[r:HAS_SYMPTOM]->() WITH i, count(r) AS n WHERE n > 1"
                      + " RETURN count(i) AS n")
              .single()
              .get("n")
              .asLong(),
          "no issue has two symptoms");
      awaitIssues(driver, 13, "learned-");
      live2.cancel().get();
    }
  }

  private static Map<String, Map<String, String>> byId(
      java.util.List<RelabelReport.Labels> labels) {
    Map<String, Map<String, String>> m = new java.util.TreeMap<>();
    labels.forEach(l -> m.put(l.id(), new java.util.TreeMap<>(l.codes())));
    return m;
  }

  private static java.util.List<RelabelReport.Labels> labelledOnly(
      java.util.List<RelabelReport.Labels> labels) {
    return labels.stream()
        .map(
            l -> {
              Map<String, String> codes = new java.util.HashMap<>(l.codes());
              codes
                  .keySet()
                  .removeIf(k -> Dimension.ofKey(k).map(d -> !d.labelled()).orElse(false));
              return new RelabelReport.Labels(l.id(), l.framework(), codes);
            })
        .toList();
  }

  private static void awaitTitles(Driver driver, String fragment) {
    Poll.until(
        Duration.ofMinutes(4),
        "an issue titled with " + fragment,
        () ->
            driver
                    .session()
                    .run(
                        "MATCH (i:Issue) WHERE i.title CONTAINS $f RETURN count(i) AS n",
                        Map.of("f", fragment))
                    .single()
                    .get("n")
                    .asLong()
                > 0);
  }

  private static void awaitIssues(Driver driver, int n, String versionPrefix) {
    Poll.until(
        Duration.ofMinutes(4),
        "all " + n + " issues labelled by " + versionPrefix,
        () ->
            driver
                    .session()
                    .run(
                        "MATCH (i:Issue) WHERE i.classifierVersion STARTS WITH $p RETURN count(i) AS n",
                        Map.of("p", versionPrefix))
                    .single()
                    .get("n")
                    .asLong()
                == n);
  }

  private static Delivery issue(int number, String title) {
    return issue(number, title, 0);
  }

  /** An issue delivery; {@code minutes} after the first state (an edit when above 0). */
  private static Delivery issue(int number, String title, int minutes) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", minutes == 0 ? "opened" : "edited");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", title);
    issue.put(
        "body",
        "Running with deepspeed 0.14.2 and torch 2.3.0 on 2 nodes of 8 GPUs; the job stops at step 3"
            + " with the error in the title. Config: zero stage 3, bf16, offload to cpu.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + number);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels").addObject().put("name", "bug");
    issue.put("created_at", "2024-03-01T10:00:00Z");
    issue.put(
        "updated_at", Instant.parse("2024-03-01T10:00:00Z").plusSeconds(60L * minutes).toString());
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", REPO);
    return new Delivery(
        "d-" + UUID.randomUUID(),
        "issues",
        minutes == 0 ? "opened" : "edited",
        REPO,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }
}
