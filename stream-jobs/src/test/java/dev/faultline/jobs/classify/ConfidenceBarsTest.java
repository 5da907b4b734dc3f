package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.Target;
import dev.faultline.graph.ConfidencePolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The statistics' default bars are the shipped classifier's cross-validated 0.9-precision levels.
 */
class ConfidenceBarsTest {

  private static final Map<Target, String> GRAPH_NAMES =
      Map.of(
          Target.KIND, "kind",
          Target.SYMPTOM, "symptom",
          Target.ROOT_CAUSE, "rootCause",
          Target.FIX_PATTERN, "fixPattern",
          Target.STAGE, "stage",
          Target.PHASE, "phase",
          Target.DISTRIBUTED, "distributedSpecific");

  @Test
  void theDefaultBarsAreTheModelsPrecisionLevels() {
    LearnedModel model = LearnedModel.bundled();
    for (Target t : Target.values()) {
      double level = model.precisionLevel().get(t);
      assertEquals(
          Math.ceil(level * 1000) / 1000,
          ConfidencePolicy.CALIBRATED_BARS.get(GRAPH_NAMES.get(t)),
          1e-9,
          t + ": copy the retrained model's level into ConfidencePolicy.CALIBRATED_BARS");
    }
  }
}
