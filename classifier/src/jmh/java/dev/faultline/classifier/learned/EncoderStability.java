package dev.faultline.classifier.learned;

import ai.onnxruntime.OrtSession;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.bench.BulkClassifierBenchmark;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How far the encoder's vectors move when ONNX Runtime computes differently, as a proxy for another
 * CPU's kernels (issue #26 point 5): the production session (1 intra-op thread, all graph
 * optimisations) beside 2 intra-op threads, basic optimisations, none, and denormals as zero. For
 * each: vectors not bit-identical, the largest difference, values that change when rounded to 1/254
 * (the artefact's step), 1/64 and 1/16, whether the fingerprint changes, and labels that change on
 * synthetic issues. Run: {@code java -cp ... -Dfaultline.encoder.allowMismatch=true
 * dev.faultline.classifier.learned.EncoderStability [issues]}.
 */
public final class EncoderStability {

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    IssueText[] issues = BulkClassifierBenchmark.syntheticIssues(n, 1500, 99);
    List<String> texts = new ArrayList<>();
    for (IssueText in : issues) {
      texts.add(FeatureExtractor.embeddingText(in));
    }
    texts.addAll(EncoderFingerprint.PROBES);
    MiniLmEmbedder base = MiniLmEmbedder.shared();
    Map<String, MiniLmEmbedder.OptionsTweak> variants = new LinkedHashMap<>();
    variants.put("same settings, second session", o -> {});
    variants.put("2 intra-op threads", o -> o.setIntraOpNumThreads(2));
    variants.put(
        "basic optimisations",
        o -> o.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.BASIC_OPT));
    variants.put(
        "no optimisations", o -> o.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.NO_OPT));
    variants.put("denormals as zero", o -> o.addConfigEntry("session.set_denormal_as_zero", "1"));
    List<float[]> ref = new ArrayList<>();
    for (String t : texts) {
      ref.add(base.embed(t));
    }
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    LearnedModel model = LearnedModel.bundled();
    LearnedClassifier refClassifier = new LearnedClassifier(rules, base, model);
    List<Classification> refLabels = new ArrayList<>();
    for (IssueText in : issues) {
      refLabels.add(refClassifier.classify(in));
    }
    System.out.printf(
        Locale.ROOT,
        "%d texts (%d synthetic issues + %d probes); fingerprint %s (artefact: %s)%n",
        texts.size(),
        n,
        EncoderFingerprint.PROBES.size(),
        EncoderFingerprint.of(base),
        model.encoderFingerprint());
    System.out.println(
        "| settings | vectors not bit-identical | max abs diff | values changed at 1/254 | at 1/64 | at 1/16 | fingerprint | issues with any label changed |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (Map.Entry<String, MiniLmEmbedder.OptionsTweak> v : variants.entrySet()) {
      MiniLmEmbedder e = new MiniLmEmbedder(v.getValue());
      int differ = 0;
      double max = 0;
      int[] changed = new int[3];
      float[] steps = {254f, 64f, 16f};
      for (int i = 0; i < texts.size(); i++) {
        float[] a = ref.get(i);
        float[] b = e.embed(texts.get(i));
        differ += java.util.Arrays.equals(a, b) ? 0 : 1;
        for (int d = 0; d < a.length; d++) {
          max = Math.max(max, Math.abs(a[d] - b[d]));
          for (int s = 0; s < steps.length; s++) {
            changed[s] += Math.round(a[d] * steps[s]) != Math.round(b[d] * steps[s]) ? 1 : 0;
          }
        }
      }
      LearnedClassifier c = new LearnedClassifier(rules, e, model);
      int labelChanges = 0;
      for (int i = 0; i < issues.length; i++) {
        Classification x = c.classify(issues[i]);
        Classification y = refLabels.get(i);
        boolean same =
            x.kind().value() == y.kind().value()
                && x.symptom().value() == y.symptom().value()
                && x.rootCause().value() == y.rootCause().value()
                && x.fixPattern().value() == y.fixPattern().value()
                && x.stage().value() == y.stage().value()
                && x.label(Dimension.PHASE).value() == y.label(Dimension.PHASE).value()
                && java.util.Objects.equals(
                    x.label(Dimension.DISTRIBUTED_SPECIFIC).value(),
                    y.label(Dimension.DISTRIBUTED_SPECIFIC).value());
        labelChanges += same ? 0 : 1;
      }
      System.out.printf(
          Locale.ROOT,
          "| %s | %d of %d | %.2e | %d of %d | %d | %d | %s | %d of %d |%n",
          v.getKey(),
          differ,
          texts.size(),
          max,
          changed[0],
          texts.size() * 384,
          changed[1],
          changed[2],
          EncoderFingerprint.of(e).equals(EncoderFingerprint.of(base)) ? "same" : "differs",
          labelChanges,
          issues.length);
    }
  }
}
