package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.artefact.LearnedArtefact;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TrainingPriorTest {

  @Test
  void theBundledPriorBelongsToTheBundledArtefact() throws Exception {
    String sha;
    try (InputStream in = LearnedArtefact.open()) {
      sha =
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()));
    }
    TrainingPrior p = TrainingPrior.bundled();
    assertEquals(
        sha,
        p.artefactSha256(),
        "the artefact changed: regenerate "
            + TrainingPrior.RESOURCE
            + " with estimate/run-bench PriorShiftBenchmark (docs/estimates.md)");
    assertEquals(LearnedClassifier.versionFor(), p.classifierVersion());
  }

  @Test
  void everyCodeOfTheCorrectedDimensionsHasItsShare() {
    for (Dimension d : List.of(Dimension.SYMPTOM, Dimension.STAGE)) {
      double[] p = TrainingPrior.bundled().of(d.key(), d.distributionCodes()).orElseThrow();
      double sum = 0;
      for (double v : p) {
        assertTrue(v > 0, d + ": a code the training issues never had would never be re-weighted");
        sum += v;
      }
      assertEquals(1, sum, 1e-9);
    }
  }

  @Test
  void readsAndRenormalisesOverTheCodesAsked() {
    Properties v = new Properties();
    v.setProperty("symptom.A", "0.2");
    v.setProperty("symptom.B", "0.6");
    v.setProperty("symptom.C", "0.2");
    TrainingPrior p = new TrainingPrior(v);
    double[] ab = p.of("symptom", List.of("B", "A")).orElseThrow();
    assertEquals(0.75, ab[0], 1e-12);
    assertEquals(0.25, ab[1], 1e-12);
    assertTrue(p.of("stage", List.of("A")).isEmpty());
  }
}
