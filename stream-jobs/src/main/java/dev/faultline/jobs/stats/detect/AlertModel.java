package dev.faultline.jobs.stats.detect;

import dev.faultline.jobs.stats.domain.Categories;
import dev.faultline.jobs.stats.domain.StatDimensions;
import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The statistical model behind emerging-category alerts, for one framework at one window end. Pure:
 * counts in, findings out.
 *
 * <p><b>Windows.</b> Each end is tested with a window of {@code windowDays} (7) and one of {@code
 * longWindowDays} (14, 0 = none), in one family; per category the alerting window with the smaller
 * p-value speaks.
 *
 * <p><b>Baseline.</b> The framework's own trailing history: the {@code baselineDays} before the
 * window (less while the framework's history is shorter; no test before {@code warmupDays}). A
 * category's share of the framework's issues in a dimension is shrunk toward an even share of the
 * taxonomy's categories, {@code (n + k/(K+1)) / (N + k)} with {@code k = priorWeight}
 * pseudo-issues, so a sparse stream's one-off category is not taken as a rate of zero. The expected
 * count in the window is the larger of (a) the framework's baseline rate × window × share and (b)
 * the window's issues of the dimension's other categories × share / (1 − share). (b) follows the
 * framework's release cycles: when every category is busier, each expects more.
 *
 * <p><b>Test.</b> One-sided negative-binomial tail P(X ≥ count). Its dispersion has two parts: the
 * over-dispersion the framework's category counts showed in the baseline beyond what its weekly
 * volume explains (method of moments, capped at {@code maxDispersion}: a framework whose changes
 * come in same-category series expects more of them), and {@code 1 / (n + prior pseudo-issues)},
 * the uncertainty of a rate estimated from n issues (the Poisson-gamma predictive distribution): a
 * category seen twice in the baseline is not held to a rate known exactly. This is what keeps a
 * sparse stream's first occurrences from looking unlikely.
 *
 * <p><b>Multiplicity.</b> Every informative category with issues in the baseline or the window,
 * every category × stage pair that appears in the window without having appeared in the baseline
 * (NEW_COMBINATION: absent from N baseline issues, its chance per issue is taken as 1/(N + 2),
 * Laplace's rule of succession, at most the rarer of its two shares) and every release comparison
 * ending here are one family; Benjamini-Hochberg adjusted p-values at most {@code fdr} alert, with
 * a minimum support: at least {@code minCount} issues and {@code minRatio} × expected.
 *
 * <p><b>Releases.</b> For a release first seen on day r, at the end of day {@code r +
 * releaseAfterDays} the weeks after are compared with the {@code releaseBeforeDays} before, with
 * the same shrinkage and test.
 */
public record AlertModel(
    int windowDays,
    int longWindowDays,
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

  private static final double TINY = 1e-6;

  public AlertModel {
    if (longWindowDays != 0 && longWindowDays <= windowDays) {
      throw new IllegalArgumentException(
          "the long alert window ("
              + longWindowDays
              + " days) must be longer than the window ("
              + windowDays
              + "), or 0 for none: e.g. --alert-long-window P14D");
    }
    if (windowDays < 1 || baselineDays < windowDays || warmupDays < windowDays) {
      throw new IllegalArgumentException(
          "alert window ("
              + windowDays
              + " days) must be at least a day, and the baseline ("
              + baselineDays
              + ") and warm-up ("
              + warmupDays
              + ") at least a window: e.g. --alert-window P7D --alert-baseline P182D --alert-warmup P56D");
    }
    if (!(fdr > 0 && fdr < 1)) {
      throw new IllegalArgumentException(
          "alert false-discovery rate must be in (0, 1), e.g. 0.01; was " + fdr);
    }
    if (minCount < 1 || !(minRatio >= 1)) {
      throw new IllegalArgumentException(
          "alert minimum support must be at least 1 issue and 1 × expected; was "
              + minCount
              + " and "
              + minRatio);
    }
    if (!(priorWeight > 0) || !(maxDispersion >= 0)) {
      throw new IllegalArgumentException(
          "prior weight must be positive and maximum dispersion 0 or more; was "
              + priorWeight
              + " and "
              + maxDispersion);
    }
    if (releaseBeforeDays < windowDays || releaseAfterDays < windowDays) {
      throw new IllegalArgumentException(
          "release comparison periods must be at least a window; were "
              + releaseBeforeDays
              + " and "
              + releaseAfterDays);
    }
  }

  /** The defaults documented in the README. */
  public static AlertModel defaults() {
    return new AlertModel(7, 14, 182, 56, 10, 0.005, 3, 2.0, 1.0, 56, 28);
  }

  /**
   * Days of history before an end whose counts this model reads: window, baseline and release
   * periods.
   */
  public int lookbackDays() {
    return Math.max(
        Math.max(windowDays, longWindowDays) + baselineDays, releaseBeforeDays + releaseAfterDays);
  }

  /** A release: the version and the day it was first seen. */
  public record ReleaseMark(String version, long day) implements Serializable {}

  /**
   * Tests the family of the window ending at {@code endDay} (exclusive).
   *
   * @param table the framework's daily counts, at least {@link #lookbackDays()} before {@code
   *     endDay}
   * @param firstDay the framework's first day with data
   * @param releases releases whose comparison ends at {@code endDay} ({@code day + releaseAfterDays
   *     == endDay})
   * @return every hypothesis tested, alerting or not; empty during the warm-up
   */
  public List<Finding> scan(
      DailyTable table, long endDay, long firstDay, List<ReleaseMark> releases) {
    Map<String, List<String>> byDimension = new HashMap<>();
    List<String> pairs = new ArrayList<>();
    for (String key : new TreeSet<>(table.keys())) {
      if (AlertKeys.isPair(key)) {
        pairs.add(key);
      } else {
        byDimension.computeIfAbsent(AlertKeys.split(key)[0], d -> new ArrayList<>()).add(key);
      }
    }
    List<Finding> family = new ArrayList<>();
    double theta = 0;
    for (int w :
        longWindowDays > 0 ? new int[] {windowDays, longWindowDays} : new int[] {windowDays}) {
      long recentFrom = endDay - w;
      long history = Math.min(baselineDays, recentFrom - firstDay);
      if (endDay - firstDay < warmupDays || history < windowDays) {
        continue;
      }
      long baseFrom = recentFrom - history;
      if (w == windowDays) {
        theta = dispersion(table, byDimension, baseFrom, recentFrom);
      }
      family.addAll(windowFamily(table, byDimension, pairs, endDay, w, baseFrom, history, theta));
    }
    if (family.isEmpty()) {
      return List.of(); // the warm-up
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
        double prior = 1.0 / (StatDimensions.informativeCategories(dim) + 1);
        for (String key : e.getValue()) {
          long nc = table.sum(key, before, r.day());
          long x = table.sum(key, r.day(), after);
          if (!Categories.informative(AlertKeys.split(key)[1]) || x == 0) {
            continue;
          }
          double share = (nc + priorWeight * prior) / (n + priorWeight);
          family.add(
              test(
                  AlertKind.SURGE,
                  key,
                  r.version(),
                  r.day(),
                  after,
                  x,
                  nc,
                  before,
                  releaseBeforeDays,
                  share,
                  n,
                  t,
                  theta + 1 / (nc + priorWeight * prior)));
        }
      }
    }
    double[] p = new double[family.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = family.get(i).pValue();
    }
    double[] adjusted = BenjaminiHochberg.adjust(p);
    // One finding per key (and per release): the alerting window with the smallest p-value, else
    // the smallest p-value.
    Map<String, Finding> best = new TreeMap<>();
    for (int i = 0; i < p.length; i++) {
      Finding f = family.get(i);
      boolean passes =
          adjusted[i] <= fdr && f.count() >= minCount && f.count() >= minRatio * f.expected();
      Finding a = f.adjusted(adjusted[i], p.length, passes);
      String k = a.key() + (a.release() == null ? "" : "@" + a.release());
      Finding other = best.get(k);
      if (other == null
          || (a.alert() && !other.alert())
          || (a.alert() == other.alert() && a.pValue() < other.pValue())) {
        best.put(k, a);
      }
    }
    return new ArrayList<>(best.values());
  }

  /**
   * The tests of one window length ending at {@code endDay}: every category with data, and the new
   * pairs.
   */
  private List<Finding> windowFamily(
      DailyTable table,
      Map<String, List<String>> byDimension,
      List<String> pairs,
      long endDay,
      int w,
      long baseFrom,
      long history,
      double theta) {
    long recentFrom = endDay - w;
    Map<String, double[]> shares =
        new HashMap<>(); // key -> {share, dimension baseline total, dimension window total}
    List<Finding> family = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byDimension.entrySet()) {
      Dimension dim = Dimension.valueOf(e.getKey());
      long n = 0;
      long t = 0;
      for (String key : e.getValue()) {
        n += table.sum(key, baseFrom, recentFrom);
        t += table.sum(key, recentFrom, endDay);
      }
      double prior = 1.0 / (StatDimensions.informativeCategories(dim) + 1);
      for (String key : e.getValue()) {
        long nc = table.sum(key, baseFrom, recentFrom);
        long x = table.sum(key, recentFrom, endDay);
        double share = (nc + priorWeight * prior) / (n + priorWeight);
        shares.put(key, new double[] {share, n, t});
        if (!Categories.informative(AlertKeys.split(key)[1]) || nc + x == 0) {
          continue;
        }
        family.add(
            test(
                AlertKind.SURGE,
                key,
                null,
                recentFrom,
                endDay,
                x,
                nc,
                baseFrom,
                history,
                share,
                n,
                t,
                theta + 1 / (nc + priorWeight * prior)));
      }
    }
    double stagePrior = 1.0 / (StatDimensions.informativeCategories(Dimension.STAGE) + 1);
    for (String key : pairs) {
      String[] p = AlertKeys.split(key);
      long x = table.sum(key, recentFrom, endDay);
      long before = table.sum(key, baseFrom, recentFrom);
      if (x == 0 || before > 0 || !Categories.informative(p[1]) || !Categories.informative(p[2])) {
        continue;
      }
      double[] category = shares.get(AlertKeys.category(Dimension.valueOf(p[0]), p[1]));
      double[] stage = shares.get(AlertKeys.category(Dimension.STAGE, p[2]));
      if (category == null) {
        continue;
      }
      double stageShare =
          stage == null ? stagePrior * priorWeight / (category[1] + priorWeight) : stage[0];
      // Absent from the N issues of the baseline: Laplace's rule of succession puts the chance of
      // the pair at 1/(N + 2)
      // per issue (at most the rarer of its two shares), with the uncertainty of one
      // pseudo-observation. A sparse
      // stream's N is small, so a first occurrence there is not unlikely at all.
      double share = Math.min(1.0 / (category[1] + 2), Math.min(category[0], stageShare));
      family.add(
          test(
              AlertKind.NEW_COMBINATION,
              key,
              null,
              recentFrom,
              endDay,
              x,
              0,
              baseFrom,
              history,
              share,
              (long) category[1],
              (long) category[2],
              theta + 1));
    }
    return family;
  }

  /**
   * @param n issues of the dimension in the baseline period
   * @param t issues of the dimension in the window
   */
  private Finding test(
      AlertKind kind,
      String key,
      String release,
      long from,
      long to,
      long x,
      long nc,
      long baseFrom,
      long baseDays,
      double share,
      long n,
      long t,
      double theta) {
    double window = to - from;
    double rate = window * n / (double) baseDays * share;
    double volume = Math.max(0, t - x) * share / Math.max(TINY, 1 - share);
    double expected = Math.max(TINY, Math.max(rate, volume));
    double p = CountTails.atLeast(x, expected, theta);
    return new Finding(
        kind, key, release, from, to, x, nc, baseFrom, baseDays, expected, rate, volume, theta, p,
        p, 0, false);
  }

  /**
   * Over-dispersion of the framework's category counts beyond what its weekly volume explains: in
   * each whole window of the baseline, a category's expected count is the window's issues in its
   * dimension × the category's baseline share; method of moments for a negative binomial around
   * those means, {@code θ = Σ((y − μ)² − μ) / Σ μ²}, pooled over the informative categories of
   * every dimension, at least 0, at most {@code maxDispersion}; 0 with fewer than 4 whole windows.
   * (The volume itself may be as bursty as release cycles make it: the expected count follows it.)
   */
  private double dispersion(
      DailyTable table, Map<String, List<String>> byDimension, long baseFrom, long recentFrom) {
    int weeks = (int) ((recentFrom - baseFrom) / windowDays);
    if (weeks < 4) {
      return 0;
    }
    double num = 0;
    double den = 0;
    for (List<String> keys : byDimension.values()) {
      long[] totals = new long[weeks];
      long all = 0;
      for (int w = 0; w < weeks; w++) {
        long from = recentFrom - (long) (w + 1) * windowDays;
        for (String key : keys) {
          totals[w] += table.sum(key, from, from + windowDays);
        }
        all += totals[w];
      }
      if (all == 0) {
        continue;
      }
      for (String key : keys) {
        if (!Categories.informative(AlertKeys.split(key)[1])) {
          continue;
        }
        double share =
            table.sum(key, recentFrom - (long) weeks * windowDays, recentFrom) / (double) all;
        if (share == 0) {
          continue;
        }
        for (int w = 0; w < weeks; w++) {
          long from = recentFrom - (long) (w + 1) * windowDays;
          double mu = totals[w] * share;
          double y = table.sum(key, from, from + windowDays);
          num += (y - mu) * (y - mu) - mu;
          den += mu * mu;
        }
      }
    }
    return den > 0 ? Math.max(0, Math.min(maxDispersion, num / den)) : 0;
  }
}
