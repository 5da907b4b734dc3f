package dev.faultline.infra.relabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.LabelSource;
import dev.faultline.infra.Faultline;
import dev.faultline.jobs.common.RowBuffer;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * {@code reclassify --changes-since} rebuilds the labels before a state change from the graph's
 * label history alike whether the state's offline row and its language-model upgrade were written
 * in one sink batch or in two, on a real Neo4j (in-process). The rows go through the graph sink's
 * own buffer ({@link RowBuffer}, one row per issue per batch, as {@code Neo4jBatchSinkWriter} keeps
 * them) and writer ({@link IssueWriter}, one call per batch): issue {@link #TOGETHER}'s two rows of
 * a state share a batch, issue {@link #SPLIT}'s land in two. Both issues get the same labels, so
 * their rebuilt histories must be equal; the split one's must not take the offline row's label (the
 * middle value) for the label before.
 */
class LabelHistoryBatchesIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "label-history-batches-pw";
  private static final String REPO = "deepspeedai/DeepSpeed";
  private static final int TOGETHER = 1;
  private static final int SPLIT = 2;

  @Test
  void theLabelsBeforeAStateChangeAreRebuiltAlikeWhetherItsTwoWritesShareABatchOrNot(
      @TempDir Path tmp) throws Exception {
    try (EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD))) {
      new GraphSchema(driver, "neo4j").migrate();
      Sink sink = new Sink(new IssueWriter(driver, "neo4j"));
      GraphConfig graph =
          new GraphConfig(neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD, "neo4j");

      // State 1: the rules label both issues.
      sink.batch(offline(TOGETHER, 1_000, Symptom.HANG, "rules-1", "p1"));
      sink.batch(offline(SPLIT, 1_000, Symptom.HANG, "rules-1", "p1"));
      Instant beforeState2 = later();

      // State 2: the learned tier's row, then the language model's upgrade of the same
      // classification (the same pass); together in one batch for one issue, in two for the other.
      sink.batch(
          offline(TOGETHER, 2_000, Symptom.COMMUNICATION_FAILURE, "learned-2", "p2"),
          upgrade(TOGETHER, 2_000, Symptom.CHECKPOINT_FAILURE, "p2"));
      sink.batch(offline(SPLIT, 2_000, Symptom.COMMUNICATION_FAILURE, "learned-2", "p2"));
      sink.batch(upgrade(SPLIT, 2_000, Symptom.CHECKPOINT_FAILURE, "p2"));
      Instant beforeState3 = later();

      // State 3 (a comment): the learned tier's row differs again, the model answers as before.
      sink.batch(
          offline(TOGETHER, 3_000, Symptom.COMMUNICATION_FAILURE, "learned-2", "p3"),
          upgrade(TOGETHER, 3_000, Symptom.CHECKPOINT_FAILURE, "p3"));
      sink.batch(offline(SPLIT, 3_000, Symptom.COMMUNICATION_FAILURE, "learned-2", "p3"));
      sink.batch(upgrade(SPLIT, 3_000, Symptom.CHECKPOINT_FAILURE, "p3"));

      try (LabelSnapshots labels = new LabelSnapshots(graph)) {
        // Before state 2: the rules' labels, for both issues.
        Map<Integer, Map<String, String>> before2 =
            byNumber(labels.snapshotAsOf(Reclassify.Scope.all(), beforeState2));
        assertEquals("HANG", before2.get(SPLIT).get("symptom"), "before state 2: " + before2);
        assertEquals("rules-1", before2.get(SPLIT).get(Reclassify.CLASSIFIER_VERSION));
        assertEquals(before2.get(TOGETHER), before2.get(SPLIT));
        // Before state 3: the model's label of state 2 (state 3 changed no label).
        Map<Integer, Map<String, String>> before3 =
            byNumber(labels.snapshotAsOf(Reclassify.Scope.all(), beforeState3));
        assertEquals("CHECKPOINT_FAILURE", before3.get(SPLIT).get("symptom"), "" + before3);
        assertEquals(before3.get(TOGETHER), before3.get(SPLIT));
        Map<Integer, Map<String, String>> now =
            byNumber(labels.labelledNow(Reclassify.Scope.all()));
        assertEquals(now.get(TOGETHER), now.get(SPLIT));
        assertEquals(now.get(SPLIT), before3.get(SPLIT), "state 3 changed no label");
        assertNotEquals(now.get(SPLIT), before2.get(SPLIT));
      }
      // The graph's previous label is the label before the state change, not the middle value.
      Map<String, Object> split = properties(driver, SPLIT);
      assertEquals("HANG", split.get(Dimension.SYMPTOM.previousProperty()));
      assertEquals("rules-1", split.get(Dimension.SYMPTOM.previousVersionProperty()));

      // The command's report rebuilt from the graph: both issues moved HANG -> CHECKPOINT_FAILURE.
      Path dir = tmp.resolve("report");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
      assertEquals(
          0,
          new Faultline()
              .run(
                  new String[] {
                    "reclassify",
                    "--changes-since",
                    beforeState2.toString(),
                    "--report-dir",
                    dir.toString(),
                    "--neo4j-uri",
                    neo4j.boltUri().toString(),
                    "--neo4j-user",
                    EmbeddedNeo4j.USER,
                    "--neo4j-password",
                    PASSWORD
                  },
                  p,
                  p),
          out.toString());
      Map<String, Integer> transitions = new TreeMap<>();
      for (JsonNode t :
          JSON.readTree(dir.resolve("report.json").toFile()).at("/DeepSpeed/symptom/transitions")) {
        transitions.put(
            t.get("from").asText() + " -> " + t.get("to").asText(), t.get("count").asInt());
      }
      assertEquals(Map.of("HANG -> CHECKPOINT_FAILURE", 2), transitions);
    }
  }

  /** The graph sink's batching: rows buffered one per issue, then written in one call. */
  private record Sink(IssueWriter writer) {
    void batch(IssueRow... rows) throws InterruptedException {
      RowBuffer<IssueRow> buffer = new RowBuffer<>(writer::keyOf, writer::versionOf);
      for (IssueRow r : rows) {
        buffer.add(r);
      }
      writer.write(buffer.drain());
      Thread.sleep(5); // a later batch is a later statement time
    }
  }

  /** An instant strictly between the writes before and after it. */
  private static Instant later() throws InterruptedException {
    Thread.sleep(5);
    Instant t = Instant.now();
    Thread.sleep(5);
    return t;
  }

  private static IssueRow offline(int n, long state, Symptom s, String version, String pass) {
    return row(n, state, s, version, LabelSource.MODEL, null, pass);
  }

  private static IssueRow upgrade(int n, long state, Symptom s, String pass) {
    return row(n, state, s, "llm:stub/p1", "llm:stub", "p1", pass);
  }

  /**
   * Issue {@code n} at state {@code state} (its update time), labelled {@code symptom} by {@code
   * version}; the other dimensions fixed, kind given by a person.
   */
  private static IssueRow row(
      int n,
      long state,
      Symptom symptom,
      String version,
      String source,
      String prompt,
      String pass) {
    Map<Dimension, Object> codes = new LinkedHashMap<>();
    codes.put(Dimension.KIND, Kind.BUG);
    codes.put(Dimension.SYMPTOM, symptom);
    codes.put(Dimension.SYMPTOM_CLASS, SymptomClass.HANG);
    codes.put(Dimension.ROOT_CAUSE, RootCause.UNKNOWN);
    codes.put(Dimension.FIX_PATTERN, FixPattern.UNKNOWN);
    codes.put(Dimension.STAGE, Stage.COMMUNICATION);
    codes.put(Dimension.PHASE, Phase.TRAINING);
    codes.put(Dimension.DISTRIBUTED_SPECIFIC, Boolean.TRUE);
    IssueRow.ClassificationRow c =
        new IssueRow.ClassificationRow(
            codes,
            null,
            Map.of(),
            Map.of(Dimension.SYMPTOM, 0.8),
            Map.of(Dimension.SYMPTOM, "test"),
            List.of(Dimension.KIND),
            version,
            state,
            source,
            prompt);
    return new IssueRow(
        REPO + "#" + n,
        REPO,
        "DeepSpeed",
        n,
        "Issue " + n,
        "body at " + state,
        "open",
        "https://github.com/" + REPO + "/issues/" + n,
        "someone",
        List.of(),
        500L,
        state,
        null,
        state,
        (int) (state / 1_000),
        null,
        c,
        null,
        pass,
        null);
  }

  private static Map<Integer, Map<String, String>> byNumber(List<RelabelReport.Labels> labels) {
    Map<Integer, Map<String, String>> m = new TreeMap<>();
    for (RelabelReport.Labels l : labels) {
      m.put(Integer.parseInt(l.id().substring(l.id().lastIndexOf('/') + 1)), l.codes());
    }
    return m;
  }

  private static Map<String, Object> properties(Driver driver, int n) {
    try (var s = driver.session()) {
      return s.run(
              "MATCH (i:Issue {id: $id}) RETURN properties(i) AS p", Map.of("id", REPO + "#" + n))
          .single()
          .get("p")
          .asMap();
    }
  }
}
