package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The studies' figures computed on rows written by hand (no server). */
class StudyFiguresTest {
  private final StudyFigures figures = new StudyFigures();

  /** An issue whose labels are certain (no stored distributions: point masses on the labels). */
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
    m.put("rootCause", "UNKNOWN");
    m.put("fixPattern", "UNKNOWN");
    m.put("phase", phase);
    m.put("distributedSpecific", distributed);
    m.put("fixLines", fixLines);
    m.put("longOpen", longOpen);
    return m;
  }

  private static Map<String, Object> figure(List<Map<String, Object>> rows, String id) {
    return rows.stream().filter(r -> r.get("figure").equals(id)).findFirst().orElseThrow();
  }

  @Test
  void certainLabelsGiveTheFiguresExactlyWithADegenerateInterval() {
    List<Map<String, Object>> items = new ArrayList<>();
    items.add(sure("BUG", "HANG", "TRAINING", "true", 4L, false));
    items.add(sure("BUG", "HANG", "INFERENCE", "true", 40L, true));
    items.add(sure("BUG", "OUT_OF_MEMORY", "TRAINING", "false", null, false));
    items.add(sure("BUG", "SETUP_FAILURE", "UNKNOWN", "true", 2L, false));
    items.add(sure("QUESTION", "NONE", "TRAINING", "null", 1L, true));
    List<Map<String, Object>> rows = figures.estimate(items, Map.of());

    Map<String, Object> small = figure(rows, "p1-small-fixes");
    assertEquals(2.0 / 3, (Double) small.get("estimate"), 1e-4);
    assertEquals(small.get("estimate"), small.get("low"));
    assertEquals(3.0, small.get("basis"));
    assertEquals(0.48, small.get("published"));
    assertEquals(2.0 / 3, (Double) figure(rows, "p1-training-vs-inference").get("estimate"), 1e-4);
    assertEquals(0.5, (Double) figure(rows, "p1-hangs-in-training").get("estimate"), 1e-4);
    assertEquals(0.25, (Double) figure(rows, "p1-long-open-tail").get("estimate"), 1e-4);
    assertEquals(0.75, (Double) figure(rows, "p2-distributed-specific").get("estimate"), 1e-4);
    assertEquals(1.0, (Double) figure(rows, "p2-setup-distributed").get("estimate"), 1e-4);
    assertNull(figure(rows, "p2-version-or-tuning-fixes").get("estimate"), "no known fix pattern");
    String ranking = (String) figure(rows, "p1-top-symptoms").get("ranking");
    assertTrue(ranking.startsWith("CRASH 50% (50–50%), HANG 50%"), ranking);
  }

  @Test
  void uncertainLabelsGiveTheExpectedShareAndAnIntervalAroundIt() {
    // 200 bugs, each 30% distributed-specific, 70% not: the share is 0.3, and the simulated
    // labellings scatter around it by the binomial's spread (sd 0.032 for 200 issues).
    List<Double> p = new ArrayList<>();
    for (String code : List.of("true", "false", "null")) {
      p.add(code.equals("true") ? 0.3 : code.equals("false") ? 0.7 : 0.0);
    }
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      Map<String, Object> m = sure("BUG", "HANG", "TRAINING", "false", null, false);
      m.put(Dimension.DISTRIBUTED_SPECIFIC.key() + "P", p);
      items.add(m);
    }
    Map<String, Object> row = figure(figures.estimate(items, Map.of()), "p2-distributed-specific");
    assertEquals(0.3, (Double) row.get("estimate"), 0.01);
    double low = (Double) row.get("low");
    double high = (Double) row.get("high");
    assertTrue(low > 0.22 && low < 0.27 && high > 0.33 && high < 0.38, low + "–" + high);
  }

  @Test
  void onATinyBaseTheIntervalStillHoldsTheEstimate() {
    // one bug that is a HANG with probability 0.3 and trains with probability 0.97: most
    // labellings have no hang at all, and the ratio of expected counts (0.97) lies below the
    // percentiles of the draws that have one (all 1.0 or 0.0)
    Map<String, Object> m = sure("BUG", "HANG", "TRAINING", "true", null, false);
    List<Double> symptom = new ArrayList<>();
    for (String code : Dimension.SYMPTOM.distributionCodes()) {
      symptom.add(code.equals("HANG") ? 0.3 : code.equals("OUT_OF_MEMORY") ? 0.7 : 0.0);
    }
    List<Double> phase = new ArrayList<>();
    for (String code : Dimension.PHASE.distributionCodes()) {
      phase.add(code.equals("TRAINING") ? 0.97 : code.equals("INFERENCE") ? 0.03 : 0.0);
    }
    m.put("symptomP", symptom);
    m.put("phaseP", phase);
    Map<String, Object> row =
        figure(figures.estimate(List.of(m), Map.of()), "p1-hangs-in-training");
    double estimate = (Double) row.get("estimate");
    assertTrue(
        (Double) row.get("low") <= estimate && estimate <= (Double) row.get("high"),
        row.toString());
  }

  @Test
  void rowsHaveExactlyTheQuerysDeclaredColumns() {
    QueryDefinition q =
        QueryLibrary.loadDefinitions().stream()
            .filter(d -> d.name().equals("study-figures"))
            .findFirst()
            .orElseThrow();
    List<Map<String, Object>> rows =
        figures.estimate(List.of(sure("BUG", "HANG", "TRAINING", "true", 3L, false)), Map.of());
    for (Map<String, Object> r : rows) {
      assertEquals(q.columnNames(), List.copyOf(r.keySet()));
    }
    assertEquals(StudyFigures.RATIOS.size() + StudyFigures.RANKED.size(), rows.size());
  }
}
