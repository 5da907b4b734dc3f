package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.LabelHistory;
import dev.faultline.graph.LabelSource;
import dev.faultline.graph.TaxonomySeeder;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * Label history on a real Neo4j: written once per state change whether a state's offline row and
 * its language-model upgrade land in one sink batch or in two, and one rule for a node written
 * before labels had versions.
 */
class LabelHistoryIT extends QueryITBase {

  /** The issue whose two writes of a state land in one batch (the sink keeps the upgrade). */
  private static final int TOGETHER = 1;

  /** The issue whose two writes of a state land in two batches. */
  private static final int SPLIT = 2;

  /**
   * A row of issue {@code number} at state {@code state} from classification {@code pass} (an
   * upgrade keeps its offline row's), kind given by a person.
   */
  private static IssueRow row(
      int number,
      long state,
      String pass,
      Symptom symptom,
      Stage stage,
      String version,
      String source) {
    IssueRow base = WriterRows.issue("history", "Trainer", number, null, 1_000L);
    IssueRow.ClassificationRow c = base.classification();
    Map<Dimension, Object> codes = new LinkedHashMap<>(c.codes());
    codes.put(Dimension.SYMPTOM, symptom);
    codes.put(Dimension.STAGE, stage);
    boolean llm = source.startsWith("llm:");
    IssueRow.ClassificationRow labelled =
        new IssueRow.ClassificationRow(
            codes,
            c.frameworkVersion(),
            c.versions(),
            c.confidence(),
            c.evidence(),
            List.of(Dimension.KIND),
            version,
            state,
            source,
            llm ? "p1" : null);
    return new IssueRow(
        base.id(),
        base.repo(),
        base.framework(),
        base.number(),
        base.title(),
        "body at " + state,
        base.state(),
        base.url(),
        base.author(),
        base.labels(),
        base.createdAtMillis(),
        state,
        null,
        state,
        (int) (state / 1_000),
        null,
        labelled,
        null,
        pass,
        null);
  }

  /** The offline row of the live classification of issue {@code number}'s state. */
  private static IssueRow offline(int number, long state, Symptom s, Stage stage, String v) {
    return row(number, state, "live-" + number + "-" + state, s, stage, v, LabelSource.MODEL);
  }

  /** The language model's upgrade of that classification. */
  private static IssueRow upgrade(int number, long state, Symptom s, Stage stage) {
    return row(number, state, "live-" + number + "-" + state, s, stage, "llm:stub/p1", "llm:stub");
  }

  private static Map<String, Object> props(Driver driver, String id) {
    return driver
        .executableQuery("MATCH (i:Issue {id: $id}) RETURN properties(i) AS p")
        .withParameters(Map.of("id", id))
        .withConfig(
            org.neo4j.driver.QueryConfig.builder().withDatabase(SharedNeo4j.DATABASE).build())
        .execute()
        .records()
        .get(0)
        .get("p")
        .asMap();
  }

  /** Writes each batch in its own transaction and notes, per issue, which pass each write was. */
  private final class Passes {
    final Driver driver;
    final IssueWriter writer;
    final Map<Integer, Map<ZonedDateTime, Integer>> writes = new HashMap<>();

    Passes(Driver driver) {
      this.driver = driver;
      this.writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    }

    void write(int pass, IssueRow row) throws InterruptedException {
      Thread.sleep(3); // a later write is a later statement time
      writer.write(List.of(row));
      Object at = props(driver, row.id()).get(LabelHistory.STAMPED_AT);
      // a write that stamps nothing leaves the time of the last one that did
      writes
          .computeIfAbsent(row.number(), k -> new HashMap<>())
          .putIfAbsent((ZonedDateTime) at, pass);
    }

    /**
     * An issue's label history with each time replaced by the pass whose write it is (the times of
     * two issues' writes differ; the passes must not).
     */
    Map<String, Object> history(int number) {
      Map<String, Object> p = props(driver, "history/Trainer#" + number);
      Map<ZonedDateTime, Integer> pass = writes.get(number);
      Map<String, Object> h = new TreeMap<>();
      for (Dimension d : Dimension.LABELLED) {
        h.put(d.property(), p.get(d.property()));
        h.put(d.versionProperty(), p.get(d.versionProperty()));
        h.put(d.previousProperty(), p.get(d.previousProperty()));
        h.put(d.previousVersionProperty(), p.get(d.previousVersionProperty()));
        h.put(d.labelledAtProperty(), pass.get(p.get(d.labelledAtProperty())));
        h.put(d.previousAtProperty(), pass.get(p.get(d.previousAtProperty())));
      }
      return h;
    }
  }

  @Test
  void historyIsWrittenOncePerStateChangeWhetherTheUpgradeLandsInTheOfflineRowsBatchOrAnother(
      Driver driver) throws Exception {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load()).seed();
    Passes passes = new Passes(driver);
    // Pass 1: the rules label the first state.
    for (int n : List.of(TOGETHER, SPLIT)) {
      passes.write(1, offline(n, 1_000, Symptom.HANG, Stage.COMMUNICATION, "rules-1"));
    }
    // Pass 2: a new state; the learned tier's row, then the model's upgrade of the same state.
    passes.write(2, upgrade(TOGETHER, 2_000, Symptom.CHECKPOINT_FAILURE, Stage.FAULT_TOLERANCE));
    passes.write(
        2, offline(SPLIT, 2_000, Symptom.COMMUNICATION_FAILURE, Stage.COMMUNICATION, "learned-2"));
    passes.write(2, upgrade(SPLIT, 2_000, Symptom.CHECKPOINT_FAILURE, Stage.FAULT_TOLERANCE));

    Map<String, Object> split = passes.history(SPLIT);
    assertEquals(passes.history(TOGETHER), split);
    assertEquals("CHECKPOINT_FAILURE", split.get("symptom"));
    assertEquals("HANG", split.get("symptomPrevious"), "the label before the state change");
    assertEquals("rules-1", split.get("symptomPreviousVersion"));
    assertEquals(1, split.get("symptomPreviousAt"));
    assertEquals(2, split.get("symptomLabelledAt"));
    assertEquals("COMMUNICATION", split.get("stagePrevious"));
    assertEquals("human", split.get("kindVersion"));
    assertNull(split.get("kindPrevious"), "a person's label did not change");

    // Pass 3: a comment; the learned tier's row differs, the model answers as before: no change.
    passes.write(3, upgrade(TOGETHER, 3_000, Symptom.CHECKPOINT_FAILURE, Stage.FAULT_TOLERANCE));
    passes.write(
        3, offline(SPLIT, 3_000, Symptom.COMMUNICATION_FAILURE, Stage.COMMUNICATION, "learned-2"));
    passes.write(3, upgrade(SPLIT, 3_000, Symptom.CHECKPOINT_FAILURE, Stage.FAULT_TOLERANCE));

    split = passes.history(SPLIT);
    assertEquals(passes.history(TOGETHER), split);
    assertEquals("HANG", split.get("symptomPrevious"), "the middle value was undone");
    assertEquals(1, split.get("symptomPreviousAt"));
    assertEquals(2, split.get("symptomLabelledAt"), "given in pass 2, unchanged since");

    // Pass 4: a new state whose answer changes: the label of pass 2 and 3 becomes the previous one.
    passes.write(4, upgrade(TOGETHER, 4_000, Symptom.HANG, Stage.FAULT_TOLERANCE));
    passes.write(4, offline(SPLIT, 4_000, Symptom.HANG, Stage.COMMUNICATION, "learned-2"));
    passes.write(4, upgrade(SPLIT, 4_000, Symptom.HANG, Stage.FAULT_TOLERANCE));
    split = passes.history(SPLIT);
    assertEquals(passes.history(TOGETHER), split);
    assertEquals("CHECKPOINT_FAILURE", split.get("symptomPrevious"));
    assertEquals("llm:stub/p1", split.get("symptomPreviousVersion"));
    assertEquals(2, split.get("symptomPreviousAt"));
    assertEquals(4, split.get("symptomLabelledAt"));
  }

  /**
   * A replay's run is one pass: whichever of its states reach the graph, in however many writes
   * (intermediate states, a kill and a resume), each label's history is that of the run's last row
   * written over the label from before the run.
   */
  @Test
  void aRunsIntermediateStatesLeaveTheHistoryOfItsLastRowAlone(Driver driver) throws Exception {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load()).seed();
    Passes passes = new Passes(driver);
    int alone = 5; // only the run's last row reaches the graph
    int through = 6; // the run's states reach the graph one by one, one label through others
    int back = 7; // ... and comes back to the label from before the run
    int untouched = 8; // only the run's last row, the label from before the run
    for (int n : List.of(alone, through, back, untouched)) {
      passes.write(1, offline(n, 1_000, Symptom.HANG, Stage.COMMUNICATION, "rules-1"));
    }
    String run = "replay:group-of-the-run";
    passes.write(
        2, row(alone, 3_000, run, Symptom.RUNTIME_CRASH, Stage.COMMUNICATION, "learned-2", M));
    passes.write(
        2, row(through, 1_000, run, Symptom.OUT_OF_MEMORY, Stage.COMMUNICATION, "learned-2", M));
    // one label changes while another, stamped by an earlier row of the run, does not
    passes.write(
        2, row(through, 2_000, run, Symptom.OUT_OF_MEMORY, Stage.FAULT_TOLERANCE, "learned-2", M));
    // the resumed attempt of the run
    passes.write(
        3, row(through, 3_000, run, Symptom.RUNTIME_CRASH, Stage.COMMUNICATION, "learned-2", M));
    // a run of the same classifier: an intermediate state labelled otherwise, the last as before
    passes.write(
        3, row(back, 2_000, run, Symptom.OUT_OF_MEMORY, Stage.COMMUNICATION, "rules-1", M));
    passes.write(3, row(back, 3_000, run, Symptom.HANG, Stage.COMMUNICATION, "rules-1", M));
    passes.write(3, row(untouched, 3_000, run, Symptom.HANG, Stage.COMMUNICATION, "rules-1", M));

    Map<String, Object> through3 = passes.history(through);
    assertEquals("RUNTIME_CRASH", through3.get("symptom"));
    assertEquals("HANG", through3.get("symptomPrevious"), "the label from before the run");
    assertEquals("rules-1", through3.get("symptomPreviousVersion"));
    assertEquals(1, through3.get("symptomPreviousAt"));
    assertEquals("COMMUNICATION", through3.get("stage"));
    assertEquals("COMMUNICATION", through3.get("stagePrevious"), "the version changed");
    assertEquals("rules-1", through3.get("stagePreviousVersion"));
    assertEquals(without(passes.history(alone), "LabelledAt"), without(through3, "LabelledAt"));
    assertEquals(
        passes.history(untouched), passes.history(back), "given back: as if the run changed none");
    assertNull(passes.history(back).get("symptomPrevious"));
    assertEquals(1, passes.history(back).get("symptomLabelledAt"));
  }

  private static final String M = LabelSource.MODEL;

  /** The history without the times whose property names end in {@code suffix}. */
  private static Map<String, Object> without(Map<String, Object> history, String suffix) {
    Map<String, Object> out = new TreeMap<>(history);
    out.keySet().removeIf(k -> k.endsWith(suffix));
    return out;
  }

  @Test
  void anOfflineLabelThatStoodIsThePreviousLabelOfALaterClassificationsUpgradeOfTheSameState(
      Driver driver) throws Exception {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load()).seed();
    IssueWriter writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    // Live: the offline row; the endpoint failed, so no upgrade followed and the label stood.
    IssueRow live = offline(4, 1_000, Symptom.HANG, Stage.COMMUNICATION, "learned-2");
    writer.write(List.of(live));
    // A replay of the same state classifies it again and its upgrade lands alone (its offline row
    // changed nothing, or shared the upgrade's batch).
    IssueRow replayed =
        row(
            4,
            1_000,
            "replay-4-1000",
            Symptom.CHECKPOINT_FAILURE,
            Stage.FAULT_TOLERANCE,
            "llm:stub/p1",
            "llm:stub");
    Thread.sleep(3);
    writer.write(List.of(replayed));
    Map<String, Object> p = props(driver, live.id());
    assertEquals("CHECKPOINT_FAILURE", p.get("symptom"));
    assertEquals("HANG", p.get("symptomPrevious"), "the offline label that stood");
    assertEquals("learned-2", p.get("symptomPreviousVersion"));
    assertNotNull(p.get("symptomPreviousAt"));
  }

  @Test
  void aLabelWrittenBeforeLabelsHadVersionsFollowsTheSameRuleForItsTimeAndItsPrevious(Driver driver)
      throws Exception {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load()).seed();
    IssueWriter writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    IssueRow first = offline(3, 1_000, Symptom.HANG, Stage.COMMUNICATION, "rules-1");
    writer.write(List.of(first));
    // As a node written before labels had versions: a classifier version, no label version or time.
    driver
        .executableQuery(
            "MATCH (i:Issue {id: $id}) REMOVE i.symptomVersion, i.symptomLabelledAt RETURN i.id")
        .withParameters(Map.of("id", first.id()))
        .withConfig(
            org.neo4j.driver.QueryConfig.builder().withDatabase(SharedNeo4j.DATABASE).build())
        .execute();

    writer.write(List.of(first)); // the same classifier again: no change, so no time either
    Map<String, Object> p = props(driver, first.id());
    assertNull(p.get("symptomLabelledAt"), "not stamped: the label did not change");
    assertNull(p.get("symptomPrevious"));
    assertEquals("rules-1", p.get("symptomVersion"));

    writer.write(List.of(offline(3, 2_000, Symptom.HANG, Stage.COMMUNICATION, "learned-2")));
    p = props(driver, first.id());
    assertEquals("HANG", p.get("symptomPrevious"));
    assertEquals("rules-1", p.get("symptomPreviousVersion"));
    assertNotNull(p.get("symptomLabelledAt"));
  }
}
