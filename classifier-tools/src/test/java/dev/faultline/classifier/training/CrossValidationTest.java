package dev.faultline.classifier.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.evaluation.Metrics;
import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.RawFeatures;
import dev.faultline.classifier.learned.Target;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cross-validation on a corpus where the kind is noise: each group of three items draws its kind at
 * random (four kinds) and shares one token that no other group has, and nothing else tells the
 * kinds apart (the text vectors are random too). A model can only get an item's kind right by
 * having seen that group's token with its kind: an answer from a model that saw the item, or saw
 * another item of its group, is right almost always; an honest out-of-fold answer is right about a
 * quarter of the time. Likewise a temperature fitted on items the model saw is sharp (those items
 * look easy), so its out-of-fold confidences run far above the quarter it gets right; one fitted on
 * held-back groups is flat.
 */
class CrossValidationTest {

  private static final List<String> KINDS =
      List.of("BUG", "FEATURE_REQUEST", "QUESTION", "DOCUMENTATION");
  private static final int GROUPS = 120;
  private static final int PER_GROUP = 3;

  private static List<Example> corpus;
  private static List<CrossValidation.Answered> answered;

  @BeforeAll
  static void crossValidate() {
    corpus = noise(GROUPS, 42L);
    answered = CrossValidation.run(corpus, 5, 7L, n -> true, 1.0, f -> {});
  }

  /** Groups of items sharing a token and a random kind; everything else constant or random. */
  static List<Example> noise(int groups, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Example> out = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      String kind = KINDS.get(r.nextInt(KINDS.size()));
      String group = "acme/noise#" + g;
      for (int i = 0; i < PER_GROUP; i++) {
        float[] embedding = new float[16];
        for (int j = 0; j < embedding.length; j++) {
          embedding[j] = (float) r.nextGaussian();
        }
        RawFeatures raw =
            new RawFeatures(
                embedding, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Set.of("tok" + g));
        Map<Target, String> gold = Target.map();
        gold.put(Target.KIND, kind);
        gold.put(Target.SYMPTOM, "HANG");
        gold.put(Target.ROOT_CAUSE, "UNKNOWN");
        gold.put(Target.FIX_PATTERN, "UNKNOWN");
        gold.put(Target.of(Dimension.STAGE), "COMMUNICATION");
        gold.put(Target.of(Dimension.PHASE), "TRAINING");
        gold.put(Target.of(Dimension.DISTRIBUTED_SPECIFIC), "true");
        String id = i == 0 ? group : "acme/noise@" + g + "c" + i; // an issue and its changes
        out.add(new Example(id, group, "acme/noise", i > 0, raw, null, gold));
      }
    }
    return out;
  }

  private static double kindAccuracy(List<CrossValidation.Answered> as) {
    return as.stream()
            .filter(
                a ->
                    a.answers().get(Target.KIND).code().equals(a.example().gold().get(Target.KIND)))
            .count()
        / (double) as.size();
  }

  @Test
  void everyItemIsAnsweredOnce() {
    assertEquals(corpus.size(), answered.size());
    Set<String> ids = new HashSet<>();
    answered.forEach(a -> ids.add(a.example().id()));
    assertEquals(corpus.size(), ids.size());
  }

  @Test
  void noAnswerComesFromAModelThatSawTheItemOrAnotherItemOfItsGroup() {
    // by chance 1/4; a model that saw the item's group token with its kind gets nearly all right
    double accuracy = kindAccuracy(answered);
    assertTrue(accuracy < 0.4, "out-of-fold kind accuracy on noise " + accuracy);
  }

  @Test
  void calibrationIsFittedOnItemsTheModelDidNotSee() {
    List<Boolean> ok = new ArrayList<>();
    List<Double> confidence = new ArrayList<>();
    for (CrossValidation.Answered a : answered) {
      Decision.Answer k = a.answers().get(Target.KIND);
      ok.add(k.code().equals(a.example().gold().get(Target.KIND)));
      confidence.add(k.confidence());
    }
    double meanConfidence = confidence.stream().mapToDouble(d -> d).average().orElseThrow();
    double accuracy = kindAccuracy(answered);
    assertTrue(
        meanConfidence < accuracy + 0.15,
        "mean confidence " + meanConfidence + " against accuracy " + accuracy);
    double ece = Metrics.ece(ok, confidence);
    assertTrue(ece < 0.15, "calibration error " + ece);
  }
}
