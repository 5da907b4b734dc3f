package dev.faultline.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.jobs.classify.Neo4jVectorStore;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.schemas.Topic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text vectors on real servers: the live pipeline stores on each issue the vector the learned
 * classifier used, bit for bit, under its key; the graph gives it back unchanged; a bounded replay
 * reads it from the graph instead of encoding, and labels every issue exactly as before.
 */
class StoredVectorsIT {
  private static final String PASSWORD = "stored-vectors-it-password";
  private static final String REPO = "example/vectors";
  @TempDir Path dir;

  private static final String[][] ISSUES = {
    {
      "Ranks stall in all_gather after switching to hierarchical partitioning",
      "With 16 ranks on two nodes every rank sits in all_gather at step 40; NCCL_DEBUG shows no error."
    },
    {
      "Loading a universal checkpoint drops the scheduler state",
      "After resuming, the learning rate starts from warm-up again and the loss spikes to 7.2."
    },
    {
      "Is expert parallelism supported together with pipeline stages?",
      "The config docs list both options but not whether they can be combined in one run."
    },
  };

  private static IssueText text(int k) {
    return new IssueText(
        REPO, k + 1, ISSUES[k][0], ISSUES[k][1], List.of(), List.of(), List.of(), "open");
  }

  private static float[] floats(Object stored) {
    List<?> l = (List<?>) stored;
    float[] v = new float[l.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) ((Number) l.get(i)).doubleValue();
    }
    return v;
  }

  @Test
  void theGraphKeepsEachIssuesVectorExactlyAndAReplayReadsItInsteadOfEncoding() throws Exception {
    try (PipelineStack stack =
        PipelineStack.start(
            dir, PASSWORD, Topic.DELIVERIES, Topic.DEAD_LETTER, Topic.ISSUES_CLASSIFIED)) {
      for (int k = 0; k < ISSUES.length; k++) {
        stack.send(
            Deliveries.issue(
                REPO, k + 1, "opened", ISSUES[k][0], ISSUES[k][1], "open", "2024-02-01T10:00:00Z"));
      }
      // First labelling, as the live pipeline does it: no stored vectors are read.
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
      IssuePipelineJob.build(
          env,
          stack
              .jobConfig("first-" + UUID.randomUUID(), dir.resolve("ck1"))
              .withReplay(Replay.of(ReplayScope.ALL).withStoredVectors(false)));
      env.execute("first labelling");

      LearnedClassifier classifier = LearnedClassifier.shared();
      List<Object> labelsBefore = new ArrayList<>();
      try (Neo4jVectorStore store = new Neo4jVectorStore(stack.graph())) {
        for (int k = 0; k < ISSUES.length; k++) {
          String id = REPO + "#" + (k + 1);
          LearnedClassifier.Keyed expected = classifier.classifyKeyed(text(k), ChangeDetails.NONE);
          assertEquals(expected.vectorKey(), stack.issueValue(id, "i.textVectorKey"), id);
          Object stored = stack.issueValue(id, "i.textVector");
          assertNotNull(stored, id + " has its vector");
          assertArrayEquals(expected.vector(), floats(stored), id + ": the encoder's vector");
          assertArrayEquals(
              expected.vector(), store.find(expected.vectorKey()), id + ": read back unchanged");
          labelsBefore.add(
              stack.issueValue(id, "[i.kind, i.symptom, i.stage, i.classifierVersion]"));
        }
      }

      // A replay of the same deliveries (a bounded job reads stored vectors by default).
      long found = Neo4jVectorStore.foundInThisJvm();
      StreamExecutionEnvironment replay = StreamExecutionEnvironment.createLocalEnvironment(2);
      IssuePipelineJob.build(
          replay,
          stack
              .jobConfig("replay-" + UUID.randomUUID(), dir.resolve("ck2"))
              .withReplay(Replay.of(ReplayScope.ALL)));
      JobClient job = replay.executeAsync("replay");
      job.getJobExecutionResult().get();
      assertEquals(
          ISSUES.length,
          Neo4jVectorStore.foundInThisJvm() - found,
          "every issue's vector came from the graph");
      for (int k = 0; k < ISSUES.length; k++) {
        String id = REPO + "#" + (k + 1);
        assertEquals(
            labelsBefore.get(k),
            stack.issueValue(id, "[i.kind, i.symptom, i.stage, i.classifierVersion]"),
            id);
      }
      assertEquals(
          3L,
          stack.count(
              "MATCH (i:Issue) WHERE i.textVectorKey IS NOT NULL AND size(i.textVector) = 384"
                  + " AND i.id STARTS WITH $id RETURN count(i)",
              REPO));
    }
  }
}
