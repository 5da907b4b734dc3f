package dev.faultline.classifier.learned;

import java.util.List;

/**
 * One dimension's trained model: a regularised logistic-regression score per class over the
 * features, turned into probabilities by a softmax at a temperature fitted on held-back items (so
 * that they are calibrated), and the confidence below which the dimension abstains.
 *
 * @param classes the codes, in the order of the weight rows
 * @param weights one row of feature weights per class
 * @param bias one bias per class
 * @param temperature the softmax temperature (calibration)
 * @param threshold answers whose calibrated confidence is below this abstain (0: never)
 */
public record DimensionModel(
    List<String> classes, float[][] weights, float[] bias, double temperature, double threshold) {

  /** The raw class scores of a vector. */
  public double[] scores(SparseVector x) {
    double[] s = new double[classes.size()];
    for (int k = 0; k < s.length; k++) {
      s[k] = x.dot(weights[k]) + bias[k];
    }
    return s;
  }

  /** Calibrated class probabilities of a vector. */
  public double[] probabilities(SparseVector x) {
    return softmax(scores(x), temperature);
  }

  /** Softmax of scores divided by a temperature. */
  public static double[] softmax(double[] scores, double temperature) {
    double max = Double.NEGATIVE_INFINITY;
    for (double s : scores) {
      max = Math.max(max, s / temperature);
    }
    double[] p = new double[scores.length];
    double sum = 0;
    for (int k = 0; k < p.length; k++) {
      p[k] = Math.exp(scores[k] / temperature - max);
      sum += p[k];
    }
    for (int k = 0; k < p.length; k++) {
      p[k] /= sum;
    }
    return p;
  }

  /** The same model with other calibration and threshold. */
  public DimensionModel with(double temperature, double threshold) {
    return new DimensionModel(classes, weights, bias, temperature, threshold);
  }

  /** Probability of a code (0 when the model never saw it). */
  public static double probabilityOf(List<String> classes, double[] p, String code) {
    int i = classes.indexOf(code);
    return i < 0 ? 0.0 : p[i];
  }
}
