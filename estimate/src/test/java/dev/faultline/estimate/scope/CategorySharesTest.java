package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The category-shares arithmetic on rows written by hand (no server). */
class CategorySharesTest {
  private static final List<String> STAGES = Dimension.STAGE.symbols();
  private final CategoryShares shares = new CategoryShares();

  /** A stage row: probabilities over the stage codes, a kind probability of BUG, the top labels. */
  private static Map<String, Object> item(
      Map<String, Double> stage, double bug, String top, boolean passes) {
    Map<String, Object> m = new HashMap<>();
    List<Double> p = new ArrayList<>();
    for (String code : STAGES) {
      p.add(stage.getOrDefault(code, 0.0));
    }
    List<Double> kind = new ArrayList<>();
    for (String code : Dimension.KIND.symbols()) {
      kind.add(code.equals("BUG") ? bug : code.equals("QUESTION") ? 1 - bug : 0.0);
    }
    m.put("top", top);
    m.put("p", p);
    m.put("topKind", bug >= 0.5 ? "BUG" : "QUESTION");
    m.put("kindP", kind);
    m.put("passes", passes);
    m.put("kindPasses", true);
    m.put("sample", null);
    return m;
  }

  private static Map<String, Object> params(String mode) {
    Map<String, Object> m = new HashMap<>();
    m.put("dimension", "stage");
    m.put("kind", "BUG");
    m.put("mode", mode);
    return m;
  }

  private static Map<String, Object> row(List<Map<String, Object>> rows, String code) {
    return rows.stream().filter(r -> r.get("code").equals(code)).findFirst().orElseThrow();
  }

  @Test
  void anEstimateSumsProbabilitiesWeighedByTheKindWhereCountingLabelsMissesTheUnsureCode() {
    // Three bug reports, each 60% COMPUTATION and 40% MEMORY, labelled COMPUTATION below the bar;
    // one sure MEMORY bug. Counting sure labels says MEMORY 100%; the mix is 1.8 : 2.2.
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      items.add(item(Map.of("COMPUTATION", 0.6, "MEMORY", 0.4), 1.0, "COMPUTATION", false));
    }
    items.add(item(Map.of("MEMORY", 1.0), 1.0, "MEMORY", true));
    // a question that is 40% a bug: its stage weighs 0.4
    items.add(item(Map.of("COMPUTATION", 1.0), 0.4, "COMPUTATION", true));

    List<Map<String, Object>> est = shares.estimate(items, params("estimate"));
    assertEquals(2.2, (Double) row(est, "COMPUTATION").get("estimate"), 1e-9);
    assertEquals(2.2, (Double) row(est, "MEMORY").get("estimate"), 1e-9);
    assertEquals(2.2 / 4.4, (Double) row(est, "COMPUTATION").get("share"), 1e-4);
    assertEquals("pcc", row(est, "COMPUTATION").get("method"));
    assertEquals(4.4, (Double) row(est, "COMPUTATION").get("expectedInScope"), 1e-9);
    assertNull(row(est, "UNKNOWN").get("share"));
    double lo = (Double) row(est, "COMPUTATION").get("shareLow");
    double hi = (Double) row(est, "COMPUTATION").get("shareHigh");
    assertTrue(lo < 2.2 / 4.4 && 2.2 / 4.4 < hi, lo + " " + hi);

    List<Map<String, Object>> sure = shares.estimate(items, params("confident"));
    assertEquals(1.0, (Double) row(sure, "MEMORY").get("share"), 1e-9);
    assertEquals(0.0, (Double) row(sure, "COMPUTATION").get("estimate"), 1e-9);
    assertEquals("count of labels above the bar", row(sure, "MEMORY").get("method"));

    List<Map<String, Object>> all = shares.estimate(items, params("all"));
    assertEquals(3.0, (Double) row(all, "COMPUTATION").get("estimate"), 1e-9);
    assertEquals(1L, row(all, "MEMORY").get("labelled"));
  }

  @Test
  void aValidationSampleOfTheScopeTurnsTheEstimateIntoPredictionPoweredInference() {
    // The classifier says 30% COMPUTATION for every bug; the truth is 60%. A uniform sample of 40
    // labelled by a person pulls the estimate to the truth, and its interval covers it.
    SplittableRandom random = new SplittableRandom(7);
    List<Map<String, Object>> items = new ArrayList<>();
    int truthComputation = 0;
    for (int i = 0; i < 400; i++) {
      boolean computation = random.nextDouble() < 0.6;
      truthComputation += computation ? 1 : 0;
      Map<String, Object> item =
          item(Map.of("COMPUTATION", 0.3, "MEMORY", 0.7), 1.0, "MEMORY", false);
      if (i % 10 == 0) {
        item.put("sample", Map.of("kind", "BUG", "stage", computation ? "COMPUTATION" : "MEMORY"));
      }
      items.add(item);
    }
    List<Map<String, Object>> est = shares.estimate(items, params("estimate"));
    Map<String, Object> c = row(est, "COMPUTATION");
    assertEquals("ppi/score_cc", c.get("method"));
    assertEquals(40L, c.get("sampleSize"));
    double truth = truthComputation / 400.0;
    assertTrue(
        (Double) c.get("shareLow") <= truth && truth <= (Double) c.get("shareHigh"),
        c + " truth " + truth);
    // without the sample the same rows give the classifier's 30%, far from the truth
    items.forEach(i -> i.put("sample", null));
    assertEquals(
        0.3,
        (Double) row(shares.estimate(items, params("estimate")), "COMPUTATION").get("share"),
        1e-4);
  }

  @Test
  void rowsHaveExactlyTheQuerysDeclaredColumnsAndBadInputIsRefused() {
    QueryDefinition q =
        QueryLibrary.loadDefinitions().stream()
            .filter(d -> d.name().equals("category-shares"))
            .findFirst()
            .orElseThrow();
    List<Map<String, Object>> rows =
        shares.estimate(
            List.of(item(Map.of("MEMORY", 1.0), 1.0, "MEMORY", true)), params("estimate"));
    assertEquals(q.columnNames(), List.copyOf(rows.get(0).keySet()));
    assertEquals(STAGES.size(), rows.size());
    assertThrows(
        IllegalArgumentException.class,
        () -> shares.estimate(List.of(), Map.of("dimension", "stage", "mode", "sideways")));
    assertThrows(
        IllegalArgumentException.class,
        () -> shares.estimate(List.of(), Map.of("dimension", "mood", "mode", "estimate")));
  }
}
