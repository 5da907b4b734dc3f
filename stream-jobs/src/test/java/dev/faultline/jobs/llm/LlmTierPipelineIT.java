package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.LlmFixtures;
import dev.faultline.jobs.PipelineStack;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.Topic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The issue pipeline with the language-model tier on, on a real KRaft broker, a real Neo4j server,
 * Flink MiniClusters and the real-HTTP stub chat server. The tests run in order and share the
 * broker, the graph and the answers topic: the first labels issues, the second replays the delivery
 * topic, the third kills the endpoint.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LlmTierPipelineIT {
  private static final String PASSWORD = "llm-tier-it-password";
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  @TempDir static Path dir;
  private static PipelineStack stack;
  private static JobClient job;
  private static final String REPO = "acme/llm-" + UUID.randomUUID().toString().substring(0, 8);
  private static final List<String> labelled = new ArrayList<>();

  @BeforeAll
  static void startStack() throws Exception {
    // The answers topic is not created here: the job creates it, compacted, as it does on a
    // cluster.
    stack =
        PipelineStack.start(
            dir, PASSWORD, Topic.DELIVERIES, Topic.DEAD_LETTER, Topic.ISSUES_CLASSIFIED);
  }

  @AfterAll
  static void stopStack() throws Exception {
    cancel();
    stack.close();
  }

  private static void cancel() throws Exception {
    if (job != null && !job.getJobStatus().get().isGloballyTerminalState()) {
      job.cancel().get();
    }
    job = null;
  }

  private static JobConfig config(StubChatServer stub) {
    LlmSettings llm =
        LlmSettings.of(
            LlmFixtures.settings(
                stub,
                // long enough for a held request to wait until the test releases it
                "FAULTLINE_LLM_TIMEOUT_MS",
                "120000",
                "FAULTLINE_LLM_CONNECT_TIMEOUT_MS",
                "2000",
                "FAULTLINE_LLM_MAX_RETRIES",
                "1",
                "FAULTLINE_LLM_BACKOFF_MS",
                "50",
                "FAULTLINE_LLM_CONCURRENCY",
                "4",
                "FAULTLINE_LLM_ASYNC_TIMEOUT_MS",
                "300000",
                "FAULTLINE_LLM_ASYNC_CAPACITY",
                "50"));
    // a new group: every job reads the delivery topic from its start
    return stack
        .jobConfig("llm-it-" + UUID.randomUUID(), dir.resolve("checkpoints-" + UUID.randomUUID()))
        .withLlm(llm);
  }

  private static JobClient start(StubChatServer stub, boolean bounded) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    JobConfig config = config(stub);
    IssuePipelineJob.build(env, bounded ? config.withReplay(Replay.of(ReplayScope.ALL)) : config);
    return env.executeAsync(IssuePipelineJob.NAME);
  }

  @Test
  @Order(1)
  void deliveriesLandWithOfflineLabelsAtOnceAndLlmLabelsAfterTheAnswer() throws Exception {
    try (StubChatServer stub =
        new StubChatServer().otherwise(StubChatServer.Reply.answer(LlmFixtures.ANSWER))) {
      stub.hold(); // no answer until the offline labels are seen in the graph
      job = start(stub, false);
      List<Delivery> issues =
          List.of(
              LlmFixtures.issue(
                  REPO,
                  1,
                  "Checkpoint save stalls on rank 3 with the async writer",
                  "Saving every 500 steps, rank 3 never returns from save().",
                  "2024-06-01T10:00:00Z"),
              LlmFixtures.issue(
                  REPO,
                  2,
                  "Resume from a sharded checkpoint loses optimizer state",
                  "After resuming, the learning rate schedule starts over.",
                  "2024-06-01T11:00:00Z"),
              LlmFixtures.issue(
                  REPO,
                  3,
                  "Served model answers differ between replicas",
                  "Two replicas of the same model give different completions.",
                  "2024-06-01T12:00:00Z",
                  "inference"));
      issues.forEach(LlmTierPipelineIT::send);
      for (int n = 1; n <= 3; n++) {
        labelled.add(REPO + "#" + n);
      }
      for (String id : labelled) {
        awaitTrue(
            () -> value(id, "i.labelSource") != null, id + " written with its offline labels");
        assertTrue(
            List.of("model", "rules").contains(value(id, "i.labelSource")), id + " offline first");
        assertEquals(null, value(id, "i.promptVersion"));
      }
      awaitTrue(
          () -> stub.requests().size() == 3, "the three requests outstanding at the endpoint");

      stub.release();
      for (String id : labelled) {
        awaitTrue(
            () -> ("llm:" + LlmFixtures.MODEL).equals(value(id, "i.labelSource")),
            id + " upgraded");
        assertEquals("CHECKPOINT_FAILURE", value(id, "i.symptom"));
        assertEquals(
            1L,
            count(
                "MATCH (:Issue {id: $id})-[e:HAS_SYMPTOM {source: 'llm:"
                    + LlmFixtures.MODEL
                    + "'}]->(:Symptom {code: 'CHECKPOINT_FAILURE'}) RETURN count(e)",
                id));
        assertTrue(
            String.valueOf(value(id, "i.promptVersion")).startsWith("faultline-prompt-"),
            "prompt version");
      }
      String inference = REPO + "#3";
      assertEquals(
          "INFERENCE",
          value(inference, "i.phase"),
          "the person's label wins over the model's TRAINING");
      assertEquals("human", value(inference, "i.phaseSource"));
      assertEquals("TRAINING", value(REPO + "#1", "i.phase"));
      assertEquals(3, stub.requests().size(), "one request per issue");
      assertEquals("compact", cleanupPolicy(Topic.LLM_ANSWERS.topicName()));
    }
  }

  @Test
  @Order(2)
  void replayingTheDeliveryTopicSendsNoNewRequest() throws Exception {
    assertFalse(labelled.isEmpty(), "runs after the first test");
    cancel();
    try (StubChatServer stub =
        new StubChatServer().otherwise(StubChatServer.Reply.answer(LlmFixtures.OTHER_ANSWER))) {
      // A new job reads the whole delivery topic again, to its current end, and stops.
      job = start(stub, true);
      job.getJobExecutionResult().get(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertEquals(0, stub.requests().size(), "requests during the replay");
      for (String id : labelled) {
        assertEquals("CHECKPOINT_FAILURE", value(id, "i.symptom"), id);
        assertEquals("llm:" + LlmFixtures.MODEL, value(id, "i.labelSource"), id);
        // the replay went through the tier: the graph now holds the upgrade made from the cached
        // answer
        assertEquals(
            1L,
            count(
                "MATCH (:Issue {id: $id})-[e:HAS_SYMPTOM]->() WHERE e.evidence ENDS WITH '(cached answer)'"
                    + " RETURN count(e)",
                id),
            id);
      }
    } finally {
      job = null;
    }
  }

  @Test
  @Order(3)
  void killingTheEndpointMidRunLosesNothingAndStallsNothing() throws Exception {
    StubChatServer stub =
        new StubChatServer().otherwise(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
    List<String> ids = new ArrayList<>();
    try {
      stub.hold();
      job = start(stub, false);
      for (int n = 10; n < 15; n++) {
        send(
            LlmFixtures.issue(
                REPO,
                n,
                "Gradient all-reduce slows down after node " + n + " joins",
                "Step time doubles once the new node is in the ring.",
                "2024-07-01T10:00:00Z"));
        ids.add(REPO + "#" + n);
      }
      awaitTrue(() -> stub.requests().size() >= 1, "requests reach the endpoint");
    } finally {
      stub.close(); // killed with requests in flight
    }
    for (int n = 15; n < 20; n++) {
      send(
          LlmFixtures.issue(
              REPO,
              n,
              "Pipeline stage " + n + " idles while the previous one computes",
              "Bubble time grows with the number of micro-batches.",
              "2024-07-02T10:00:00Z"));
      ids.add(REPO + "#" + n);
    }
    for (String id : ids) {
      awaitTrue(
          () -> value(id, "i.labelSource") != null, id + " written although the endpoint is dead");
      assertTrue(
          List.of("model", "rules").contains(value(id, "i.labelSource")),
          id + " keeps its offline labels");
    }
    assertEquals(JobStatus.RUNNING, job.getJobStatus().get(), "the job survives the dead endpoint");
    for (String id : labelled) {
      assertEquals(
          "llm:" + LlmFixtures.MODEL, value(id, "i.labelSource"), id + " keeps its upgrade");
    }
  }

  private static String cleanupPolicy(String topic) throws Exception {
    try (Admin admin = stack.kafka().admin()) {
      ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      Config c = admin.describeConfigs(List.of(r)).all().get().get(r);
      return c.get("cleanup.policy").value();
    }
  }

  private static void send(Delivery d) {
    stack.send(d);
  }

  private static Object value(String id, String expression) {
    return stack.issueValue(id, expression);
  }

  private static long count(String statement, String id) {
    return stack.count(statement, id);
  }

  private static void awaitTrue(Poll.Condition condition, String what) {
    Poll.until(DEADLINE, what, condition);
  }
}
