package dev.faultline.classifier.evaluation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The figures the learned layer is judged by: macro-F1 (over classes seen in gold or answers),
 * accuracy of the most confident share of answers, expected calibration error, the confidence at
 * which precision reaches a target, and bootstrap intervals.
 */
public final class Metrics {
  private Metrics() {}

  /** Macro-averaged F1 over every class seen in gold or predictions. */
  public static double macroF1(List<String> gold, List<String> pred) {
    TreeSet<String> classes = new TreeSet<>(gold);
    classes.addAll(pred);
    if (classes.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (String c : classes) {
      int tp = 0;
      int fp = 0;
      int fn = 0;
      for (int i = 0; i < gold.size(); i++) {
        boolean g = gold.get(i).equals(c);
        boolean p = pred.get(i).equals(c);
        tp += g && p ? 1 : 0;
        fp += !g && p ? 1 : 0;
        fn += g && !p ? 1 : 0;
      }
      sum += tp == 0 ? 0 : 2.0 * tp / (2.0 * tp + fp + fn);
    }
    return sum / classes.size();
  }

  /** Share of equal pairs. */
  public static double accuracy(List<String> gold, List<String> pred) {
    int ok = 0;
    for (int i = 0; i < gold.size(); i++) {
      ok += gold.get(i).equals(pred.get(i)) ? 1 : 0;
    }
    return gold.isEmpty() ? Double.NaN : ok / (double) gold.size();
  }

  /**
   * Accuracy of the {@code share} most confident answers (ties broken by position, so the figure is
   * stable).
   */
  public static double selectiveAccuracy(
      List<Boolean> correct, List<Double> confidence, double share) {
    List<Integer> order = byConfidence(confidence);
    int n = (int) Math.ceil(share * order.size());
    if (n == 0) {
      return Double.NaN;
    }
    int ok = 0;
    for (int i = 0; i < n; i++) {
      ok += correct.get(order.get(i)) ? 1 : 0;
    }
    return ok / (double) n;
  }

  /** Expected calibration error over ten equal-width confidence bins. */
  public static double ece(List<Boolean> correct, List<Double> confidence) {
    int bins = 10;
    double[] conf = new double[bins];
    double[] acc = new double[bins];
    int[] n = new int[bins];
    for (int i = 0; i < correct.size(); i++) {
      double c = confidence.get(i);
      int b = Math.min(bins - 1, (int) Math.floor(c * bins));
      conf[b] += c;
      acc[b] += correct.get(i) ? 1 : 0;
      n[b]++;
    }
    double e = 0;
    for (int b = 0; b < bins; b++) {
      if (n[b] > 0) {
        e += Math.abs(acc[b] / n[b] - conf[b] / n[b]) * n[b];
      }
    }
    return correct.isEmpty() ? Double.NaN : e / correct.size();
  }

  /**
   * The lowest confidence c such that the answers with confidence at least c are right at least
   * {@code target} of the time (1.0 when no such level exists).
   */
  public static double precisionLevel(
      List<Boolean> correct, List<Double> confidence, double target) {
    List<Integer> order = byConfidence(confidence);
    int ok = 0;
    double level = 1.0;
    for (int i = 0; i < order.size(); i++) {
      ok += correct.get(order.get(i)) ? 1 : 0;
      boolean lastOfTie =
          i + 1 == order.size() || confidence.get(order.get(i + 1)) < confidence.get(order.get(i));
      if (lastOfTie && ok / (double) (i + 1) >= target) {
        level = confidence.get(order.get(i));
      }
    }
    return level;
  }

  /** A 95% percentile bootstrap interval of macro-F1. */
  public static double[] macroF1Interval(
      List<String> gold, List<String> pred, int resamples, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] f = new double[resamples];
    int n = gold.size();
    for (int s = 0; s < resamples; s++) {
      List<String> g = new ArrayList<>(n);
      List<String> p = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int k = r.nextInt(n);
        g.add(gold.get(k));
        p.add(pred.get(k));
      }
      f[s] = macroF1(g, p);
    }
    java.util.Arrays.sort(f);
    return resamples == 0
        ? new double[] {Double.NaN, Double.NaN}
        : new double[] {
          f[(int) Math.floor(0.025 * (resamples - 1))], f[(int) Math.ceil(0.975 * (resamples - 1))]
        };
  }

  private static List<Integer> byConfidence(List<Double> confidence) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < confidence.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing((Integer i) -> -confidence.get(i)).thenComparing(i -> i));
    return order;
  }
}
