package dev.faultline.classifier.evaluation;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How good one dimension's probability distributions are on labelled items, as a reader of the
 * distributions sees them:
 *
 * <ul>
 *   <li>{@code logLoss}: the mean of −ln p(gold code) (floored at 1e−12): a proper scoring rule;
 *   <li>{@code brier}: the mean of Σ_c (p(c) − [c = gold])²;
 *   <li>{@code ece}: the expected calibration error of the labels' confidence, the distribution's
 *       probability of the label's own code, over ten bins ({@link Metrics#ece});
 *   <li>{@code shareError}: the error of probabilistic classify-and-count over the bug reports
 *       (gold kind BUG): the total variation distance between Σ_i p_i over the known codes
 *       (UNKNOWN, NONE and "cannot tell" left out on both sides), normalised, and the gold share of
 *       the same codes; a symptom's distribution is taken given a bug report (NONE removed and the
 *       rest renormalised), as for the share of bug reports. NaN for the kind (the filter, not a
 *       share) or when no bug report has a known code.
 * </ul>
 *
 * @param items labelled items scored
 */
public record DistributionScores(
    int items, double logLoss, double brier, double ece, double shareError) {

  private static final Set<String> NO_CATEGORY = Set.of("UNKNOWN", "NONE", "null");

  /**
   * @param labelled each item's label code (the confidence is the distribution's probability of it)
   * @param gold each item's gold code
   * @param p each item's distribution over the dimension's codes
   * @param bug whether each item is a bug report by its gold kind
   */
  public static DistributionScores of(
      Dimension d,
      List<String> labelled,
      List<String> gold,
      List<Map<String, Double>> p,
      List<Boolean> bug) {
    int n = gold.size();
    double ll = 0;
    double brier = 0;
    List<Boolean> ok = new ArrayList<>(n);
    List<Double> conf = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Map<String, Double> q = p.get(i);
      ll -= Math.log(Math.max(q.getOrDefault(gold.get(i), 0.0), 1e-12));
      for (String c : d.distributionCodes()) {
        double y = c.equals(gold.get(i)) ? 1 : 0;
        double e = q.getOrDefault(c, 0.0) - y;
        brier += e * e;
      }
      ok.add(labelled.get(i).equals(gold.get(i)));
      conf.add(q.getOrDefault(labelled.get(i), 0.0));
    }
    double share = d == Dimension.KIND ? Double.NaN : shareError(d, gold, p, bug);
    return new DistributionScores(n, ll / n, brier / n, Metrics.ece(ok, conf), share);
  }

  private static double shareError(
      Dimension d, List<String> gold, List<Map<String, Double>> p, List<Boolean> bug) {
    List<String> known =
        d.distributionCodes().stream().filter(c -> !NO_CATEGORY.contains(c)).toList();
    double[] est = new double[known.size()];
    double[] truth = new double[known.size()];
    for (int i = 0; i < gold.size(); i++) {
      if (!bug.get(i)) {
        continue;
      }
      Map<String, Double> q = p.get(i);
      double scale = 1.0;
      if (d == Dimension.SYMPTOM) {
        double rest = 1.0 - q.getOrDefault("NONE", 0.0);
        scale = rest <= 1e-12 ? 0.0 : 1.0 / rest;
      }
      for (int k = 0; k < known.size(); k++) {
        est[k] += q.getOrDefault(known.get(k), 0.0) * scale;
      }
      int g = known.indexOf(gold.get(i));
      if (g >= 0) {
        truth[g]++;
      }
    }
    double se = sum(est);
    double st = sum(truth);
    if (se <= 0 || st <= 0) {
      return Double.NaN;
    }
    double tv = 0;
    for (int k = 0; k < known.size(); k++) {
      tv += Math.abs(est[k] / se - truth[k] / st);
    }
    return tv / 2;
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }
}
