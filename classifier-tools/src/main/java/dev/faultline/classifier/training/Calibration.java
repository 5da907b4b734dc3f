package dev.faultline.classifier.training;

import dev.faultline.classifier.learned.DimensionModel;
import java.util.List;

/**
 * Temperature scaling: the one softmax temperature that minimises the negative log-likelihood of
 * held-back gold.
 */
final class Calibration {
  private Calibration() {}

  /**
   * @param scores per item, the raw class scores
   * @param gold per item, the index of its gold class, or -1 when the model has no such class
   *     (skipped)
   */
  static double fitTemperature(List<double[]> scores, List<Integer> gold) {
    double lo = Math.log(0.05);
    double hi = Math.log(20.0);
    double phi = (Math.sqrt(5) - 1) / 2;
    double a = hi - phi * (hi - lo);
    double b = lo + phi * (hi - lo);
    double fa = nll(scores, gold, Math.exp(a));
    double fb = nll(scores, gold, Math.exp(b));
    for (int i = 0; i < 60; i++) {
      if (fa < fb) {
        hi = b;
        b = a;
        fb = fa;
        a = hi - phi * (hi - lo);
        fa = nll(scores, gold, Math.exp(a));
      } else {
        lo = a;
        a = b;
        fa = fb;
        b = lo + phi * (hi - lo);
        fb = nll(scores, gold, Math.exp(b));
      }
    }
    return Math.exp((lo + hi) / 2);
  }

  static double nll(List<double[]> scores, List<Integer> gold, double temperature) {
    double s = 0;
    for (int i = 0; i < scores.size(); i++) {
      int g = gold.get(i);
      if (g < 0) {
        continue;
      }
      double[] p = DimensionModel.softmax(scores.get(i), temperature);
      s -= Math.log(Math.max(1e-12, p[g]));
    }
    return s;
  }
}
