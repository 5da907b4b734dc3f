package dev.faultline.classifier.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.SeededEmbedder;
import dev.faultline.classifier.learned.SparseVector;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Bias-corrected temperature scaling ({@link Calibration#fitBcts}) and its use in the trainer. */
class BctsTest {

  private static final double T = 1.5;

  /** Known per-class intercepts the scores lack (centred: BCTS's prior picks the centred gauge). */
  private static final double[] SHIFT = {1.2, 0.0, -1.0, -0.2};

  /** Items whose true probabilities are softmax(s/T + SHIFT); labels drawn from them here. */
  private record Synthetic(List<double[]> scores, List<Integer> gold) {}

  private static Synthetic synthetic(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<double[]> scores = new ArrayList<>();
    List<Integer> gold = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] s = new double[SHIFT.length];
      double[] z = new double[SHIFT.length];
      for (int k = 0; k < s.length; k++) {
        s[k] = r.nextGaussian() * 2.5;
        z[k] = s[k] / T + SHIFT[k];
      }
      double[] p = DimensionModel.softmax(z, 1.0);
      double u = r.nextDouble();
      int y = 0;
      while (y < p.length - 1 && u >= p[y]) {
        u -= p[y];
        y++;
      }
      scores.add(s);
      gold.add(y);
    }
    return new Synthetic(scores, gold);
  }

  /** Total variation between the mean predicted distribution and the gold class frequencies. */
  private static double marginalGap(
      Synthetic d, java.util.function.Function<double[], double[]> p) {
    double[] mean = new double[SHIFT.length];
    double[] freq = new double[SHIFT.length];
    for (int i = 0; i < d.scores().size(); i++) {
      double[] q = p.apply(d.scores().get(i));
      for (int k = 0; k < q.length; k++) {
        mean[k] += q[k] / d.scores().size();
      }
      freq[d.gold().get(i)] += 1.0 / d.scores().size();
    }
    double tv = 0;
    for (int k = 0; k < mean.length; k++) {
      tv += Math.abs(mean[k] - freq[k]) / 2;
    }
    return tv;
  }

  @Test
  void bctsRecoversKnownInterceptsAndTheMixWhereATemperatureAloneDoesNot() {
    Synthetic d = synthetic(6000, 31L);
    double t = Calibration.fitTemperature(d.scores(), d.gold());
    double tempGap = marginalGap(d, s -> DimensionModel.softmax(s, t));
    Calibration.Bcts b = Calibration.fitBcts(d.scores(), d.gold(), SHIFT.length);
    double bctsGap = marginalGap(d, s -> DimensionModel.softmax(b.shift(s), b.temperature()));
    assertTrue(tempGap > 0.05, "a temperature alone leaves the mix off: TV " + tempGap);
    assertTrue(bctsGap < 0.005, "BCTS matches the held-back mix: TV " + bctsGap);
    assertEquals(T, b.temperature(), 0.1, "the temperature");
    assertArrayEquals(SHIFT, b.bias(), 0.12, "the intercepts");
    // and held-out items from the same source: BCTS's likelihood is better than the temperature's
    Synthetic fresh = synthetic(4000, 32L);
    double[] theta = {1 / b.temperature(), b.bias()[0], b.bias()[1], b.bias()[2], b.bias()[3]};
    double bctsNll = Calibration.objective(fresh.scores(), fresh.gold(), theta) - prior(b.bias());
    double tempNll = Calibration.nll(fresh.scores(), fresh.gold(), t);
    assertTrue(bctsNll < tempNll - 50, "held-out log loss " + bctsNll + " vs " + tempNll);
  }

  private static double prior(double[] c) {
    double s = 0;
    for (double v : c) {
      s += v * v / (2 * Calibration.BIAS_PRIOR_SD * Calibration.BIAS_PRIOR_SD);
    }
    return s;
  }

  @Test
  void aClassWithTooFewHeldBackItemsKeepsBiasZero() {
    Synthetic d = synthetic(800, 7L);
    List<Integer> gold = new ArrayList<>();
    int kept = 0;
    for (int y : d.gold()) {
      // class 3 is left with only four items
      gold.add(y == 3 && kept++ >= Calibration.MIN_ITEMS_FOR_BIAS - 1 ? 2 : y);
    }
    Calibration.Bcts b = Calibration.fitBcts(d.scores(), gold, SHIFT.length);
    assertEquals(0.0, b.bias()[3], "a rare class's bias stays 0");
    assertNotEquals(0.0, b.bias()[0], "a common class gets one");
  }

  @Test
  void theFoldedModelGivesBctsProbabilities() {
    DimensionModel m =
        new DimensionModel(
            List.of("A", "B", "C"),
            new float[][] {{1f, 0f}, {0f, 1f}, {0.5f, 0.5f}},
            new float[] {0.1f, -0.2f, 0.3f},
            1.0,
            0.0);
    Calibration.Bcts c = new Calibration.Bcts(2.0, new double[] {0.7, -0.4, 0.0});
    DimensionModel folded = Trainer.calibrated(m, c, 0.3);
    SparseVector x = new SparseVector(new int[] {0, 1}, new double[] {0.8, -1.1});
    double[] s = m.scores(x);
    double[] want = Calibration.probabilities(s, new double[] {0.5, 0.7, -0.4, 0.0});
    assertArrayEquals(want, folded.probabilities(x), 1e-6);
    assertEquals(0.3, folded.threshold());
  }

  @Test
  void theTrainerCalibratesOnlyTheDimensionsNamedAndChangesNoWeights() {
    // the symptom made noisy (one hang in three labelled a crash), so that calibration has work
    List<TrainingData.Item> items = Corpus.items(40, 3L);
    int hangs = 0;
    for (TrainingData.Item it : items) {
      if ("HANG".equals(it.gold().get(Target.SYMPTOM)) && hangs++ % 3 == 0) {
        it.gold().put(Target.SYMPTOM, "RUNTIME_CRASH");
      }
    }
    List<Example> ex =
        TrainingData.examples(
            items, new Classifier(ClassifierConfig.defaults()), new SeededEmbedder(), n -> {});
    Trainer.Fitted plain = new Trainer(5L, n -> true, t -> false).train(ex);
    Trainer.Fitted fromProperty = new Trainer(5L, n -> true).train(ex);
    Trainer.Fitted bcts = new Trainer(5L, n -> true, t -> t == Target.SYMPTOM).train(ex);
    for (Target t : Target.values()) {
      DimensionModel a = plain.models().get(t);
      DimensionModel b = bcts.models().get(t);
      assertArrayEquals(a.bias(), fromProperty.models().get(t).bias(), "default: temperature");
      for (int k = 0; k < a.weights().length; k++) {
        assertArrayEquals(a.weights()[k], b.weights()[k], t + ": weights unchanged");
      }
      if (t == Target.SYMPTOM) {
        assertTrue(!java.util.Arrays.equals(a.bias(), b.bias()), "symptom's biases corrected");
      } else {
        assertArrayEquals(a.bias(), b.bias(), t + ": untouched");
        assertEquals(a.temperature(), b.temperature(), t + ": untouched");
      }
    }
  }

  @Test
  void theSettingNamesDimensionsOrFails() {
    assertTrue(Trainer.bctsTargets("bcts").test(Target.KIND));
    assertTrue(!Trainer.bctsTargets("temperature").test(Target.KIND));
    String symptom = Target.SYMPTOM.name();
    assertTrue(Trainer.bctsTargets(symptom + ", kind").test(Target.SYMPTOM));
    assertTrue(!Trainer.bctsTargets(symptom).test(Target.KIND));
    assertThrows(IllegalArgumentException.class, () -> Trainer.bctsTargets("symptoms"));
  }
}
