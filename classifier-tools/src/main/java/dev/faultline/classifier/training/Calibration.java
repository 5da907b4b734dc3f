package dev.faultline.classifier.training;

import dev.faultline.classifier.learned.DimensionModel;
import java.util.List;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealMatrix;

/**
 * Calibration of a dimension's class scores on held-back gold: temperature scaling (one softmax
 * temperature that minimises the negative log-likelihood), or bias-corrected temperature scaling
 * (BCTS: softmax(s/T + c), a temperature and one bias per class fitted jointly by the same
 * likelihood; Alexandari, Shrikumar and Kundaje, "Maximum Likelihood with Bias-Corrected
 * Calibration is Hard-To-Beat at Label Shift Adaptation", ICML 2020).
 */
final class Calibration {

  /** The temperatures searched (as for temperature scaling). */
  static final double MIN_T = 0.05;

  static final double MAX_T = 20.0;

  /**
   * BCTS: standard deviation of the Gaussian prior on each class bias (a bias of 1 multiplies the
   * class's odds by e); fixed, not tuned.
   */
  static final double BIAS_PRIOR_SD = 1.0;

  /** BCTS: a class with fewer held-back items than this keeps bias 0 (no wild rare-class bias). */
  static final int MIN_ITEMS_FOR_BIAS = 5;

  /**
   * A BCTS fit: the temperature and one additive bias per class, on the scale of s/T.
   *
   * @param temperature T
   * @param bias c, one per class (0 for classes left fixed)
   */
  record Bcts(double temperature, double[] bias) {

    /** The scores with the biases folded in at this temperature: s + T·c. */
    double[] shift(double[] scores) {
      double[] out = scores.clone();
      for (int k = 0; k < out.length; k++) {
        out[k] += temperature * bias[k];
      }
      return out;
    }
  }

  private Calibration() {}

  /**
   * @param scores per item, the raw class scores
   * @param gold per item, the index of its gold class, or -1 when the model has no such class
   *     (skipped)
   */
  static double fitTemperature(List<double[]> scores, List<Integer> gold) {
    double lo = Math.log(MIN_T);
    double hi = Math.log(MAX_T);
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

  /**
   * BCTS by Newton's method on the convex objective in (1/T, c): the held-back items' negative
   * log-likelihood plus the biases' Gaussian prior, started from the temperature alone, 1/T kept in
   * the temperature's search range. Classes with fewer than {@link #MIN_ITEMS_FOR_BIAS} held-back
   * items keep bias 0.
   */
  static Bcts fitBcts(List<double[]> scores, List<Integer> gold, int classes) {
    int[] count = new int[classes];
    for (int g : gold) {
      if (g >= 0) {
        count[g]++;
      }
    }
    boolean[] free = new boolean[classes];
    for (int k = 0; k < classes; k++) {
      free[k] = count[k] >= MIN_ITEMS_FOR_BIAS;
    }
    double[] theta = new double[classes + 1]; // theta[0] = 1/T, theta[1+k] = c_k
    theta[0] = 1 / fitTemperature(scores, gold);
    double f = objective(scores, gold, theta);
    for (int iter = 0; iter < 100; iter++) {
      Newton step = newtonStep(scores, gold, theta, free);
      double decrement = 0;
      for (int j = 0; j < theta.length; j++) {
        decrement += step.gradient[j] * step.direction[j];
      }
      if (-decrement < 1e-10 * Math.max(1, Math.abs(f))) {
        break;
      }
      double size = 1;
      double[] next = null;
      double fn = Double.POSITIVE_INFINITY;
      for (int h = 0; h < 40; h++, size /= 2) {
        next = theta.clone();
        for (int j = 0; j < theta.length; j++) {
          next[j] += size * step.direction[j];
        }
        next[0] = Math.min(1 / MIN_T, Math.max(1 / MAX_T, next[0]));
        fn = objective(scores, gold, next);
        if (fn <= f + 1e-4 * size * decrement) {
          break;
        }
      }
      if (!(fn < f)) {
        break;
      }
      theta = next;
      f = fn;
    }
    double[] c = new double[classes];
    System.arraycopy(theta, 1, c, 0, classes);
    return new Bcts(1 / theta[0], c);
  }

  /** The objective at theta: negative log-likelihood plus the biases' prior. */
  static double objective(List<double[]> scores, List<Integer> gold, double[] theta) {
    double s = 0;
    for (int i = 0; i < scores.size(); i++) {
      int g = gold.get(i);
      if (g >= 0) {
        s -= Math.log(Math.max(1e-300, probabilities(scores.get(i), theta)[g]));
      }
    }
    for (int k = 1; k < theta.length; k++) {
      s += theta[k] * theta[k] / (2 * BIAS_PRIOR_SD * BIAS_PRIOR_SD);
    }
    return s;
  }

  /** softmax(a·s + c) with theta = (a, c). */
  static double[] probabilities(double[] s, double[] theta) {
    double[] z = new double[s.length];
    for (int k = 0; k < s.length; k++) {
      z[k] = theta[0] * s[k] + theta[k + 1];
    }
    return DimensionModel.softmax(z, 1.0);
  }

  /** A Newton step: the gradient and the direction −H⁻¹g (fixed biases: zero rows). */
  record Newton(double[] gradient, double[] direction) {}

  static Newton newtonStep(
      List<double[]> scores, List<Integer> gold, double[] theta, boolean[] free) {
    int n = theta.length;
    double[] g = new double[n];
    double[][] h = new double[n][n];
    for (int i = 0; i < scores.size(); i++) {
      int y = gold.get(i);
      if (y < 0) {
        continue;
      }
      accumulate(scores.get(i), y, theta, g, h);
    }
    double prec = 1 / (BIAS_PRIOR_SD * BIAS_PRIOR_SD);
    for (int k = 1; k < n; k++) {
      g[k] += theta[k] * prec;
      h[k][k] += prec;
    }
    // 1/T at a bound of the search, pushed outward by the gradient, stays there (separable data)
    boolean atLow = theta[0] <= 1 / MAX_T + 1e-12 && g[0] > 0;
    boolean atHigh = theta[0] >= 1 / MIN_T - 1e-12 && g[0] < 0;
    for (int k = 0; k < n; k++) {
      boolean fixed = k == 0 ? atLow || atHigh : !free[k - 1];
      if (fixed) {
        g[k] = 0;
        for (int j = 0; j < n; j++) {
          h[k][j] = 0;
          h[j][k] = 0;
        }
        h[k][k] = 1;
      }
    }
    return new Newton(g, solve(h, negate(g)));
  }

  /** One item's gradient and Hessian of −log p_y at theta, added into g and h. */
  private static void accumulate(double[] s, int y, double[] theta, double[] g, double[][] h) {
    double[] p = probabilities(s, theta);
    double mean = 0;
    for (int k = 0; k < s.length; k++) {
      mean += p[k] * s[k];
    }
    g[0] += mean - s[y];
    double var = 0;
    for (int k = 0; k < s.length; k++) {
      var += p[k] * (s[k] - mean) * (s[k] - mean);
      g[k + 1] += p[k] - (k == y ? 1 : 0);
      double cross = p[k] * (s[k] - mean);
      h[0][k + 1] += cross;
      h[k + 1][0] += cross;
      for (int l = 0; l < s.length; l++) {
        h[k + 1][l + 1] += (k == l ? p[k] : 0) - p[k] * p[l];
      }
    }
    h[0][0] += var;
  }

  private static double[] negate(double[] v) {
    double[] out = new double[v.length];
    for (int k = 0; k < v.length; k++) {
      out[k] = -v[k];
    }
    return out;
  }

  /**
   * Solves h·x = b (h symmetric positive definite here: the prior makes the bias block definite) by
   * commons-math's LU decomposition with partial pivoting; a tiny ridge guards a flat temperature.
   */
  static double[] solve(double[][] h, double[] b) {
    RealMatrix a = new Array2DRowRealMatrix(h);
    for (int i = 0; i < b.length; i++) {
      a.addToEntry(i, i, 1e-9);
    }
    return new LUDecomposition(a, 0).getSolver().solve(new ArrayRealVector(b, false)).toArray();
  }
}
