package dev.faultline.classifier.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {

  @Test
  void macroF1AveragesEveryClassSeenInGoldOrAnswers() {
    // A: tp 1, fp 1, fn 1 -> 0.5; B: tp 1, fp 0, fn 1 -> 2/3; C: tp 0 -> 0
    List<String> gold = List.of("A", "A", "B", "B");
    List<String> pred = List.of("A", "C", "B", "A");
    assertEquals((0.5 + 2.0 / 3 + 0) / 3, Metrics.macroF1(gold, pred), 1e-9);
    assertEquals(0.5, Metrics.accuracy(gold, pred), 1e-9);
  }

  @Test
  void selectiveAccuracyTakesTheMostConfidentShare() {
    List<Boolean> ok = List.of(true, false, true, false);
    List<Double> conf = List.of(0.9, 0.8, 0.7, 0.1);
    assertEquals(1.0, Metrics.selectiveAccuracy(ok, conf, 0.25), 1e-9);
    assertEquals(0.5, Metrics.selectiveAccuracy(ok, conf, 0.5), 1e-9);
    assertEquals(2.0 / 3, Metrics.selectiveAccuracy(ok, conf, 0.7), 1e-9);
    assertEquals(0.5, Metrics.selectiveAccuracy(ok, conf, 1.0), 1e-9);
  }

  @Test
  void calibrationErrorIsZeroWhenConfidenceMatchesAccuracyAndLargeWhenNot() {
    List<Boolean> ok = List.of(true, true, true, false, true, false, false, false);
    List<Double> calibrated = List.of(0.75, 0.75, 0.75, 0.75, 0.25, 0.25, 0.25, 0.25);
    assertEquals(0.0, Metrics.ece(ok, calibrated), 1e-9);
    List<Double> overconfident = List.of(0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95);
    assertEquals(0.95 - 0.5, Metrics.ece(ok, overconfident), 1e-9);
  }

  @Test
  void calibrationErrorWeighsEachBinByItsCount() {
    // bin 0.9-1.0: three answers at 0.95, all right (gap 0.05); bin 0.1-0.2: one at 0.15, wrong
    // (gap 0.15). Weighted by count: (3 * 0.05 + 1 * 0.15) / 4 = 0.075; the unweighted mean over
    // the two bins would be (0.05 + 0.15) / 2 = 0.1, over all ten bins 0.02.
    List<Boolean> ok = List.of(true, true, true, false);
    List<Double> conf = List.of(0.95, 0.95, 0.95, 0.15);
    assertEquals(0.075, Metrics.ece(ok, conf), 1e-9);
  }

  @Test
  void precisionLevelIsTheLowestConfidenceWhoseAnswersAboveAreRightOftenEnough() {
    List<Boolean> ok = List.of(true, true, true, true, false, true, false);
    List<Double> conf = List.of(0.99, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5);
    // top 4: 4/4; top 5: 4/5 = 0.8; top 6: 5/6 = 0.83; top 7: 5/7
    assertEquals(0.8, Metrics.precisionLevel(ok, conf, 0.9), 1e-9);
    assertEquals(0.6, Metrics.precisionLevel(ok, conf, 0.8), 1e-9);
    assertEquals(1.0, Metrics.precisionLevel(List.of(false), List.of(0.9), 0.9), 1e-9);
  }

  @Test
  void bootstrapIntervalHoldsTheFigureAndIsReproducible() {
    List<String> gold = List.of("A", "B", "A", "B", "A", "B", "A", "A", "B", "B");
    List<String> pred = List.of("A", "B", "B", "B", "A", "A", "A", "A", "B", "B");
    double f1 = Metrics.macroF1(gold, pred);
    double[] ci = Metrics.macroF1Interval(gold, pred, 500, 7L);
    assertEquals(
        true, ci[0] <= f1 && f1 <= ci[1], "interval " + ci[0] + ".." + ci[1] + " holds " + f1);
    assertEquals(ci[0], Metrics.macroF1Interval(gold, pred, 500, 7L)[0]);
  }
}
