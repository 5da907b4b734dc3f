package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DistributionsTest {

  private static double sum(Map<String, Double> p) {
    return p.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  @Test
  void theRulesSpreadPutsTheirConfidenceOnTheirCodeAndTheRestByTheTrainingMix() {
    Map<String, Double> p = Distributions.spread(Dimension.STAGE, Stage.COMMUNICATION, 0.7);
    assertEquals(Dimension.STAGE.distributionCodes(), List.copyOf(p.keySet()));
    assertEquals(0.7, p.get("COMMUNICATION"), 1e-12);
    assertEquals(1.0, sum(p), 1e-12);
    Map<String, Double> prior = Distributions.prior(Dimension.STAGE);
    // the rest keeps the prior's proportions between any two other codes
    assertEquals(
        prior.get("MEMORY") / prior.get("COMPUTATION"),
        p.get("MEMORY") / p.get("COMPUTATION"),
        1e-12);
    assertTrue(prior.get("INITIALIZATION") > prior.get("SCHEDULING"), "the training mix");
  }

  @Test
  void aPriorErrorPutsOneMinusEpsilonOnTheAnswerAndEpsilonByTheTrainingMixNeverAPointMass() {
    Map<String, Double> p = Distributions.priorError(Dimension.SYMPTOM, Symptom.HANG, 0.1);
    assertEquals(0.9, p.get("HANG"), 1e-12);
    assertEquals(1.0, sum(p), 1e-12);
    Map<String, Double> mix = Distributions.prior(Dimension.SYMPTOM);
    double others = 1 - mix.get("HANG");
    assertEquals(0.1 * mix.get("RUNTIME_CRASH") / others, p.get("RUNTIME_CRASH"), 1e-12);
    p.forEach((code, q) -> assertTrue(q > 0, code + " keeps some mass"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> Distributions.priorError(Dimension.SYMPTOM, Symptom.HANG, 1.5));
  }

  @Test
  void theFlagsSpreadCoversCannotTell() {
    Map<String, Double> p = Distributions.spread(Dimension.DISTRIBUTED_SPECIFIC, null, 0.6);
    assertEquals(List.of("true", "false", "null"), List.copyOf(p.keySet()));
    assertEquals(0.6, p.get("null"), 1e-12);
    assertEquals(1.0, sum(p), 1e-12);
  }

  @Test
  void aLabelWithoutADistributionIsAPointMass() {
    Map<String, Double> p =
        Distributions.of(Dimension.KIND, Label.human(Kind.QUESTION, "GitHub label"));
    assertEquals(1.0, p.get("QUESTION"));
    assertEquals(1.0, sum(p), 0.0);
    assertEquals(
        1.0, Distributions.of(Dimension.DISTRIBUTED_SPECIFIC, Label.human(null, "x")).get("null"));
  }

  @Test
  void theEdgesRoundToFourDecimals() {
    Label<Stage> l =
        Label.predicted(Stage.MEMORY, 0.5, "e")
            .withDistribution(Map.of("MEMORY", 1.0 / 3, "COMPUTATION", 2.0 / 3));
    Map<String, Double> p = Distributions.rounded(Dimension.STAGE, l);
    assertEquals(0.3333, p.get("MEMORY"));
    assertEquals(0.6667, p.get("COMPUTATION"));
    assertEquals(0.0, p.get("UNKNOWN"));
  }

  @Test
  void theRulesGiveEveryLabelItsConfusionRowAndTheSymptomClassSumsItsSymptoms() {
    Classification c =
        new Classifier(ClassifierConfig.defaults())
            .classify(
                new IssueText(
                    "acme/trainer",
                    3,
                    "Training hangs in all_reduce on 2 nodes",
                    "NCCL all_reduce never returns after the first step; no error, the job hangs.",
                    List.of("bug"),
                    List.of(),
                    List.of(),
                    "open"));
    for (Dimension d : Dimension.values()) {
      Map<String, Double> p = Distributions.of(d, c.label(d));
      assertEquals(1.0, sum(p), 1e-9, d + " sums to 1");
      if (!c.label(d).humanGiven() && d.labelled()) {
        assertEquals(
            c.label(d).confidence(), p.get(Dimension.codeOf(c.label(d).value())), 1e-12, d + "");
      }
    }
    Map<String, Double> symptoms = Distributions.of(Dimension.SYMPTOM, c.symptom());
    Map<String, Double> classes = Distributions.of(Dimension.SYMPTOM_CLASS, c.symptomClass());
    Taxonomy t = Taxonomy.load();
    Map<String, Double> summed = new java.util.HashMap<>();
    symptoms.forEach(
        (s, q) ->
            summed.merge(
                s.equals(Symptom.NONE.name()) || s.equals(Symptom.UNKNOWN.name())
                    ? s
                    : t.symptomClassOf(s).orElseThrow(),
                q,
                Double::sum));
    classes.forEach(
        (k, q) -> assertEquals(summed.getOrDefault(k, 0.0), q, 1e-12, k + " sums its symptoms"));
  }
}
