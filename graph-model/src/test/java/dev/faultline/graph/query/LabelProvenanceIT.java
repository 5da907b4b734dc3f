package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.LabelSource;
import dev.faultline.graph.TaxonomySeeder;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;

/**
 * Every label records its source and prompt; a language model's row outranks an offline row of the
 * same state.
 */
class LabelProvenanceIT extends QueryITBase {

  private static Map<Dimension, Object> withSymptom(Map<Dimension, Object> codes, Symptom s) {
    Map<Dimension, Object> m = new java.util.LinkedHashMap<>(codes);
    m.put(Dimension.SYMPTOM, s);
    return m;
  }

  private static IssueRow withLabels(
      IssueRow r,
      String symptom,
      String classifierVersion,
      String source,
      String prompt,
      List<Dimension> human) {
    IssueRow.ClassificationRow c = r.classification();
    IssueRow.ClassificationRow n =
        new IssueRow.ClassificationRow(
            withSymptom(c.codes(), Symptom.valueOf(symptom)),
            c.frameworkVersion(),
            c.versions(),
            c.confidence(),
            c.evidence(),
            human,
            classifierVersion,
            c.classifiedAtMillis(),
            source,
            prompt);
    return copy(r, r.updatedAtMillis(), r.stateVersion(), n);
  }

  private static IssueRow atVersion(IssueRow r, long v) {
    return copy(r, v, v, r.classification());
  }

  /** {@code r} with other versions and classification. */
  private static IssueRow copy(
      IssueRow r, long updatedAtMillis, long stateVersion, IssueRow.ClassificationRow c) {
    return new IssueRow(
        r.id(),
        r.repo(),
        r.framework(),
        r.number(),
        r.title(),
        r.body(),
        r.state(),
        r.url(),
        r.author(),
        r.labels(),
        r.createdAtMillis(),
        updatedAtMillis,
        r.closedAtMillis(),
        stateVersion,
        r.commentCount(),
        r.transferredTo(),
        c);
  }

  private static Record issue(Driver driver, String id) {
    return driver
        .executableQuery(
            """
            MATCH (i:Issue {id: $id})
            OPTIONAL MATCH (i)-[e:HAS_SYMPTOM]->(s:Symptom)
            RETURN i.symptom AS symptom, i.labelSource AS source, i.promptVersion AS prompt, i.kindSource AS kindSource,
                   i.symptomSource AS symptomSource, e.source AS edgeSource, e.promptVersion AS edgePrompt""")
        .withParameters(Map.of("id", id))
        .withConfig(
            org.neo4j.driver.QueryConfig.builder().withDatabase(SharedNeo4j.DATABASE).build())
        .execute()
        .records()
        .get(0);
  }

  @Test
  void anUpgradeWinsOverAReplayedOfflineRowOfTheSameStateButNotOverANewerState(Driver driver) {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load())
        .seed(); // the symptom nodes the edges point to
    IssueWriter writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    IssueRow offline =
        withLabels(
            WriterRows.issue("acme", "Trainer", 1, null, 1_000L),
            "HANG",
            "learned-2+rules-1.3.1",
            LabelSource.MODEL,
            null,
            List.of(Dimension.KIND));
    IssueRow upgraded =
        withLabels(
            offline,
            "COMMUNICATION_FAILURE",
            "llm:stub/p1",
            "llm:stub",
            "p1",
            List.of(Dimension.KIND));
    String id = offline.id();

    writer.write(List.of(offline));
    Record r = issue(driver, id);
    assertEquals("model", r.get("source").asString());
    assertEquals("model", r.get("edgeSource").asString());
    assertEquals("human", r.get("kindSource").asString());

    writer.write(List.of(upgraded));
    writer.write(List.of(offline)); // a replay of the delivery topic: the same state, offline again
    r = issue(driver, id);
    assertEquals("COMMUNICATION_FAILURE", r.get("symptom").asString());
    assertEquals("llm:stub", r.get("source").asString());
    assertEquals("llm:stub", r.get("symptomSource").asString());
    assertEquals("human", r.get("kindSource").asString(), "a person's label stays a person's");
    assertEquals("p1", r.get("prompt").asString());
    assertEquals("llm:stub", r.get("edgeSource").asString());
    assertEquals("p1", r.get("edgePrompt").asString());

    // the issue changes: its new state's offline label replaces the upgrade of the old state
    writer.write(List.of(atVersion(offline, 2_000L)));
    r = issue(driver, id);
    assertEquals("HANG", r.get("symptom").asString());
    assertEquals("model", r.get("source").asString());
    assertEquals(true, r.get("prompt").isNull());
    // and a late upgrade of the old state changes nothing
    writer.write(List.of(upgraded));
    assertEquals("HANG", issue(driver, id).get("symptom").asString());
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

  @Test
  void everyLabelKeepsItsVersionWhenItWasGivenAndTheLabelItReplaced(Driver driver)
      throws InterruptedException {
    new TaxonomySeeder(driver, SharedNeo4j.DATABASE, Taxonomy.load()).seed();
    IssueWriter writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    IssueRow first =
        withLabels(
            WriterRows.issue("hist", "Trainer", 7, null, 1_000L),
            "HANG",
            "rules-1.3.1",
            LabelSource.RULES,
            null,
            List.of(Dimension.KIND));
    String id = first.id();
    writer.write(List.of(first));
    Map<String, Object> p = props(driver, id);
    assertEquals("rules-1.3.1", p.get("symptomVersion"));
    assertEquals("human", p.get("kindVersion"), "a person's label is versioned as a person's");
    Object givenAt = p.get("symptomLabelledAt");
    org.junit.jupiter.api.Assertions.assertNotNull(givenAt, "when the label was given");
    org.junit.jupiter.api.Assertions.assertNull(
        p.get("symptomPrevious"), "a first label replaces none");

    Thread.sleep(5); // datetime() is the statement's time: a later write is a later time
    writer.write(List.of(first)); // the same classifier again: nothing changes
    p = props(driver, id);
    assertEquals(
        givenAt, p.get("symptomLabelledAt"), "relabelling with the same version keeps the time");
    org.junit.jupiter.api.Assertions.assertNull(p.get("symptomPrevious"));

    IssueRow relabelled =
        withLabels(
            first,
            "COMMUNICATION_FAILURE",
            "learned-9+rules-1.3.1",
            LabelSource.MODEL,
            null,
            List.of(Dimension.KIND));
    Thread.sleep(5);
    writer.write(List.of(relabelled));
    p = props(driver, id);
    assertEquals("COMMUNICATION_FAILURE", p.get("symptom"));
    assertEquals("learned-9+rules-1.3.1", p.get("symptomVersion"));
    assertEquals("HANG", p.get("symptomPrevious"));
    assertEquals("rules-1.3.1", p.get("symptomPreviousVersion"));
    assertEquals(givenAt, p.get("symptomPreviousAt"));
    org.junit.jupiter.api.Assertions.assertTrue(
        ((java.time.ZonedDateTime) p.get("symptomLabelledAt"))
            .isAfter((java.time.ZonedDateTime) givenAt));
    // the same code from a new version is a new label too (its version and time), keeping the old
    // one
    assertEquals("COMMUNICATION", p.get("stage"));
    assertEquals("COMMUNICATION", p.get("stagePrevious"));
    assertEquals("rules-1.3.1", p.get("stagePreviousVersion"));
    // a person's label did not change: no history
    assertEquals("human", p.get("kindVersion"));
    org.junit.jupiter.api.Assertions.assertNull(p.get("kindPrevious"));
  }
}
