package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The committed artefact matches the code that reads it: retrain with {@code ./faultline train}
 * when this fails.
 */
class LearnedModelArtefactTest {

  @Test
  void theCommittedArtefactIsOfThisCodesFormatAndVersion() throws Exception {
    try (InputStream in = LearnedModel.class.getResourceAsStream(LearnedModel.RESOURCE)) {
      assertNotNull(in, LearnedModel.RESOURCE + " is committed");
      assertEquals(LearnedModel.FORMAT_VERSION, LearnedModel.formatVersionOf(in));
    }
    LearnedModel m = LearnedModel.bundled();
    assertEquals(
        LearnedClassifier.versionFor(),
        m.version(),
        "trained with these rules; retrain after a rules change");
    assertEquals(MiniLmEmbedder.NAME, m.encoder());
    for (Target t : Target.values()) {
      assertTrue(m.models().containsKey(t), "a model for " + t);
      double level = m.precisionLevel().get(t);
      assertTrue(level > 0 && level <= 1, t + " precision level " + level);
    }
    assertTrue(
        m.report().path("crossValidation").has("all"),
        "cross-validated figures travel with the artefact");
    assertTrue(m.neighbours().ids().size() > 1000, "the labelled items are there for evidence");
  }
}
