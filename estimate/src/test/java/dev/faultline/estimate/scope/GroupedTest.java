package dev.faultline.estimate.scope;

import static dev.faultline.estimate.scope.Rows.item;
import static dev.faultline.estimate.scope.Rows.number;
import static dev.faultline.estimate.scope.Rows.params;
import static dev.faultline.estimate.scope.Rows.query;
import static dev.faultline.estimate.scope.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The grouped estimator behind category-shares, on rows written by hand (no server). */
class GroupedTest {
  private static final QueryDefinition SHARES = query("category-shares");
  private final Grouped grouped = new Grouped();

  private List<Map<String, Object>> shares(List<Map<String, Object>> items, String mode) {
    return grouped.estimate(SHARES, items, params("stage", "BUG", mode));
  }

  private static Map<String, Object> stage(
      Map<String, Double> p, double bug, String top, boolean passes) {
    return item(Dimension.STAGE, p, bug, top, passes);
  }

  @Test
  void anEstimateSumsProbabilitiesWeighedByTheKindWhereCountingLabelsMissesTheUnsureCode() {
    // Three bug reports, each 60% COMPUTATION and 40% MEMORY, labelled COMPUTATION below the bar;
    // one sure MEMORY bug. Counting sure labels says MEMORY 100%; the mix is 1.8 + 0.4 : 2.2.
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      items.add(stage(Map.of("COMPUTATION", 0.6, "MEMORY", 0.4), 1.0, "COMPUTATION", false));
    }
    items.add(stage(Map.of("MEMORY", 1.0), 1.0, "MEMORY", true));
    // a question that is 40% a bug: its stage weighs 0.4
    items.add(stage(Map.of("COMPUTATION", 1.0), 0.4, "COMPUTATION", true));

    List<Map<String, Object>> est = shares(items, "estimate");
    assertEquals(2.2, number(row(est, "COMPUTATION"), "estimate"), 1e-9);
    assertEquals(2.2, number(row(est, "MEMORY"), "estimate"), 1e-9);
    assertEquals(0.5, number(row(est, "COMPUTATION"), "share"), 1e-4);
    assertTrue(((String) row(est, "COMPUTATION").get("method")).startsWith("pcc"));
    assertEquals(4.4, number(row(est, "COMPUTATION"), "expectedInScope"), 1e-9);
    assertNull(row(est, "UNKNOWN").get("share"));
    double lo = number(row(est, "COMPUTATION"), "shareLow");
    double hi = number(row(est, "COMPUTATION"), "shareHigh");
    assertTrue(lo < 0.5 && 0.5 < hi, lo + " " + hi);

    List<Map<String, Object>> sure = shares(items, "confident");
    assertEquals(1.0, number(row(sure, "MEMORY"), "share"), 1e-9);
    assertEquals(0.0, number(row(sure, "COMPUTATION"), "estimate"), 1e-9);
    assertEquals("count of labels above the bar", row(sure, "MEMORY").get("method"));

    List<Map<String, Object>> all = shares(items, "all");
    assertEquals(3.0, number(row(all, "COMPUTATION"), "estimate"), 1e-9);
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
          stage(Map.of("COMPUTATION", 0.3, "MEMORY", 0.7), 1.0, "MEMORY", false);
      if (i % 10 == 0) {
        item.put("sample", Map.of("kind", "BUG", "stage", computation ? "COMPUTATION" : "MEMORY"));
      }
      items.add(item);
    }
    Map<String, Object> c = row(shares(items, "estimate"), "COMPUTATION");
    assertEquals("ppi/score_cc", c.get("method"));
    assertEquals(40L, c.get("sampleSize"));
    double truth = truthComputation / 400.0;
    assertTrue(
        number(c, "shareLow") <= truth && truth <= number(c, "shareHigh"), c + " truth " + truth);
    // without the sample the same rows give the classifier's 30%, far from the truth
    items.forEach(i -> i.put("sample", null));
    assertEquals(0.3, number(row(shares(items, "estimate"), "COMPUTATION"), "share"), 1e-4);
  }

  @Test
  void oneUnsureIssueGivesNoShareButSaysWhyAndItsCountStaysInsideItsInterval() {
    // the issue's point 3: one issue with P(bug) = .1 gave share .23 with interval [0, 0]
    List<Map<String, Object>> items =
        List.of(stage(Map.of("COMPUTATION", 0.23, "MEMORY", 0.77), 0.1, "MEMORY", false));
    for (Map<String, Object> r : shares(items, "estimate")) {
      assertNull(r.get("share"), r.toString());
      if (!r.get("code").equals("UNKNOWN")) {
        assertTrue(((String) r.get("note")).startsWith("too few to estimate"), r.toString());
      }
      double e = number(r, "estimate");
      assertTrue(number(r, "estimateLow") <= e && e <= number(r, "estimateHigh"), r.toString());
    }
  }

  @Test
  void aPersonsKindMakesTheIssueABugForTheSymptomWhateverItsStoredDistributionSays() {
    // the stored symptom is P(bug and symptom) with the classifier's P(bug) = 0.2: HANG 0.15,
    // OOM 0.05, NONE 0.8. A person says BUG: the issue counts fully, HANG 0.75 and OOM 0.25.
    Map<String, Object> m =
        item(
            Dimension.SYMPTOM,
            Map.of("HANG", 0.15, "OUT_OF_MEMORY", 0.05, "NONE", 0.8),
            0.2,
            "NONE",
            true);
    m.put("humanGiven", List.of("kind"));
    m.put("kind", "BUG");
    Map<String, Object> p = params("symptom", "BUG", "estimate");
    List<Map<String, Object>> est = grouped.estimate(SHARES, List.of(m), p);
    assertEquals(0.8, number(row(est, "HANG"), "estimate"), 0.051); // 0.75, one decimal
    assertEquals(0.3, number(row(est, "OUT_OF_MEMORY"), "estimate"), 0.051);
    assertEquals(1.0, number(row(est, "HANG"), "expectedInScope"), 1e-9);
  }

  @Test
  void rowsHaveExactlyTheQuerysDeclaredColumnsAndBadInputIsRefused() {
    List<Map<String, Object>> rows =
        shares(List.of(stage(Map.of("MEMORY", 1.0), 1.0, "MEMORY", true)), "estimate");
    assertEquals(SHARES.columnNames(), List.copyOf(rows.get(0).keySet()));
    assertEquals(Dimension.STAGE.distributionCodes().size(), rows.size());
    Map<String, Object> sideways = new HashMap<>(params("stage", "BUG", "sideways"));
    assertThrows(
        IllegalArgumentException.class, () -> grouped.estimate(SHARES, List.of(), sideways));
    Map<String, Object> mood = new HashMap<>(params("mood", "BUG", "estimate"));
    assertThrows(IllegalArgumentException.class, () -> grouped.estimate(SHARES, List.of(), mood));
  }
}
