package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The misclassification rows, against sums done by hand. */
class ConfusionTest {

  /** A prior of 1/7 on each of the stage's seven codes, whatever the answer. */
  private static final Function<String, Map<String, Double>> UNIFORM =
      a -> {
        Map<String, Double> p = new java.util.LinkedHashMap<>();
        Dimension.STAGE.distributionCodes().forEach(c -> p.put(c, 1.0 / 7));
        return p;
      };

  private static List<Confusion.Observation> observations(String... keyThenTruth) {
    List<Confusion.Observation> out = new ArrayList<>();
    for (String s : keyThenTruth) {
      String[] parts = s.split(">");
      out.add(new Confusion.Observation(List.of(parts[0].split(",")), parts[1]));
    }
    return out;
  }

  @Test
  void aRowIsTheCountsPlusTheDirichletPriorOverTheItemsPlusItsStrength() {
    // answered MEMORY four times: right three times, once the truth was COMPUTATION
    Confusion m =
        Confusion.fit(
            Dimension.STAGE,
            observations("MEMORY>MEMORY", "MEMORY>MEMORY", "MEMORY>MEMORY", "MEMORY>COMPUTATION"),
            2.0,
            UNIFORM);
    Map<String, Double> row = m.row("MEMORY");
    assertEquals(23.0 / 42, row.get("MEMORY"), 1e-12); // (3 + 2/7) / 6
    assertEquals(9.0 / 42, row.get("COMPUTATION"), 1e-12); // (1 + 2/7) / 6
    assertEquals(2.0 / 42, row.get("SCHEDULING"), 1e-12); // (0 + 2/7) / 6
    assertEquals(1.0, row.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-12);
    assertEquals(Dimension.STAGE.distributionCodes(), List.copyOf(row.keySet()));
    assertEquals(4, m.items(List.of()));
    assertEquals(3, m.agreeing());
    assertEquals(List.of("MEMORY"), m.answered());
  }

  @Test
  void anAnswerNeverSeenGetsThePriorAndNoCellIsZeroOrOneFromAHandfulOfItems() {
    Confusion m = Confusion.fit(Dimension.STAGE, observations("MEMORY>MEMORY"), 2.0, UNIFORM);
    assertEquals(1.0 / 7, m.row("SCHEDULING").get("SCHEDULING"), 1e-12);
    Map<String, Double> once = m.row("MEMORY");
    assertEquals(9.0 / 21, once.get("MEMORY"), 1e-12); // (1 + 2/7) / 3
    once.values().forEach(p -> assertTrue(p > 0 && p < 1, "cell " + p));
  }

  @Test
  void aRefinedRowShrinksTowardItsAnswersRowAndAnUnseenRefinementTakesThatRow() {
    Confusion m =
        Confusion.fit(
            Dimension.STAGE,
            observations(
                "MEMORY,issue>MEMORY",
                "MEMORY,change>MEMORY",
                "MEMORY,change>MEMORY",
                "MEMORY,change>COMPUTATION"),
            2.0,
            UNIFORM);
    // the answer's row pools both: (3 + 2/7) / 6 as above
    assertEquals(23.0 / 42, m.row(List.of("MEMORY")).get("MEMORY"), 1e-12);
    // [MEMORY, issue]: one item, right: (1 + 2 * 23/42) / 3
    Map<String, Double> issue = m.row(List.of("MEMORY", "issue"));
    assertEquals(88.0 / 126, issue.get("MEMORY"), 1e-12);
    assertEquals(18.0 / 126, issue.get("COMPUTATION"), 1e-12);
    assertEquals(4.0 / 126, issue.get("UNKNOWN"), 1e-12);
    assertEquals(m.row(List.of("MEMORY")), m.row(List.of("MEMORY", "pull-request")));
    assertEquals(1, m.items(List.of("MEMORY", "issue")));
  }

  @Test
  void theCountsRoundTripThroughJsonAndBadCountsAreRefused() {
    Confusion m =
        Confusion.fit(
            Dimension.STAGE,
            observations("MEMORY,issue>MEMORY", "SCHEDULING,change>COMMUNICATION"),
            3.0,
            UNIFORM);
    ObjectMapper json = new ObjectMapper();
    Confusion back = Confusion.fromJson(Dimension.STAGE, m.toJson(json), 3.0, UNIFORM);
    assertEquals(m.row(List.of("SCHEDULING", "change")), back.row(List.of("SCHEDULING", "change")));
    assertEquals(m.toJson(json), back.toJson(json));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Confusion.fromJson(
                Dimension.STAGE,
                json.createArrayNode()
                    .add(json.readTree("{\"key\": [\"MEMORY\"], \"n\": {\"STUCK\": 2}}")),
                3.0,
                UNIFORM));
    assertThrows(
        IllegalArgumentException.class,
        () -> Confusion.fit(Dimension.STAGE, observations("MEMORY>STUCK"), 2.0, UNIFORM));
    assertThrows(
        IllegalArgumentException.class,
        () -> Confusion.fit(Dimension.STAGE, List.of(), 0.0, UNIFORM),
        "a prior needs pseudo-counts");
  }

  @Test
  void markersAreTheContractsStrings() {
    assertEquals("prior:0.1", Calibrations.prior(0.1));
    assertEquals("prior:0.25", Calibrations.prior(0.25));
    assertEquals("cv:rules-9", Calibrations.cv("rules-9"));
    assertEquals(
        "confusion:org/m-1/faultline-prompt-2.ab",
        Calibrations.confusion("org/m-1", "faultline-prompt-2.ab"));
  }
}
