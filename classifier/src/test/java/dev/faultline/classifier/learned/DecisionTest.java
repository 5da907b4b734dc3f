package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DecisionTest {

  private static DimensionModel model(List<String> classes, double threshold) {
    return new DimensionModel(
        classes, new float[classes.size()][1], new float[classes.size()], 1.0, threshold);
  }

  private static Map<Target, DimensionModel> models(
      double symptomThreshold, double stageThreshold) {
    Map<Target, DimensionModel> m = new TreeMap<>();
    m.put(Target.KIND, model(List.of("BUG", "QUESTION"), 0));
    m.put(
        Target.SYMPTOM,
        model(List.of("HANG", "RUNTIME_CRASH", "NONE", "UNKNOWN"), symptomThreshold));
    m.put(Target.of(Dimension.STAGE), model(List.of("COMMUNICATION", "UNKNOWN"), stageThreshold));
    return m;
  }

  private static Map<Target, double[]> probs(double pBug, double[] symptom, double[] stage) {
    Map<Target, double[]> p = new TreeMap<>();
    p.put(Target.KIND, new double[] {pBug, 1 - pBug});
    p.put(Target.SYMPTOM, symptom);
    p.put(Target.of(Dimension.STAGE), stage);
    return p;
  }

  @Test
  void onlyABugReportHasASymptom() {
    Map<Target, Decision.Answer> a =
        Decision.decide(
            models(0, 0), probs(0.3, new double[] {0.6, 0.1, 0.2, 0.1}, new double[] {0.9, 0.1}));
    assertEquals("QUESTION", a.get(Target.KIND).code());
    assertEquals("NONE", a.get(Target.SYMPTOM).code());
    assertEquals(0.7, a.get(Target.SYMPTOM).confidence(), 1e-9, "P(not a bug)");
  }

  @Test
  void aBugsSymptomIsRightWhenKindAndSymptomAre() {
    Map<Target, Decision.Answer> a =
        Decision.decide(
            models(0, 0),
            probs(0.8, new double[] {0.5, 0.1, 0.5 * 0 + 0.3, 0.1}, new double[] {0.9, 0.1}));
    assertEquals(
        "HANG", a.get(Target.SYMPTOM).code(), "NONE is not an answer for a bug even when likelier");
    assertEquals(0.8 * 0.5 / (1 - 0.3), a.get(Target.SYMPTOM).confidence(), 1e-9);
  }

  @Test
  void belowItsThresholdADimensionAbstainsWithTheAbstentionsProbability() {
    Map<Target, Decision.Answer> a =
        Decision.decide(
            models(0.9, 0.95),
            probs(1.0, new double[] {0.5, 0.3, 0.0, 0.2}, new double[] {0.9, 0.1}));
    assertEquals("UNKNOWN", a.get(Target.SYMPTOM).code());
    assertTrue(a.get(Target.SYMPTOM).abstained());
    assertEquals(0.2, a.get(Target.SYMPTOM).confidence(), 1e-9);
    assertEquals("UNKNOWN", a.get(Target.of(Dimension.STAGE)).code());
    assertEquals(0.1, a.get(Target.of(Dimension.STAGE)).confidence(), 1e-9);
    Map<Target, Decision.Answer> sure =
        Decision.decide(
            models(0.4, 0.5),
            probs(1.0, new double[] {0.5, 0.3, 0.0, 0.2}, new double[] {0.9, 0.1}));
    assertEquals("HANG", sure.get(Target.SYMPTOM).code());
    assertFalse(sure.get(Target.SYMPTOM).abstained());
    assertEquals("COMMUNICATION", sure.get(Target.of(Dimension.STAGE)).code());
  }
}
