package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The committed model with the real encoder, on reports written for this test. */
class LearnedClassifierTest {

  private static final LearnedClassifier CLASSIFIER = LearnedClassifier.shared();

  private static final String CRASH =
      "When I start training with ZeRO stage 3 on 4 GPUs the engine fails right after the first step.\n"
          + "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n"
          + "    engine.step()\nRuntimeError: CUDA error: an illegal memory access was encountered\n"
          + "deepspeed 0.14.2, torch 2.3.0, CUDA 12.1";

  @Test
  void everyLabelIsAProbabilityWithEvidenceNamingFeaturesAndNeighbours() {
    Classification c =
        CLASSIFIER.classify(
            IssueText.of("deepspeedai/DeepSpeed", 1, "[BUG] illegal memory access in step", CRASH));
    assertEquals(Kind.BUG, c.kind().value());
    assertTrue(
        c.classifierVersion().startsWith(LearnedClassifier.LAYER_VERSION + "+rules-"),
        c.classifierVersion());
    for (Label<?> l :
        List.of(
            c.kind(),
            c.symptom(),
            c.rootCause(),
            c.fixPattern(),
            c.stage(),
            c.label(Dimension.PHASE),
            c.label(Dimension.DISTRIBUTED_SPECIFIC))) {
      assertTrue(l.confidence() >= 0 && l.confidence() <= 1, l.toString());
      assertTrue(l.evidence().contains("p="), l.evidence());
    }
    assertTrue(c.symptom().evidence().contains("nearest labelled: "), c.symptom().evidence());
    assertTrue(c.symptom().evidence().contains("features: "), c.symptom().evidence());
    assertEquals("DeepSpeed", c.framework().value(), "framework and versions come from the rules");
    assertEquals("2.3.0", c.versions().get("torch"));
  }

  @Test
  void everyLabelKeepsItsCalibratedDistributionWhoseAnswerIsItsConfidence() {
    for (IssueText in :
        List.of(
            IssueText.of("deepspeedai/DeepSpeed", 1, "[BUG] illegal memory access in step", CRASH),
            IssueText.of(
                "deepspeedai/DeepSpeed",
                2,
                "How do I enable CPU offload?",
                "Is there an example of a config that turns on optimizer offload to CPU?"))) {
      Classification c = CLASSIFIER.classify(in);
      for (Dimension d : Dimension.values()) {
        Label<?> l = c.label(d);
        assertNotNull(l.distribution(), d + " has its own distribution");
        Map<String, Double> p = Distributions.of(d, l);
        double sum = p.values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(1.0, sum, 1e-9, d + " sums to 1");
        // the answer's probability is the label's confidence, abstentions included (the
        // symptom's through P(bug) x P(symptom | bug), NONE = 1 - P(bug)); the symptom class keeps
        // its symptom's confidence while its distribution sums the class's symptoms
        if (d.labelled()) {
          assertEquals(l.confidence(), p.get(Dimension.codeOf(l.value())), 1e-9, d + " " + l);
        } else {
          assertTrue(p.get(Dimension.codeOf(l.value())) >= l.confidence() - 1e-9, d + " " + l);
        }
      }
    }
  }

  @Test
  void aQuestionHasNoSymptom() {
    Classification c =
        CLASSIFIER.classify(
            IssueText.of(
                "deepspeedai/DeepSpeed",
                2,
                "How do I enable CPU offload?",
                "Is there an example of a config that turns on optimizer offload to CPU? What are the recommended settings?"));
    assertTrue(c.kind().value() != Kind.BUG, c.kind().toString());
    assertEquals(Symptom.NONE, c.symptom().value());
  }

  @Test
  void peoplesLabelsStillWin() {
    IssueText in =
        new IssueText(
            "deepspeedai/DeepSpeed",
            3,
            "[BUG] illegal memory access",
            CRASH,
            List.of("inference"),
            List.of(),
            List.of(),
            "open");
    Classification c = CLASSIFIER.classify(in);
    assertEquals(Phase.INFERENCE, c.label(Dimension.PHASE).value());
    assertTrue(c.label(Dimension.PHASE).humanGiven());
  }

  @Test
  void theSameItemGetsTheSameAnswerFromManyThreads() throws Exception {
    IssueText in =
        IssueText.of("NVIDIA/Megatron-LM", 4, "Hang in pipeline parallel send/recv", CRASH);
    Classification first = CLASSIFIER.classify(in);
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Classification>> fs = new java.util.ArrayList<>();
      for (int i = 0; i < 16; i++) {
        fs.add(pool.submit(() -> CLASSIFIER.classify(in)));
      }
      for (var f : fs) {
        assertEquals(first, f.get());
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Counts the real encoder's calls. */
  private static final class Counting implements TextEmbedder {
    final java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public float[] embed(String text) {
      calls.incrementAndGet();
      return MiniLmEmbedder.shared().embed(text);
    }

    @Override
    public Object inputKey(String text) {
      return MiniLmEmbedder.shared().inputKey(text);
    }

    @Override
    public int dimension() {
      return 384;
    }

    @Override
    public String name() {
      return MiniLmEmbedder.shared().name();
    }
  }

  @Test
  void aCommentThatLeavesTheEncodedTextUnchangedCostsNoEncoderCallAndChangesNoVector() {
    Counting counting = new Counting();
    LearnedClassifier cached =
        new LearnedClassifier(
            new dev.faultline.classifier.rules.Classifier(
                dev.faultline.classifier.ClassifierConfig.defaults()),
            new VectorCache(counting, 64),
            LearnedModel.bundled());
    String body = CRASH + "\n" + CRASH; // past the encoder's 96 word pieces
    IssueText opened =
        new IssueText(
            "deepspeedai/DeepSpeed",
            4,
            "[BUG] crash",
            body,
            List.of(),
            List.of(),
            List.of(),
            "open");
    IssueText commented =
        new IssueText(
            "deepspeedai/DeepSpeed",
            4,
            "[BUG] crash",
            body,
            List.of(),
            List.of(
                new dev.faultline.classifier.Comment(
                    "maintainer", true, "Fixed by upgrading NCCL; the hang is gone on 2.19.")),
            List.of(),
            "open");
    int atStart = counting.calls.get(); // the encoder's fingerprint was checked when it was built
    cached.classify(opened);
    assertEquals(atStart + 1, counting.calls.get());
    Classification viaCache = cached.classify(commented);
    assertEquals(atStart + 1, counting.calls.get(), "the comment cost no encoder call");
    assertEquals(
        CLASSIFIER.classify(commented).toString(),
        viaCache.toString(),
        "and the labels, confidences and evidence are those of an uncached classifier");
  }
}
