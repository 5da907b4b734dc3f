package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The studies' figures computed on rows written by hand (no server). */
class StudyFiguresTest {
  private static final QueryDefinition QUERY = Rows.query("study-figures");
  private static final Taxonomy TAXONOMY = Taxonomy.load();
  private final StudyFigures figures = new StudyFigures();

  /** An issue whose labels a person gave (point masses that are the truth). */
  private static Map<String, Object> sure(
      String kind,
      String symptom,
      String phase,
      String distributed,
      Long fixLines,
      boolean longOpen) {
    Map<String, Object> m = new HashMap<>();
    m.put("kind", kind);
    m.put("symptom", symptom);
    m.put(
        "symptomClass",
        symptom.equals("NONE") ? "NONE" : TAXONOMY.symptomClassOf(symptom).orElseThrow());
    m.put("rootCause", "UNKNOWN");
    m.put("fixPattern", "UNKNOWN");
    m.put("phase", phase);
    m.put("distributedSpecific", distributed);
    m.put("fixLines", fixLines);
    m.put("longOpen", longOpen);
    m.put(
        "humanGiven",
        List.of("kind", "symptom", "rootCause", "fixPattern", "phase", "distributedSpecific"));
    return m;
  }

  private List<Map<String, Object>> run(List<Map<String, Object>> items) {
    return figures.estimate(QUERY, items, Map.of());
  }

  private static Map<String, Object> figure(List<Map<String, Object>> rows, String id) {
    return rows.stream().filter(r -> r.get("figure").equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aPersonsLabelsGiveTheFiguresExactlyAndABaseOfFewerThanThreeGivesNone() {
    List<Map<String, Object>> items = new ArrayList<>();
    items.add(sure("BUG", "HANG", "TRAINING", "true", 4L, false));
    items.add(sure("BUG", "HANG", "INFERENCE", "true", 40L, true));
    items.add(sure("BUG", "OUT_OF_MEMORY", "TRAINING", "false", null, false));
    items.add(sure("BUG", "SETUP_FAILURE", "UNKNOWN", "true", 2L, false));
    items.add(sure("QUESTION", "NONE", "TRAINING", "null", 1L, true));
    List<Map<String, Object>> rows = run(items);

    Map<String, Object> small = figure(rows, "p1-small-fixes");
    assertEquals(2.0 / 3, (Double) small.get("estimate"), 1e-4);
    assertEquals(small.get("estimate"), small.get("low"), "no per-item uncertainty, no width");
    assertEquals(3.0, small.get("basis"));
    assertEquals(0.48, small.get("published"));
    assertEquals(2.0 / 3, (Double) figure(rows, "p1-training-vs-inference").get("estimate"), 1e-4);
    assertEquals(0.25, (Double) figure(rows, "p1-long-open-tail").get("estimate"), 1e-4);
    assertEquals(0.75, (Double) figure(rows, "p2-distributed-specific").get("estimate"), 1e-4);
    Map<String, Object> hangs = figure(rows, "p1-hangs-in-training");
    assertNull(hangs.get("estimate"), "two HANG bugs: too few");
    assertTrue(((String) hangs.get("note")).startsWith("too few to estimate"), hangs.toString());
    assertNull(figure(rows, "p2-version-or-tuning-fixes").get("estimate"), "no known fix pattern");
    String ranking = (String) figure(rows, "p1-top-symptoms").get("ranking");
    assertTrue(ranking.startsWith("CRASH 50% (50–50%), HANG 50%"), ranking);
    Map<String, Object> distributedSymptoms = figure(rows, "p2-top-distributed-symptoms");
    assertEquals(3.0, distributedSymptoms.get("basis"));
  }

  @Test
  void theBugOnlyDimensionsCountTheKindOnce() {
    // The point 4: the stored symptom is P(bug and symptom). Fifty issues 90% bugs whose
    // symptom given a bug is HANG, fifty 30% bugs whose symptom given a bug is RUNTIME_CRASH: of
    // the expected 60 bug reports 45 hang, a share of 0.75 (drawing the kind and the stored
    // symptom independently counts P(bug) twice and gives 0.9).
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      boolean hang = i < 50;
      double bug = hang ? 0.9 : 0.3;
      Map<String, Object> m = new HashMap<>();
      m.put("kind", "BUG");
      m.put("kindP", Rows.over(Dimension.KIND, Map.of("BUG", bug, "QUESTION", 1 - bug)));
      m.put("symptom", hang ? "HANG" : "RUNTIME_CRASH");
      m.put(
          "symptomP",
          Rows.over(
              Dimension.SYMPTOM, Map.of(hang ? "HANG" : "RUNTIME_CRASH", bug, "NONE", 1 - bug)));
      m.put("phase", "UNKNOWN");
      m.put("rootCause", "UNKNOWN");
      m.put("fixPattern", "UNKNOWN");
      m.put("distributedSpecific", "null");
      m.put("longOpen", false);
      items.add(m);
    }
    String ranking = (String) figure(run(items), "p1-top-symptoms").get("ranking");
    assertTrue(ranking.startsWith("HANG 75% ("), ranking);
  }

  @Test
  void uncertainLabelsGiveTheExpectedShareAndAnIntervalAroundIt() {
    // 200 bugs, each 30% distributed-specific, 70% not: the share is 0.3, and the labellings
    // scatter around it by the binomial's spread (sd 0.032 for 200 issues).
    List<Double> p = List.of(0.3, 0.7, 0.0);
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      Map<String, Object> m = sure("BUG", "HANG", "TRAINING", "false", null, false);
      m.put("humanGiven", List.of("kind"));
      m.put(Dimension.DISTRIBUTED_SPECIFIC.key() + "P", p);
      items.add(m);
    }
    Map<String, Object> row = figure(run(items), "p2-distributed-specific");
    assertEquals(0.3, (Double) row.get("estimate"), 1e-9);
    double low = (Double) row.get("low");
    double high = (Double) row.get("high");
    assertTrue(low > 0.22 && low < 0.27 && high > 0.33 && high < 0.38, low + "–" + high);
  }

  @Test
  void onATinyBaseThereIsNoFigureAndNoRankingButANote() {
    Map<String, Object> m = sure("BUG", "HANG", "TRAINING", "true", null, false);
    m.put("humanGiven", List.of("kind"));
    m.put("symptomP", Rows.over(Dimension.SYMPTOM, Map.of("HANG", 0.3, "OUT_OF_MEMORY", 0.7)));
    m.put("phaseP", Rows.over(Dimension.PHASE, Map.of("TRAINING", 0.97, "INFERENCE", 0.03)));
    List<Map<String, Object>> rows = run(List.of(m));
    for (Map<String, Object> r : rows) {
      assertNull(r.get("estimate"), r.toString());
      assertNull(r.get("ranking"), r.toString());
      assertTrue(((String) r.get("note")).startsWith("too few to estimate"), r.toString());
    }
  }

  @Test
  void rowsHaveExactlyTheQuerysDeclaredColumns() {
    List<Map<String, Object>> rows =
        run(List.of(sure("BUG", "HANG", "TRAINING", "true", 3L, false)));
    for (Map<String, Object> r : rows) {
      assertEquals(QUERY.columnNames(), List.copyOf(r.keySet()));
    }
    assertEquals(Figures.RATIOS.size() + Figures.RANKED.size(), rows.size());
  }
}
