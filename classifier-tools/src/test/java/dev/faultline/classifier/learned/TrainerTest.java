package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Problem;
import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.ClassifierConfig;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrainerTest {

  private static final Classifier RULES = new Classifier(ClassifierConfig.defaults());

  private static List<Example> examples(int perClass, long seed) {
    return TrainingData.examples(
        Corpus.items(perClass, seed), RULES, new HashingEmbedder(), n -> {});
  }

  @Test
  void learnsTheCorpusAndAnswersUnseenItemsOfIt() {
    Trainer.Fitted m = new Trainer(1L, n -> true).train(examples(30, 1L));
    int right = 0;
    List<Example> unseen = examples(10, 99L);
    for (Example e : unseen) {
      Map<Target, Decision.Answer> a = m.answer(e.raw());
      right += a.get(Target.SYMPTOM).code().equals(e.gold().get(Target.SYMPTOM)) ? 1 : 0;
      for (Decision.Answer x : a.values()) {
        assertTrue(x.confidence() >= 0 && x.confidence() <= 1, "a probability: " + x);
      }
    }
    assertTrue(right >= 27, right + " of 30 symptoms right");
  }

  @Test
  void exportedWeightsGiveLiblinearsOwnScores() {
    List<Example> ex = examples(10, 3L);
    Vectorizer vec = Vectorizer.fit(ex.stream().map(Example::raw).toList(), n -> true);
    List<SparseVector> xs = ex.stream().map(e -> vec.vectorize(e.raw())).toList();
    Feature[][] x = Trainer.toLiblinear(xs, vec.dimension());
    List<String> gold = ex.stream().map(e -> e.gold().get(Target.SYMPTOM)).toList();
    DimensionModel dm = Trainer.fitDimension(Target.SYMPTOM, x, gold, vec.dimension());

    Problem p = new Problem();
    p.l = x.length;
    p.n = vec.dimension() + 1;
    p.x = x;
    p.bias = 1.0;
    p.y = gold.stream().mapToDouble(dm.classes()::indexOf).toArray();
    Model m = Linear.train(p, Trainer.parameter(dm.classes().size(), p.y));
    for (int i = 0; i < x.length; i++) {
      double[] dec = new double[m.getNrClass()];
      Linear.predictValues(m, x[i], dec);
      double[] ours = dm.scores(xs.get(i));
      for (int li = 0; li < m.getLabels().length; li++) {
        assertEquals(dec[li], ours[m.getLabels()[li]], 1e-4, "item " + i + " class " + li);
      }
    }
  }

  @Test
  void temperatureFitRecoversAKnownTemperature() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(5);
    List<double[]> scores = new ArrayList<>();
    List<Integer> gold = new ArrayList<>();
    double t = 2.5;
    for (int i = 0; i < 4000; i++) {
      double[] s = {r.nextGaussian() * 4, r.nextGaussian() * 4, r.nextGaussian() * 4};
      double[] p = DimensionModel.softmax(s, t);
      double u = r.nextDouble();
      gold.add(u < p[0] ? 0 : u < p[0] + p[1] ? 1 : 2);
      scores.add(s);
    }
    assertEquals(t, Calibration.fitTemperature(scores, gold), 0.25);
  }

  @Test
  void theSameCorpusGivesTheSameArtefactBytes() throws Exception {
    assertArrayEquals(artefact(), artefact());
  }

  private static byte[] artefact() throws Exception {
    List<Example> ex = examples(12, 11L);
    Trainer.Fitted m = new Trainer(7L, n -> true).train(ex);
    List<String> ids = ex.stream().map(Example::id).toList();
    List<Map<String, String>> labels =
        ex.stream().map(e -> Map.of("symptom", e.gold().get(Target.SYMPTOM))).toList();
    byte[][] vectors =
        ex.stream().map(e -> Neighbours.quantise(e.raw().embedding())).toArray(byte[][]::new);
    LearnedModel model =
        new LearnedModel(
            "test",
            "test-hashing",
            m.vectorizer(),
            m.models(),
            Map.of(Target.KIND, 0.5),
            new Neighbours(ids, labels, vectors),
            null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    model.write(out);
    return out.toByteArray();
  }

  @Test
  void anArtefactReadBackAnswersAsTheModelDid() throws Exception {
    List<Example> ex = examples(12, 13L);
    Trainer.Fitted m = new Trainer(7L, n -> true).train(ex);
    LearnedModel model =
        new LearnedModel(
            "test",
            "test-hashing",
            m.vectorizer(),
            m.models(),
            Map.of(),
            new Neighbours(List.of(), List.of(), new byte[0][]),
            null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    model.write(out);
    LearnedModel back = LearnedModel.read(new java.io.ByteArrayInputStream(out.toByteArray()));
    for (Example e : ex) {
      SparseVector a = m.vectorizer().vectorize(e.raw());
      SparseVector b = back.vectorizer().vectorize(e.raw());
      for (Target t : Target.values()) {
        assertArrayEquals(
            m.models().get(t).probabilities(a), back.models().get(t).probabilities(b), 1e-6);
      }
    }
  }
}
