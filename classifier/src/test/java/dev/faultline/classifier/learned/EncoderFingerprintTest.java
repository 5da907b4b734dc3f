package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.rules.Classifier;
import org.junit.jupiter.api.Test;

class EncoderFingerprintTest {

  /** The hashing stand-in with one value of every vector moved by {@code delta}. */
  private static TextEmbedder shifted(float delta) {
    SeededEmbedder h = new SeededEmbedder();
    return new TextEmbedder() {
      @Override
      public float[] embed(String text) {
        float[] v = h.embed(text);
        v[3] += delta;
        return v;
      }

      @Override
      public int dimension() {
        return h.dimension();
      }

      @Override
      public String name() {
        return h.name();
      }
    };
  }

  @Test
  void theFingerprintNamesTheEncoderAndChangesWithItsRoundedOutputsOnly() {
    String f = EncoderFingerprint.of(new SeededEmbedder());
    assertTrue(f.matches("test-hashing:[0-9a-f]{16}"), f);
    assertEquals(f, EncoderFingerprint.of(new SeededEmbedder()), "deterministic");
    assertEquals(f, EncoderFingerprint.of(shifted(1e-7f)), "below the rounding step: same");
    assertNotEquals(f, EncoderFingerprint.of(shifted(0.05f)), "a step or more: different");
  }

  @Test
  void aMismatchIsRefusedWithBothFingerprintsUnlessAllowed() {
    TextEmbedder e = new SeededEmbedder();
    String own = EncoderFingerprint.of(e);
    assertEquals(own, EncoderFingerprint.check(e, null), "nothing recorded: nothing to check");
    assertEquals(own, EncoderFingerprint.check(e, own));
    String other = "test-hashing:0123456789abcdef";
    IllegalStateException x =
        assertThrows(IllegalStateException.class, () -> EncoderFingerprint.check(e, other));
    assertTrue(x.getMessage().contains(own) && x.getMessage().contains(other), x.getMessage());
    assertTrue(x.getMessage().contains("faultline.encoder.allowMismatch"), x.getMessage());
    System.setProperty("faultline.encoder.allowMismatch", "true");
    try {
      assertEquals(own, EncoderFingerprint.check(e, other));
    } finally {
      System.clearProperty("faultline.encoder.allowMismatch");
    }
  }

  @Test
  void theCommittedArtefactRecordsThisEncodersFingerprintAndAnotherIsRefused() {
    LearnedModel m = LearnedModel.bundled();
    assertEquals(
        EncoderFingerprint.of(MiniLmEmbedder.shared()),
        m.encoderFingerprint(),
        "the encoder computes here as where the artefact was trained (docs/classifier.md)");
    ObjectNode report = m.report().deepCopy();
    report.put("encoderFingerprint", MiniLmEmbedder.shared().name() + ":0000000000000000");
    LearnedModel other =
        new LearnedModel(
            m.version(),
            m.encoder(),
            m.vectorizer(),
            m.models(),
            m.precisionLevel(),
            m.neighbours(),
            report);
    IllegalStateException x =
        assertThrows(
            IllegalStateException.class,
            () ->
                new LearnedClassifier(
                    new Classifier(ClassifierConfig.defaults()), MiniLmEmbedder.shared(), other));
    assertTrue(x.getMessage().contains("0000000000000000"), x.getMessage());
  }
}
