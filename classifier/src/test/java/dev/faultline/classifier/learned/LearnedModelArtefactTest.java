package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.rules.Classifier;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed artefact was built by this code and is consistent with itself: retrain with {@code
 * ./faultline train} when this fails. A stale artefact (trained before the rules, the tokenizer or
 * the named features changed) or a wrong one (hand-edited, another encoder, a report that does not
 * belong to its models) fails here.
 */
class LearnedModelArtefactTest {

  private static LearnedModel m;

  @BeforeAll
  static void read() {
    m = LearnedModel.bundled();
  }

  @Test
  void theCommittedArtefactIsOfThisCodesFormatRulesAndEncoder() throws Exception {
    try (InputStream in = LearnedModel.class.getResourceAsStream(LearnedModel.RESOURCE)) {
      assertNotNull(in, LearnedModel.RESOURCE + " is committed");
      assertEquals(LearnedModel.FORMAT_VERSION, LearnedModel.formatVersionOf(in));
    }
    assertEquals(
        LearnedClassifier.versionFor(),
        m.version(),
        "trained with these rules; retrain after a rules change");
    assertEquals(MiniLmEmbedder.NAME, m.encoder());
    int dims = MiniLmEmbedder.shared().dimension();
    assertEquals(dims, m.vectorizer().mean.length, "one mean per dimension of the encoder");
    assertEquals(dims, m.vectorizer().std.length);
    for (byte[] v : m.neighbours().vectors()) {
      assertEquals(dims, v.length, "neighbour vectors of the encoder's dimension");
    }
  }

  @Test
  void itsVocabularyIsWhatThisCodesTokenizerMakes() {
    Vectorizer v = m.vectorizer();
    for (List<String> words : List.of(v.title, v.body, v.added, v.removed)) {
      assertTrue(words.size() > 100, "a vocabulary of " + words.size());
      for (String w : words) {
        Map<String, Integer> again = new HashMap<>();
        Words.count(w, again);
        assertEquals(Map.of(w, 1), again, "vocabulary word '" + w + "' re-read by Words");
      }
    }
    assertEquals(v.body.size(), v.bodyIdf.length, "one idf per body word");
  }

  @Test
  void itsNamedFeaturesAreOnesThisCodeProduces() {
    Set<String> produced = new TreeSet<>();
    for (RawFeatures r : syntheticFeatures()) {
      produced.addAll(r.fixed().keySet());
    }
    Set<String> codeFamilies = families(produced);
    Set<String> artefactFamilies = families(m.vectorizer().fixed);
    assertTrue(
        codeFamilies.containsAll(artefactFamilies),
        "families the code no longer makes: "
            + artefactFamilies.stream().filter(f -> !codeFamilies.contains(f)).toList());
    Set<String> ruleFamilies =
        codeFamilies.stream().filter(f -> f.startsWith("rule.")).collect(Collectors.toSet());
    assertEquals(Target.values().size(), ruleFamilies.size(), "one rule feature per dimension");
    assertTrue(
        artefactFamilies.containsAll(ruleFamilies),
        "rule features the artefact lacks: " + ruleFamilies);
    Set<String> codes = new HashSet<>(List.of("true", "false", "null"));
    for (Target t : Target.values()) {
      t.dimension.symbols().forEach(codes::add);
    }
    Set<String> cues = Arrays.stream(Cue.values()).map(Enum::name).collect(Collectors.toSet());
    for (String name : m.vectorizer().fixed) {
      String bare = name.replace("@confidence", "");
      if (bare.startsWith("rule.")) {
        String value = bare.substring(bare.indexOf('=') + 1);
        assertTrue(codes.contains(value), name + ": no such code");
      } else if (bare.startsWith("cue")) {
        String cue = bare.substring(bare.indexOf(':') + 1);
        assertTrue(cues.contains(cue), name + ": no such cue in the rules");
      }
    }
  }

  /** The family of a named feature: its name up to the first '=' or ':'. */
  private static Set<String> families(java.util.Collection<String> names) {
    Set<String> out = new TreeSet<>();
    for (String n : names) {
      int cut = n.length();
      for (char c : new char[] {'=', ':'}) {
        int i = n.indexOf(c);
        if (i >= 0) {
          cut = Math.min(cut, i);
        }
      }
      out.add(n.substring(0, cut));
    }
    return out;
  }

  /** Features of invented items: issues with and without comments, and a merged change. */
  private static List<RawFeatures> syntheticFeatures() {
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    List<RawFeatures> out = new ArrayList<>();
    float[] none = new float[MiniLmEmbedder.shared().dimension()];
    for (String[] text :
        List.of(
            new String[] {
              "Training hangs at allreduce",
              "NCCL watchdog timeout after 1800 seconds, all ranks stuck in the collective"
            },
            new String[] {
              "RuntimeError in optimizer step",
              "Traceback (most recent call last): RuntimeError: CUDA out of memory on rank 3"
            },
            new String[] {
              "How do I set the bucket size?",
              "Is there a way to configure the reduce bucket size for my model? Thanks"
            })) {
      IssueText in = IssueText.of("acme/trainer", out.size() + 1, text[0], text[1]);
      out.add(FeatureExtractor.extract(in, null, rules.analyse(in), none));
    }
    IssueText discussed =
        new IssueText(
            "acme/trainer",
            900,
            "NCCL timeout in all_reduce after upgrade",
            "Training hangs at the first all_reduce on 16 GPUs, watchdog fires after 1800 s.",
            List.of("bug"),
            List.of(
                new Comment(
                    "maintainer",
                    true,
                    "Traceback shows a version mismatch of NCCL; fixed by pinning the version."),
                new Comment("reporter", false, "Thanks, resolved after upgrading, closing.")),
            List.of(),
            "closed");
    out.add(FeatureExtractor.extract(discussed, null, rules.analyse(discussed), none));
    // merged changes: to code, to tests only, to documentation only
    for (String path : List.of("engine/comm.py", "tests/unit/test_comm.py", "docs/launch.md")) {
      IssueText change =
          new IssueText(
              "acme/trainer",
              out.size() + 1,
              "Fix deadlock in barrier",
              "Fixes #4: pass the timeout to the barrier.",
              List.of(),
              List.of(),
              List.of(),
              "merged");
      ChangeDetails diff =
          ChangeDetails.fromDiff(
              "diff --git a/"
                  + path
                  + " b/"
                  + path
                  + "\n--- a/"
                  + path
                  + "\n+++ b/"
                  + path
                  + "\n-    dist.barrier()\n+    dist.barrier(timeout=t)\n");
      out.add(FeatureExtractor.extract(change, diff, rules.analyse(change), none));
    }
    return out;
  }

  @Test
  void everyModelFitsTheVectorizerAndAnswersCodesOfItsDimension() {
    int d = m.vectorizer().dimension();
    for (Target t : Target.values()) {
      DimensionModel dm = m.models().get(t);
      assertNotNull(dm, "a model for " + t);
      assertEquals(
          t.codes.stream().filter(dm.classes()::contains).toList(),
          dm.classes(),
          t + ": classes are codes of the dimension, in the taxonomy's order");
      assertTrue(dm.classes().size() >= 2, t + " learned more than one class");
      assertEquals(dm.classes().size(), dm.weights().length);
      assertEquals(dm.classes().size(), dm.bias().length);
      for (float[] row : dm.weights()) {
        assertEquals(d, row.length, t + ": one weight per feature of the vectorizer");
      }
    }
  }

  @Test
  void theStoredReportAgreesWithTheModelsItCameWith() {
    JsonNode report = m.report();
    assertTrue(report.path("crossValidation").has("all"), "cross-validated figures travel along");
    assertEquals(m.neighbours().ids().size(), report.path("items").asInt(), "trained items");
    assertTrue(m.neighbours().ids().size() > 1000, "the labelled items are there for evidence");
    JsonNode calibration = report.path("calibration");
    for (Target t : Target.values()) {
      DimensionModel dm = m.models().get(t);
      JsonNode c = calibration.path(t.field);
      assertTrue(c.isObject(), "calibration of " + t.field + " reported");
      assertEquals(c.path("temperature").asDouble(), dm.temperature(), 0.0005, t + " temperature");
      assertTrue(
          dm.temperature() > 0.05 && dm.temperature() < 20,
          t + " temperature inside the fitted range: " + dm.temperature());
      assertEquals(c.path("threshold").asDouble(), dm.threshold(), 0.0, t + " threshold");
      assertTrue(
          dm.threshold() >= 0 && dm.threshold() < 1,
          t + " threshold " + dm.threshold() + " is a confidence");
      assertTrue(t.abstain != null || dm.threshold() == 0.0, t + " never abstains");
      double level = m.precisionLevel().get(t);
      assertEquals(c.path("precisionLevel").asDouble(), level, 0.0, t + " precision level");
      assertTrue(level > 0 && level <= 1, t + " precision level " + level);
    }
  }

  @Test
  void itsNeighboursCarryValidLabelsOfEveryDimension() {
    List<String> fields = Target.values().stream().map(t -> t.field).toList();
    assertEquals(m.neighbours().ids().size(), m.neighbours().labels().size());
    for (Map<String, String> labels : m.neighbours().labels()) {
      assertEquals(fields, List.copyOf(labels.keySet()));
      for (Target t : Target.values()) {
        String code = labels.get(t.field);
        assertTrue(t.codes.contains(code) || code.equals(t.abstain), t.field + " code " + code);
      }
    }
  }
}
