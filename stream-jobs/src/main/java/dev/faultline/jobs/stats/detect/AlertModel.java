package dev.faultline.jobs.stats.detect;

import dev.faultline.jobs.stats.domain.Categories;
import dev.faultline.jobs.stats.domain.Dimension;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The statistical model behind emerging-category alerts, for one framework at one window end. Pure: counts in,
 * findings out.
 *
 * <p><b>Baseline.</b> The framework's own trailing history: the {@code baselineDays} before the window (less while
 * the framework's history is shorter; no test before {@code warmupDays}). A category's share of the framework's
 * issues in a dimension is shrunk toward an even share of the taxonomy's categories, {@code (n + k/(K+1)) / (N +
 * k)} with {@code k = priorWeight} pseudo-issues, so a sparse stream's one-off category is not taken as a rate of
 * zero. The expected count in the window is the larger of (a) the framework's baseline rate × window × share and (b)
 * the window's issues of the dimension's other categories × share / (1 − share). (b) follows the framework's release
 * cycles: when every category is busier, each expects more.
 *
 * <p><b>Test.</b> One-sided negative-binomial tail P(X ≥ count) with the over-dispersion of the framework's weekly
 * issue totals in the baseline (method of moments, 0 = Poisson, capped at {@code maxDispersion}).
 *
 * <p><b>Multiplicity.</b> Every informative category with issues in the baseline or the window, every category ×
 * stage pair that appears in the window without having appeared in the baseline (NEW_COMBINATION, expected from the
 * independence of its two shares, shrunk alike) and every release comparison ending here are one family;
 * Benjamini-Hochberg adjusted p-values at most {@code fdr} alert, with a minimum support: at least {@code minCount}
 * issues and {@code minRatio} × expected.
 *
 * <p><b>Releases.</b> For a release first seen on day r, at the end of day {@code r + releaseAfterDays} the weeks
 * after are compared with the {@code releaseBeforeDays} before, with the same shrinkage and test.
 */
public record AlertModel(
    int windowDays,
    int baselineDays,
    int warmupDays,
    double priorWeight,
    double fdr,
    long minCount,
    double minRatio,
    double maxDispersion,
    int releaseBeforeDays,
    int releaseAfterDays)
    implements Serializable {

  public static final String SURGE = "SURGE";
  public static final String NEW_COMBINATION = "NEW_COMBINATION";
  private static final double TINY = 1e-6;

  public AlertModel {
    if (windowDays < 1 || baselineDays < windowDays || warmupDays < windowDays) {
      throw new IllegalArgumentException("alert window (" + windowDays + " days) must be at least a day, and the baseline (" + baselineDays
          + ") and warm-up (" + warmupDays + ") at least a window: e.g. --alert-window P7D --alert-baseline P182D --alert-warmup P56D");
    }
    if (!(fdr > 0 && fdr < 1)) {
      throw new IllegalArgumentException("alert false-discovery rate must be in (0, 1), e.g. 0.01; was " + fdr);
    }
    if (minCount < 1 || !(minRatio >= 1)) {
      throw new IllegalArgumentException("alert minimum support must be at least 1 issue and 1 × expected; was " + minCount + " and " + minRatio);
    }
    if (!(priorWeight > 0) || !(maxDispersion >= 0)) {
      throw new IllegalArgumentException("prior weight must be positive and maximum dispersion 0 or more; was " + priorWeight + " and " + maxDispersion);
    }
    if (releaseBeforeDays < windowDays || releaseAfterDays < windowDays) {
      throw new IllegalArgumentException("release comparison periods must be at least a window; were " + releaseBeforeDays + " and " + releaseAfterDays);
    }
  }

  /** The defaults documented in the README. */
  public static AlertModel defaults() {
    return new AlertModel(7, 182, 56, 10, 0.01, 3, 2.0, 1.0, 56, 28);
  }

  /** Days of history before an end whose counts this model reads: window, baseline and release periods. */
  public int lookbackDays() {
    return Math.max(windowDays + baselineDays, releaseBeforeDays + releaseAfterDays);
  }

  /** A release: the version and the day it was first seen. */
  public record ReleaseMark(String version, long day) implements Serializable {}

  /**
   * Tests the family of the window ending at {@code endDay} (exclusive).
   *
   * @param table the framework's daily counts, at least {@link #lookbackDays()} before {@code endDay}
   * @param firstDay the framework's first day with data
   * @param releases releases whose comparison ends at {@code endDay} ({@code day + releaseAfterDays == endDay})
   * @return every hypothesis tested, alerting or not; empty during the warm-up
   */
  public List<Finding> scan(DailyTable table, long endDay, long firstDay, List<ReleaseMark> releases) {
    long recentFrom = endDay - windowDays;
    long history = Math.min(baselineDays, recentFrom - firstDay);
    if (recentFrom - firstDay < warmupDays - windowDays || history < windowDays) {
      return List.of();
    }
    long baseFrom = recentFrom - history;
    Map<String, List<String>> byDimension = new HashMap<>();
    List<String> pairs = new ArrayList<>();
    for (String key : new TreeSet<>(table.keys())) {
      if (AlertKeys.isPair(key)) {
        pairs.add(key);
      } else {
        byDimension.computeIfAbsent(AlertKeys.split(key)[0], d -> new ArrayList<>()).add(key);
      }
    }
    double theta = dispersion(table, byDimension, baseFrom, recentFrom);
    Map<String, double[]> shares = new HashMap<>(); // key -> {share, dimension baseline total, dimension window total}
    List<Finding> family = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byDimension.entrySet()) {
      Dimension dim = Dimension.valueOf(e.getKey());
      long n = 0;
      long t = 0;
      for (String key : e.getValue()) {
        n += table.sum(key, baseFrom, recentFrom);
        t += table.sum(key, recentFrom, endDay);
      }
      double prior = 1.0 / (dim.informativeCategories() + 1);
      for (String key : e.getValue()) {
        long nc = table.sum(key, baseFrom, recentFrom);
        long x = table.sum(key, recentFrom, endDay);
        double share = (nc + priorWeight * prior) / (n + priorWeight);
        shares.put(key, new double[] {share, n, t});
        if (!Categories.informative(AlertKeys.split(key)[1]) || nc + x == 0) {
          continue;
        }
        family.add(test(SURGE, key, null, recentFrom, endDay, x, nc, baseFrom, history, share, n, t, theta));
      }
    }
    double stagePrior = 1.0 / (Dimension.STAGE.informativeCategories() + 1);
    for (String key : pairs) {
      String[] p = AlertKeys.split(key);
      long x = table.sum(key, recentFrom, endDay);
      long before = table.sum(key, baseFrom, recentFrom);
      if (x == 0 || before > 0 || !Categories.informative(p[1]) || !Categories.informative(p[2])) {
        continue;
      }
      double[] category = shares.get(AlertKeys.category(p[0], p[1]));
      double[] stage = shares.get(AlertKeys.category(Dimension.STAGE.name(), p[2]));
      if (category == null) {
        continue;
      }
      double stageShare = stage == null ? stagePrior * priorWeight / (category[1] + priorWeight) : stage[0];
      double share = priorWeight * category[0] * stageShare / (category[1] + priorWeight);
      family.add(test(NEW_COMBINATION, key, null, recentFrom, endDay, x, 0, baseFrom, history, share, (long) category[1], (long) category[2], theta));
    }
    for (ReleaseMark r : releases) {
      long after = r.day() + releaseAfterDays;
      if (after != endDay) {
        continue;
      }
      long before = r.day() - releaseBeforeDays;
      if (before < firstDay) {
        continue; // not enough history before the release
      }
      for (Map.Entry<String, List<String>> e : byDimension.entrySet()) {
        Dimension dim = Dimension.valueOf(e.getKey());
        long n = 0;
        long t = 0;
        for (String key : e.getValue()) {
          n += table.sum(key, before, r.day());
          t += table.sum(key, r.day(), after);
        }
        double prior = 1.0 / (dim.informativeCategories() + 1);
        for (String key : e.getValue()) {
          long nc = table.sum(key, before, r.day());
          long x = table.sum(key, r.day(), after);
          if (!Categories.informative(AlertKeys.split(key)[1]) || x == 0) {
            continue;
          }
          double share = (nc + priorWeight * prior) / (n + priorWeight);
          family.add(test(SURGE, key, r.version(), r.day(), after, x, nc, before, releaseBeforeDays, share, n, t, theta));
        }
      }
    }
    double[] p = new double[family.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = family.get(i).pValue();
    }
    double[] adjusted = BenjaminiHochberg.adjust(p);
    List<Finding> out = new ArrayList<>(family.size());
    for (int i = 0; i < p.length; i++) {
      Finding f = family.get(i);
      boolean passes = adjusted[i] <= fdr && f.count() >= minCount && f.count() >= minRatio * f.expected();
      out.add(f.adjusted(adjusted[i], p.length, passes));
    }
    return out;
  }

  /**
   * @param n issues of the dimension in the baseline period
   * @param t issues of the dimension in the window
   */
  private Finding test(String kind, String key, String release, long from, long to, long x, long nc, long baseFrom, long baseDays,
      double share, long n, long t, double theta) {
    double window = to - from;
    double rate = window * n / (double) baseDays * share;
    double volume = Math.max(0, t - x) * share / Math.max(TINY, 1 - share);
    double expected = Math.max(TINY, Math.max(rate, volume));
    double p = CountTails.atLeast(x, expected, theta);
    return new Finding(kind, key, release, from, to, x, nc, baseFrom, baseDays, expected, rate, volume, theta, p, p, 0, false);
  }

  /**
   * Over-dispersion of the framework's weekly issue totals in the baseline: (variance − mean) / mean², at least 0, at
   * most {@code maxDispersion}; 0 with fewer than 4 whole weeks. Any dimension's total counts every issue once; the
   * largest is taken.
   */
  private double dispersion(DailyTable table, Map<String, List<String>> byDimension, long baseFrom, long recentFrom) {
    int weeks = (int) ((recentFrom - baseFrom) / windowDays);
    if (weeks < 4) {
      return 0;
    }
    double best = 0;
    double bestTotal = -1;
    for (List<String> keys : byDimension.values()) {
      double[] y = new double[weeks];
      double total = 0;
      for (int w = 0; w < weeks; w++) {
        long from = recentFrom - (long) (w + 1) * windowDays;
        for (String key : keys) {
          y[w] += table.sum(key, from, from + windowDays);
        }
        total += y[w];
      }
      if (total <= bestTotal) {
        continue;
      }
      bestTotal = total;
      double mean = total / weeks;
      double var = 0;
      for (double v : y) {
        var += (v - mean) * (v - mean);
      }
      var /= Math.max(1, weeks - 1);
      best = mean > 0 ? Math.max(0, Math.min(maxDispersion, (var - mean) / (mean * mean))) : 0;
    }
    return best;
  }
}
