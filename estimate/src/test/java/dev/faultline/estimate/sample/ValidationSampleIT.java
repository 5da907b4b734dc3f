package dev.faultline.estimate.sample;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.query.EstimatedQueryITBase;
import dev.faultline.estimate.sample.ValidationSamples.LabelLine;
import dev.faultline.graph.testing.GraphFixture;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * A validation sample end to end on a real Neo4j: drawn uniformly and reproducibly from a scope,
 * labelled, imported with every bad line refused, then used by {@code category-shares} in its own
 * scope and the parts of it (in a wider one for the issues of its population only).
 *
 * <p>Sixty DeepSpeed bug reports opened in 2024, each stored with the classifier's stage
 * distribution 20% COMPUTATION / 80% MEMORY; the "person" labels every third one COMPUTATION.
 */
class ValidationSampleIT extends EstimatedQueryITBase {
  private static final ValidationSamples.Scope DEEPSPEED =
      new ValidationSamples.Scope("deepspeed", null, null);
  private ValidationSamples samples;
  private Driver driver;

  private static final String DISTRIBUTIONS =
      """
      UNWIND $rows AS row MATCH (i:Issue) WHERE i.stageProbabilities IS NULL
      SET i.stageProbabilities = row.stage, i.kindProbabilities = row.kind,
          i.stageCalibration = 'cv:test', i.kindCalibration = 'cv:test'
      """;

  private List<Map<String, Object>> distributions;

  @BeforeEach
  void sixtyBugs(Driver driver) {
    this.driver = driver;
    samples = new ValidationSamples(driver, SharedNeo4j.DATABASE);
    List<GraphFixture.Issue> issues = new ArrayList<>();
    for (int n = 1; n <= 60; n++) {
      issues.add(
          issue(String.format("o/s#%02d", n))
              .createdAt(String.format("2024-03-%02dT00:00:00Z", 1 + n % 28))
              .stage("MEMORY"));
    }
    issues.add(issue("o/other#1").framework("vllm").stage("MEMORY"));
    graph.create(issues.toArray(GraphFixture.Issue[]::new));
    List<Double> stage = new ArrayList<>();
    for (String code : Dimension.STAGE.symbols()) {
      stage.add(code.equals("COMPUTATION") ? 0.2 : code.equals("MEMORY") ? 0.8 : 0.0);
    }
    List<Double> kind = new ArrayList<>();
    for (String code : Dimension.KIND.symbols()) {
      kind.add(code.equals("BUG") ? 1.0 : 0.0);
    }
    distributions = List.of(Map.of("stage", stage, "kind", kind));
    graph.write(DISTRIBUTIONS, distributions);
  }

  private static String person(String id) {
    return Integer.parseInt(id.substring(id.length() - 2)) % 3 == 0 ? "COMPUTATION" : "MEMORY";
  }

  private List<LabelLine> labelled(ValidationSamples.Drawn drawn) {
    List<LabelLine> lines = new ArrayList<>();
    int line = 1;
    for (ValidationSamples.DrawnIssue i : drawn.issues()) {
      lines.add(
          new LabelLine(
              line++, drawn.id(), i.id(), Map.of("kind", "BUG", "stage", person(i.id()))));
    }
    return lines;
  }

  private long included() {
    try (var session = driver.session()) {
      return session
          .run("MATCH (:ValidationSample)-[r:INCLUDES]->() RETURN count(r) AS n")
          .single()
          .get("n")
          .asLong();
    }
  }

  private Map<String, Object> computation(String... params) {
    String[] withStage = java.util.Arrays.copyOf(params, params.length + 2);
    withStage[params.length] = "dimension";
    withStage[params.length + 1] = "stage";
    return run("category-shares", withStage).stream()
        .filter(r -> r.get("code").equals("COMPUTATION"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aDrawIsUniformOverTheScopeAndTheSameSeedDrawsTheSameIssues() {
    ValidationSamples.Drawn a = samples.draw(DEEPSPEED, 20, 5);
    ValidationSamples.Drawn b = samples.draw(DEEPSPEED, 20, 5);
    ValidationSamples.Drawn c = samples.draw(DEEPSPEED, 20, 6);
    assertEquals(a, b);
    assertEquals(60, a.population());
    assertEquals(20, new HashSet<>(a.issues()).size());
    assertTrue(a.issues().stream().allMatch(i -> i.id().startsWith("o/s#")), "scope");
    assertTrue(!a.issues().equals(c.issues()), "another seed, another draw");
    assertThrows(IllegalArgumentException.class, () -> samples.draw(DEEPSPEED, 61, 5));
    // every issue is drawn about equally often over many seeds (chi-square-free check: 2,000 draws
    // of 20 of 60, each issue expected 666.7 times, all within 20%)
    int[] hits = new int[60];
    List<String> ids = new ArrayList<>();
    for (int n = 1; n <= 60; n++) {
      ids.add(String.format("o/s#%02d", n));
    }
    for (long seed = 0; seed < 2000; seed++) {
      for (String id : ValidationSamples.choose(ids, 20, seed)) {
        hits[ids.indexOf(id)]++;
      }
    }
    for (int h : hits) {
      assertTrue(h > 533 && h < 800, "drawn " + h + " times of 666.7 expected");
    }
  }

  @Test
  void anImportedSampleCorrectsTheEstimateOfItsScopeAndOfItsPartsOnly() {
    ValidationSamples.Drawn drawn = samples.draw(DEEPSPEED, 24, 11);
    assertTrue(((String) computation("framework", "deepspeed").get("method")).startsWith("pcc"));
    assertEquals(0.2, (Double) computation("framework", "deepspeed").get("share"), 1e-4);

    samples.importLabels(labelled(drawn));
    Map<String, Object> rectified = computation("framework", "deepspeed");
    assertEquals("ppi/score_cc", rectified.get("method"));
    assertEquals(24L, rectified.get("sampleSize"));
    double truth = 20 / 60.0; // every third of the sixty is COMPUTATION by the person's rule
    assertTrue(
        (Double) rectified.get("shareLow") <= truth && truth <= (Double) rectified.get("shareHigh"),
        rectified.toString());
    assertTrue((Double) rectified.get("share") > 0.25, "pulled toward the person's labels");
    // a part of the scope uses it; a wider scope (every framework) uses it for the issues of the
    // population it was drawn from and estimates the rest (vLLM's) without it
    assertEquals(
        "ppi/score_cc",
        computation("framework", "deepspeed", "from", "2024-03-01T00:00:00Z").get("method"));
    Map<String, Object> wider = computation();
    assertTrue(((String) wider.get("method")).startsWith("ppi/score_cc+pcc"), wider.toString());
    assertTrue(((String) wider.get("basis")).contains("(1 item) outside it"), wider.toString());
  }

  @Test
  void badLinesAreRefusedWithTheirNumberAndNothingIsWritten() {
    ValidationSamples.Drawn drawn = samples.draw(DEEPSPEED, 12, 3);
    List<LabelLine> good = labelled(drawn);

    List<LabelLine> unknownCode = new ArrayList<>(good);
    unknownCode.set(
        4,
        new LabelLine(
            5, drawn.id(), drawn.issues().get(4).id(), Map.of("kind", "BUG", "stage", "WARP")));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> samples.importLabels(unknownCode));
    assertTrue(e.getMessage().startsWith("line 5: unknown stage code 'WARP'"), e.getMessage());

    List<LabelLine> notDrawn = new ArrayList<>(good);
    notDrawn.set(2, new LabelLine(3, drawn.id(), "o/other#1", Map.of("kind", "BUG")));
    e = assertThrows(IllegalArgumentException.class, () -> samples.importLabels(notDrawn));
    assertTrue(
        e.getMessage().startsWith("line 3: issue 'o/other#1' was not drawn"), e.getMessage());

    List<LabelLine> otherSample =
        List.of(new LabelLine(1, "sample-000000000000", "o/s#01", Map.of("kind", "BUG")));
    e = assertThrows(IllegalArgumentException.class, () -> samples.importLabels(otherSample));
    assertTrue(e.getMessage().contains("was not drawn in this graph"), e.getMessage());

    List<LabelLine> noKind =
        List.of(
            new LabelLine(1, drawn.id(), drawn.issues().get(0).id(), Map.of("stage", "MEMORY")));
    e = assertThrows(IllegalArgumentException.class, () -> samples.importLabels(noKind));
    assertTrue(e.getMessage().startsWith("line 1: kind is empty"), e.getMessage());

    assertEquals(0, included());
    samples.importLabels(good);
    assertEquals(12, included());
  }

  @Test
  void theDrawIsRecordedWithItsScope() {
    ValidationSamples.Scope scope =
        new ValidationSamples.Scope(
            "deepspeed",
            ZonedDateTime.parse("2024-03-05T00:00:00Z"),
            ZonedDateTime.parse("2024-03-20T00:00:00Z"));
    ValidationSamples.Drawn drawn = samples.draw(scope, 5, 1);
    assertTrue(
        drawn.population() < 60 && drawn.population() > 20, "population " + drawn.population());
    try (var session = driver.session()) {
      var r =
          session
              .run(
                  "MATCH (s:ValidationSample {id: $id}) RETURN s.framework AS f, s.size AS n",
                  Map.of("id", drawn.id()))
              .single();
      assertEquals("deepspeed", r.get("f").asString());
      assertEquals(5, r.get("n").asInt());
    }
  }

  @Test
  void anIssueOfAnotherKindCountsAsThatKindAndUnlabelledDrawnIssuesMakeTheEstimatePartial() {
    ValidationSamples.Drawn drawn = samples.draw(DEEPSPEED, 24, 17);
    List<LabelLine> lines = new ArrayList<>();
    int line = 1;
    for (ValidationSamples.DrawnIssue i : drawn.issues()) {
      if (line <= 4) {
        // a question: its kind alone (no stage) says it is no bug report
        lines.add(new LabelLine(line, drawn.id(), i.id(), Map.of("kind", "QUESTION")));
      } else if (line <= 6) {
        // a bug report whose stage the person left empty
        lines.add(new LabelLine(line, drawn.id(), i.id(), Map.of("kind", "BUG")));
      } else {
        lines.add(
            new LabelLine(
                line, drawn.id(), i.id(), Map.of("kind", "BUG", "stage", person(i.id()))));
      }
      line++;
    }
    ValidationSamples.Imported imported = samples.importLabels(lines);
    assertEquals(24, imported.drawn());
    assertEquals(24, imported.perDimension().get("kind"));
    assertEquals(4, imported.perDimension().get("symptom"), "a question's symptom is NONE");
    assertEquals(18, imported.perDimension().get("stage"));
    assertTrue(imported.partial().contains("stage") && !imported.partial().contains("kind"));
    Map<String, Object> c = computation("framework", "deepspeed");
    assertTrue(((String) c.get("method")).endsWith("partial"), c.toString());
    // the four questions are labelled (as not bug reports); two bug reports are not
    assertTrue(
        ((String) c.get("basis")).contains("partial: 22 of 24 drawn labelled, bounds for the 2"),
        c.toString());
    assertEquals(22L, c.get("sampleSize"));
    double share = (Double) c.get("share");
    assertTrue((Double) c.get("shareLow") <= share && share <= (Double) c.get("shareHigh"));
  }

  @Test
  void issuesTheGraphFirstSawAfterTheDrawAreEstimatedWithoutTheSampleAndStatusSaysHowMany() {
    ValidationSamples.Drawn drawn = samples.draw(DEEPSPEED, 24, 11);
    samples.importLabels(labelled(drawn));
    List<GraphFixture.Issue> later = new ArrayList<>();
    for (int n = 61; n <= 70; n++) {
      later.add(issue("o/s#" + n).createdAt("2024-03-15T00:00:00Z").stage("MEMORY"));
    }
    graph.create(later.toArray(GraphFixture.Issue[]::new));
    graph.write(DISTRIBUTIONS, distributions);
    graph.write(
        "UNWIND $rows AS row MATCH (i:Issue) WHERE i.number > 60 SET i.firstSeenAt = datetime()",
        List.of(Map.of()));
    Map<String, Object> c = computation("framework", "deepspeed");
    assertTrue(((String) c.get("method")).startsWith("ppi/score_cc+pcc"), c.toString());
    assertTrue(
        ((String) c.get("basis")).contains("pcc over ≈ 10.0 bug reports (10 items) outside it"),
        c.toString());
    ValidationSamples.Status status = samples.status().get(0);
    assertEquals(drawn.id(), status.id());
    assertEquals(10, status.addedSinceDraw());
    assertEquals(24, status.labelled());
    assertEquals(24, status.perDimension().get("stage"));
    assertEquals(0, status.perDimension().get("phase"));
  }
}
