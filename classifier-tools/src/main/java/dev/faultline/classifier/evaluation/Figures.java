package dev.faultline.classifier.evaluation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One dimension's figures on a set of answers.
 *
 * @param n answers
 * @param macroF1 macro-F1
 * @param low lower end of the 95% bootstrap interval of macro-F1 (NaN without resampling)
 * @param high upper end
 * @param accuracy accuracy of all answers
 * @param top30 accuracy of the 30% most confident answers
 * @param top50 of the 50%
 * @param top70 of the 70%
 * @param ece expected calibration error
 */
public record Figures(
    int n,
    double macroF1,
    double low,
    double high,
    double accuracy,
    double top30,
    double top50,
    double top70,
    double ece) {

  /** Figures of answers against gold. */
  public static Figures of(
      List<String> gold, List<String> pred, List<Double> conf, int resamples, long seed) {
    List<Boolean> ok = new ArrayList<>();
    for (int i = 0; i < gold.size(); i++) {
      ok.add(gold.get(i).equals(pred.get(i)));
    }
    double[] ci =
        resamples > 0
            ? Metrics.macroF1Interval(gold, pred, resamples, seed)
            : new double[] {Double.NaN, Double.NaN};
    return new Figures(
        gold.size(),
        Metrics.macroF1(gold, pred),
        ci[0],
        ci[1],
        Metrics.accuracy(gold, pred),
        Metrics.selectiveAccuracy(ok, conf, 0.3),
        Metrics.selectiveAccuracy(ok, conf, 0.5),
        Metrics.selectiveAccuracy(ok, conf, 0.7),
        Metrics.ece(ok, conf));
  }

  /** Header matching {@link #row}. */
  public static String header() {
    return header(true);
  }

  /** Header matching {@link #row}; the interval column is unnamed when no interval is computed. */
  public static String header(boolean intervals) {
    return String.format(
        Locale.ROOT,
        "%-22s %-9s %5s %8s %-13s %6s %6s %6s %6s %6s",
        "dimension",
        "answers",
        "n",
        "macroF1",
        intervals ? "95% interval" : "",
        "top30",
        "top50",
        "top70",
        "all",
        "ECE");
  }

  /** One table row. */
  public String row(String dimension, String who) {
    return String.format(
        Locale.ROOT,
        "%-22s %-9s %5d %8.3f %-13s %6.3f %6.3f %6.3f %6.3f %6.3f",
        dimension,
        who,
        n,
        macroF1,
        Double.isNaN(low) ? "" : String.format(Locale.ROOT, "[%.2f–%.2f]", low, high),
        top30,
        top50,
        top70,
        accuracy,
        ece);
  }

  /** As JSON (rounded). */
  public void into(ObjectNode o) {
    o.put("n", n);
    o.put("macroF1", r(macroF1));
    if (!Double.isNaN(low)) {
      o.put("macroF1Low", r(low));
      o.put("macroF1High", r(high));
    }
    o.put("accuracy", r(accuracy));
    o.put("top30", r(top30));
    o.put("top50", r(top50));
    o.put("top70", r(top70));
    o.put("ece", r(ece));
  }

  private static double r(double x) {
    return Double.isNaN(x) ? -1 : Math.round(x * 1000) / 1000.0;
  }
}
