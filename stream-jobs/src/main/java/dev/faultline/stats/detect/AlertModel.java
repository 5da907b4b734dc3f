package dev.faultline.stats.detect;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.AlertKeys;
import dev.faultline.stats.keys.Categories;
import dev.faultline.stats.keys.StatDimensions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The statistical model behind emerging-category alerts, for one framework at one day end. Pure:
 * counts in, findings out.
 *
 * <p><b>Baseline.</b> The framework's own trailing history: the {@code baselineDays} before the
 * last {@code runDays} (less while the framework's history is shorter; no test before {@code
 * warmupDays}). A category's share of the framework's issues in its dimension is shrunk toward an
 * even share of the taxonomy's categories, {@code (n + k/(K+1)) / (N + k)} with {@code k =
 * priorWeight} pseudo-issues, so a sparse stream's one-off category is not taken as a rate of zero.
 * Its standard error {@code √(p(1 − p)/(N + k))} enters the thresholds, so a share estimated from
 * few issues is not held to exactly.
 *
 * <p><b>Test.</b> Per category, a one-sided CUSUM over the last {@code runDays} days of the
 * log-likelihood ratio of "the category's rate rose {@code r} ×, the others' did not" against "its
 * share is the baseline's", each day adding {@code x ln(p1/p0) + (t − x) ln((1 − p1)/(1 − p0))} for
 * its {@code x} of the dimension's {@code t} issues. It reads shares, not counts, so a busy release
 * week that raises every category raises none of the statistics; and it accumulates evidence from
 * the day the rise began, whatever the rise's length (the optimal detector of a change in rate,
 * Moustakides 1986). The rises tested are {@link #RISES} (3 ×; each more would take a share of the
 * budget). The statistic's run is reported as the window: its start is the day the accumulation
 * began.
 *
 * <p><b>False alerts.</b> A run as strong as the statistic arises by chance once in {@code ARL}
 * days ({@link CusumRunLength}, the Markov chain of Brook and Evans under the baseline share and
 * the dimension's daily volume). With {@code m} hypotheses tested (every informative category ×
 * every rise, and every new pair), the framework's false alerts a month are at most {@code Σ
 * 30.44/ARL}; each hypothesis gets an equal part of {@code falseAlertsPerMonth} (an alpha spent per
 * framework-month), which sets its threshold. The family-wise p-value reported is {@code 1 − exp(−m
 * · 30.44 / ARL)}. A framework with fewer than {@code fullBudgetIssues} issues a month (in its
 * baseline) spends only its share of the budget, {@code falseAlertsPerMonth × issues a month /
 * fullBudgetIssues}: the false alerts of many small frameworks then add up to at most {@code
 * falseAlertsPerMonth} per {@code fullBudgetIssues} issues a month, instead of {@code
 * falseAlertsPerMonth} each. An alert also needs at least {@code minCount} issues in its run and
 * {@code minRatio} × expected, where expected is what the category's baseline share makes of the
 * run's other issues ({@code p0/(1 − p0)} × others): a rate ratio, which a share cannot show for a
 * frequent category (a 3× rise of a category at 25% takes its share only to 50%).
 *
 * <p><b>First co-occurrences.</b> Every category × stage pair that appears in the last {@code
 * runDays} days without having appeared in the baseline is tested the same way, its share taken
 * from Laplace's rule of succession (absent from N baseline issues: 1/(N + 2), at most the rarer of
 * its two shares), with an uncertainty as large as itself. One first occurrence adds at most ln 3
 * to the statistic, so a first time alerts only when it repeats more than the framework's sparsity
 * explains.
 *
 * <p><b>Releases.</b> For a release first seen on day r, at the end of day {@code r +
 * releaseAfterDays} the weeks after are compared with the {@code releaseBeforeDays} before
 * (negative-binomial tail, the same shrinkage, dispersion as the baseline's weeks showed, capped at
 * {@code maxDispersion}); Bonferroni over the release's categories at half of {@code
 * falseAlertsPerMonth} (with about one release a month, at most that many false release alerts a
 * framework-month).
 *
 * <p><b>Only what someone would act on.</b> Categories of {@code quietDimensions} (phase and kind
 * by default) and a dimension's majority code (more than half of its baseline issues, unless {@code
 * majorityAlerts}) are not tested: their rise says nothing a maintainer can use, and leaving them
 * out of the family leaves the budget to the rest.
 */
public record AlertModel(
    int windowDays,
    int runDays,
    int baselineDays,
    int warmupDays,
    double priorWeight,
    double falseAlertsPerMonth,
    long minCount,
    double minRatio,
    double maxDispersion,
    int releaseBeforeDays,
    int releaseAfterDays,
    Set<Dimension> quietDimensions,
    boolean majorityAlerts,
    double fullBudgetIssues)
    implements Serializable {

  /**
   * Issues a month at which a framework spends the whole {@code falseAlertsPerMonth} by default: a
   * sparser framework spends {@code falseAlertsPerMonth × its issues a month / 20}, so the false
   * alerts of all frameworks together stay within {@code falseAlertsPerMonth} per 20 issues a month
   * (0.2 per 20: one per 100 issues at most), however many small frameworks there are. Chosen on
   * the stationary replay of real issues' tuning seeds (docs/alerts.md): the smallest of 10, 20 and
   * 30 with every planted week found within 7 days as one alert and at most 0.25 background alerts
   * a month.
   */
  public static final double FULL_BUDGET_ISSUES = 20;

  /**
   * Dimensions tested by default but never alerted on: a phase or a kind says where or what an
   * issue is, not what broke, and a rise in its share gives a maintainer nothing to act on.
   */
  public static final Set<Dimension> QUIET_BY_DEFAULT =
      Collections.unmodifiableSet(EnumSet.of(Dimension.PHASE, Dimension.KIND));

  /** The model with the default actionable filter (quiet phase and kind, no majority codes). */
  public AlertModel(
      int windowDays,
      int runDays,
      int baselineDays,
      int warmupDays,
      double priorWeight,
      double falseAlertsPerMonth,
      long minCount,
      double minRatio,
      double maxDispersion,
      int releaseBeforeDays,
      int releaseAfterDays) {
    this(
        windowDays,
        runDays,
        baselineDays,
        warmupDays,
        priorWeight,
        falseAlertsPerMonth,
        minCount,
        minRatio,
        maxDispersion,
        releaseBeforeDays,
        releaseAfterDays,
        QUIET_BY_DEFAULT,
        false,
        FULL_BUDGET_ISSUES);
  }

  /** This model with another actionable filter. */
  public AlertModel actionable(Set<Dimension> quiet, boolean majority) {
    return new AlertModel(
        windowDays,
        runDays,
        baselineDays,
        warmupDays,
        priorWeight,
        falseAlertsPerMonth,
        minCount,
        minRatio,
        maxDispersion,
        releaseBeforeDays,
        releaseAfterDays,
        quiet,
        majority,
        fullBudgetIssues);
  }

  /**
   * This model with another volume for the full budget ({@code issuesPerMonth}; 0: every framework
   * spends the whole {@code falseAlertsPerMonth}, whatever its volume).
   */
  public AlertModel withFullBudgetIssues(double issuesPerMonth) {
    return new AlertModel(
        windowDays,
        runDays,
        baselineDays,
        warmupDays,
        priorWeight,
        falseAlertsPerMonth,
        minCount,
        minRatio,
        maxDispersion,
        releaseBeforeDays,
        releaseAfterDays,
        quietDimensions,
        majorityAlerts,
        issuesPerMonth);
  }

  /**
   * The false alerts a month a framework with {@code issuesPerMonth} spends over its tests: {@code
   * falseAlertsPerMonth × min(1, issuesPerMonth / fullBudgetIssues)}.
   */
  public double budget(double issuesPerMonth) {
    return fullBudgetIssues <= 0
        ? falseAlertsPerMonth
        : falseAlertsPerMonth * Math.min(1, issuesPerMonth / fullBudgetIssues);
  }

  /**
   * Whether a category of a dimension may alert: not in a quiet dimension, and not the dimension's
   * majority code (more than half of its {@code n} baseline issues) unless those are allowed.
   */
  boolean actionable(Dimension dim, long categoryCount, long n) {
    return !quietDimensions.contains(dim) && (majorityAlerts || 2 * categoryCount <= n);
  }

  /** The rises the CUSUMs test: 3 × the baseline rate. */
  public static final double[] RISES = {3.0};

  static final double DAYS_PER_MONTH = 30.44;

  public AlertModel {
    quietDimensions =
        quietDimensions.isEmpty()
            ? Collections.unmodifiableSet(EnumSet.noneOf(Dimension.class))
            : Collections.unmodifiableSet(EnumSet.copyOf(quietDimensions));
    if (windowDays < 1 || runDays < windowDays) {
      throw new IllegalArgumentException(
          "the longest alert run ("
              + runDays
              + " days) must be at least the alert window ("
              + windowDays
              + ", at least a day): e.g. --alert-window P7D --alert-max-run P28D");
    }
    if (baselineDays < windowDays || warmupDays < windowDays) {
      throw new IllegalArgumentException(
          "the baseline ("
              + baselineDays
              + " days) and warm-up ("
              + warmupDays
              + ") must be at least the alert window ("
              + windowDays
              + "): e.g. --alert-baseline P182D --alert-warmup P56D");
    }
    if (!(falseAlertsPerMonth > 0 && falseAlertsPerMonth < 10)) {
      throw new IllegalArgumentException(
          "false alerts per framework-month must be in (0, 10), e.g. 0.1; was "
              + falseAlertsPerMonth);
    }
    if (minCount < 1 || !(minRatio >= 1)) {
      throw new IllegalArgumentException(
          "alert minimum support must be at least 1 issue and 1 × expected; was "
              + minCount
              + " and "
              + minRatio);
    }
    if (!(fullBudgetIssues >= 0)) {
      throw new IllegalArgumentException(
          "issues a month for the full false-alert budget must be 0 (no scaling) or more; was "
              + fullBudgetIssues);
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
    return new AlertModel(7, 28, 182, 56, 10, 0.2, 3, 2.0, 1.0, 56, 28);
  }

  /** Days of history before an end whose counts this model reads: run, baseline, releases. */
  public int lookbackDays() {
    return Math.max(runDays + baselineDays, releaseBeforeDays + releaseAfterDays);
  }

  /** A release: the version and the day it was first seen. */
  public record ReleaseMark(String version, long day) implements Serializable {}

  /**
   * Tests the family of the day ending at {@code endDay} (exclusive).
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
    long runFrom = endDay - runDays;
    long history = Math.min(baselineDays, runFrom - firstDay);
    if (endDay - firstDay < warmupDays || history < windowDays) {
      return List.of(); // the warm-up
    }
    Span span = new Span(table, endDay, runFrom, runFrom - history, history);
    Map<String, List<String>> byDimension = new TreeMap<>();
    List<String> pairs = new ArrayList<>();
    for (String key : new TreeSet<>(table.keys())) {
      if (AlertKeys.isPair(key)) {
        pairs.add(key);
      } else {
        byDimension.computeIfAbsent(AlertKeys.split(key)[0], d -> new ArrayList<>()).add(key);
      }
    }
    double budget = budget(issuesPerMonth(span, byDimension));
    List<Cusum> cusums = new ArrayList<>();
    Map<String, double[]> shares = new HashMap<>(); // key -> {share, dimension baseline total}
    Map<String, long[]> dailyTotals = new HashMap<>(); // dimension -> issues per day of the run
    for (Map.Entry<String, List<String>> e : byDimension.entrySet()) {
      surgeCusums(span, e.getKey(), e.getValue(), cusums, shares, dailyTotals);
    }
    for (String key : pairs) {
      pairCusum(span, key, cusums, shares, dailyTotals);
    }
    List<Finding> family = decide(span, cusums, budget);
    family.addAll(releaseFamily(table, byDimension, endDay, firstDay, releases, budget));
    return bestPerKey(family);
  }

  /**
   * The framework's issues a month in the baseline: the most of any dimension (each issue counts
   * once in every dimension).
   */
  private static double issuesPerMonth(Span s, Map<String, List<String>> byDimension) {
    long most = 0;
    for (List<String> keys : byDimension.values()) {
      long n = 0;
      for (String key : keys) {
        n += s.table().sum(key, s.baseFrom(), s.runFrom());
      }
      most = Math.max(most, n);
    }
    return most * DAYS_PER_MONTH / s.history();
  }

  /** The days one scan reads: the run [runFrom, endDay) and the baseline before it. */
  private record Span(DailyTable table, long endDay, long runFrom, long baseFrom, long history) {}

  /** The CUSUMs of one dimension's categories (and its shares and daily totals, for the pairs). */
  private void surgeCusums(
      Span s,
      String dimension,
      List<String> keys,
      List<Cusum> cusums,
      Map<String, double[]> shares,
      Map<String, long[]> dailyTotals) {
    Dimension dim = Dimension.valueOf(dimension);
    DailyTable table = s.table();
    long n = 0;
    long[] totals = new long[runDays];
    for (String key : keys) {
      n += table.sum(key, s.baseFrom(), s.runFrom());
      for (int d = 0; d < runDays; d++) {
        totals[d] += table.sum(key, s.runFrom() + d, s.runFrom() + d + 1);
      }
    }
    dailyTotals.put(dimension, totals);
    if (n == 0) {
      return;
    }
    double volume = n / (double) s.history();
    double prior = 1.0 / (StatDimensions.informativeCategories(dim) + 1);
    for (String key : keys) {
      long nc = table.sum(key, s.baseFrom(), s.runFrom());
      double share = (nc + priorWeight * prior) / (n + priorWeight);
      shares.put(key, new double[] {share, n});
      if (!Categories.informative(AlertKeys.split(key)[1])
          || table.sum(key, s.runFrom(), s.endDay()) == 0
          || !actionable(dim, nc, n)) {
        continue;
      }
      // the standard error of the share: the thresholds allow for a baseline of few issues
      double se = Math.sqrt(share * (1 - share) / (n + priorWeight));
      for (double rise : RISES) {
        cusums.add(
            cusum(
                AlertKind.SURGE, key, table, s.runFrom(), totals, n, nc, share, se, rise, volume));
      }
    }
  }

  /** The CUSUM of a category × stage pair absent from the baseline, if it is tested. */
  private void pairCusum(
      Span s,
      String key,
      List<Cusum> cusums,
      Map<String, double[]> shares,
      Map<String, long[]> dailyTotals) {
    String[] p = AlertKeys.split(key);
    DailyTable table = s.table();
    if (table.sum(key, s.runFrom(), s.endDay()) == 0
        || table.sum(key, s.baseFrom(), s.runFrom()) > 0
        || !Categories.informative(p[1])
        || !Categories.informative(p[2])
        || quietDimensions.contains(Dimension.valueOf(p[0]))) {
      return;
    }
    double[] category = shares.get(AlertKeys.category(Dimension.valueOf(p[0]), p[1]));
    if (category == null) {
      return;
    }
    double stagePrior = 1.0 / (StatDimensions.informativeCategories(Dimension.STAGE) + 1);
    double[] stage = shares.get(AlertKeys.category(Dimension.STAGE, p[2]));
    double stageShare =
        stage == null ? stagePrior * priorWeight / (category[1] + priorWeight) : stage[0];
    // Absent from the N issues of the baseline: Laplace's rule of succession puts the chance of
    // the pair at 1/(N + 2) per issue, at most the rarer of its two shares. A sparse stream's N
    // is small, so a first occurrence there is not unlikely at all. Its uncertainty is as large
    // as itself (the posterior Beta(1, N + 1)).
    double share = Math.min(1.0 / (category[1] + 2), Math.min(category[0], stageShare));
    for (double rise : RISES) {
      cusums.add(
          cusum(
              AlertKind.NEW_COMBINATION,
              key,
              table,
              s.runFrom(),
              dailyTotals.get(p[0]),
              (long) category[1],
              0,
              share,
              share,
              rise,
              category[1] / (double) s.history()));
    }
  }

  /** Each CUSUM's threshold, run length and family-wise p under the family's budget. */
  private List<Finding> decide(Span s, List<Cusum> cusums, double budget) {
    List<Finding> family = new ArrayList<>();
    int m = cusums.size();
    double perTest = budget / Math.max(1, m);
    double arlNeeded = DAYS_PER_MONTH / perTest;
    for (Cusum c : cusums) {
      double h = CusumRunLength.threshold(c.volume, c.share, c.se, c.rise, arlNeeded);
      double lnArl = CusumRunLength.lnArl(c.volume, c.share, c.se, c.rise, c.statistic);
      double familyRate = m * DAYS_PER_MONTH * Math.exp(-lnArl);
      boolean passes =
          c.statistic >= h
              && c.count >= minCount
              && c.count >= minRatio * c.expected
              && familyRate <= budget;
      double pValue = CountTails.atLeast(c.count, Math.max(1e-9, c.expected), 0);
      family.add(
          new Finding(
              c.kind,
              c.key,
              null,
              c.from,
              s.endDay(),
              c.count,
              c.baselineCount,
              s.baseFrom(),
              s.history(),
              c.expected,
              c.share,
              c.rise,
              c.statistic,
              h,
              Math.exp(lnArl),
              0,
              pValue,
              -Math.expm1(-familyRate),
              m,
              passes,
              c.dimensionBaseline,
              c.dimensionWindow,
              budget));
    }
    return family;
  }

  /**
   * One finding per key (and per release): an alerting one before others, then the smaller
   * family-wise p-value.
   */
  private static List<Finding> bestPerKey(List<Finding> family) {
    Map<String, Finding> best = new TreeMap<>();
    for (Finding f : family) {
      String k = f.key() + (f.release() == null ? "" : "@" + f.release());
      Finding other = best.get(k);
      if (other == null
          || (f.alert() && !other.alert())
          || (f.alert() == other.alert() && f.adjustedPValue() < other.adjustedPValue())) {
        best.put(k, f);
      }
    }
    return new ArrayList<>(best.values());
  }

  /** A CUSUM's state at the day end: its statistic and the run that made it. */
  private record Cusum(
      AlertKind kind,
      String key,
      long from,
      long count,
      long baselineCount,
      double expected,
      double share,
      double se,
      double rise,
      double statistic,
      double volume,
      long dimensionBaseline,
      long dimensionWindow) {}

  /**
   * The CUSUM of one key over the run days, started at zero {@code runDays} ago: the largest sum of
   * the daily log-likelihood ratios over the days up to the end, and where that sum begins.
   */
  private Cusum cusum(
      AlertKind kind,
      String key,
      DailyTable table,
      long runFrom,
      long[] totals,
      long dimensionBaseline,
      long baselineCount,
      double share,
      double se,
      double rise,
      double volume) {
    double sum = 0;
    double best = 0;
    int bestFrom = runDays;
    for (int d = runDays - 1; d >= 0; d--) {
      long x = table.sum(key, runFrom + d, runFrom + d + 1);
      sum += CusumRunLength.increment(x, Math.max(x, totals[d]), share, rise);
      if (sum > best) {
        best = sum;
        bestFrom = d;
      }
    }
    long count = table.sum(key, runFrom + bestFrom, runFrom + runDays);
    long t = 0;
    for (int d = bestFrom; d < runDays; d++) {
      t += totals[d];
    }
    return new Cusum(
        kind,
        key,
        runFrom + bestFrom,
        count,
        baselineCount,
        share / (1 - share) * Math.max(0, t - count),
        share,
        se,
        rise,
        best,
        Math.max(volume, 1e-6),
        dimensionBaseline,
        t);
  }

  /** The release comparisons ending at {@code endDay}, Bonferroni-adjusted per release. */
  private List<Finding> releaseFamily(
      DailyTable table,
      Map<String, List<String>> byDimension,
      long endDay,
      long firstDay,
      List<ReleaseMark> releases,
      double budget) {
    List<Finding> out = new ArrayList<>();
    for (ReleaseMark r : releases) {
      long after = r.day() + releaseAfterDays;
      long before = r.day() - releaseBeforeDays;
      if (after != endDay || before < firstDay) {
        continue; // not this end, or not enough history before the release
      }
      double theta = dispersion(table, byDimension, before, r.day());
      List<Finding> tests = new ArrayList<>();
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
          if (!Categories.informative(AlertKeys.split(key)[1])
              || x == 0
              || !actionable(dim, nc, n)) {
            continue;
          }
          double share = (nc + priorWeight * prior) / (n + priorWeight);
          double rate = releaseAfterDays * n / (double) releaseBeforeDays * share;
          double volume = Math.max(0, t - x) * share / Math.max(1e-6, 1 - share);
          double expected = Math.max(1e-6, Math.max(rate, volume));
          double dispersion = theta + 1 / (nc + priorWeight * prior);
          double p = CountTails.atLeast(x, expected, dispersion);
          tests.add(
              new Finding(
                  AlertKind.SURGE,
                  key,
                  r.version(),
                  r.day(),
                  after,
                  x,
                  nc,
                  before,
                  releaseBeforeDays,
                  expected,
                  share,
                  0,
                  0,
                  0,
                  0,
                  dispersion,
                  p,
                  p,
                  0,
                  false,
                  n,
                  t,
                  budget));
        }
      }
      double level = budget / 2;
      for (Finding f : tests) {
        double adjusted = Math.min(1, f.pValue() * tests.size());
        boolean passes =
            adjusted <= level && f.count() >= minCount && f.count() >= minRatio * f.expected();
        out.add(f.decided(adjusted, tests.size(), level, passes));
      }
    }
    return out;
  }

  /**
   * Over-dispersion of the framework's category counts beyond what its weekly volume explains: in
   * each whole week of the period, a category's expected count is the week's issues in its
   * dimension × the category's share of the period; method of moments for a negative binomial
   * around those means, {@code θ = Σ((y − μ)² − μ) / Σ μ²}, pooled over the informative categories
   * of every dimension, at least 0, at most {@code maxDispersion}; 0 with fewer than 4 whole weeks.
   */
  private double dispersion(
      DailyTable table, Map<String, List<String>> byDimension, long from, long to) {
    int weeks = (int) ((to - from) / windowDays);
    if (weeks < 4) {
      return 0;
    }
    double num = 0;
    double den = 0;
    for (List<String> keys : byDimension.values()) {
      long[] totals = new long[weeks];
      long all = 0;
      for (int w = 0; w < weeks; w++) {
        long start = to - (long) (w + 1) * windowDays;
        for (String key : keys) {
          totals[w] += table.sum(key, start, start + windowDays);
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
        double share = table.sum(key, to - (long) weeks * windowDays, to) / (double) all;
        if (share == 0) {
          continue;
        }
        for (int w = 0; w < weeks; w++) {
          long start = to - (long) (w + 1) * windowDays;
          double mu = totals[w] * share;
          double y = table.sum(key, start, start + windowDays);
          num += (y - mu) * (y - mu) - mu;
          den += mu * mu;
        }
      }
    }
    return den > 0 ? Math.max(0, Math.min(maxDispersion, num / den)) : 0;
  }
}
