package dev.faultline.estimate.scope;

import dev.faultline.estimate.ClassifyAndCount;
import dev.faultline.estimate.Codes;
import dev.faultline.estimate.Estimate;
import dev.faultline.estimate.PredictionPowered;
import dev.faultline.graph.query.ScopeEstimator;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code category-shares} query's arithmetic: for one dimension over the issues of a scope, one
 * row per code with its expected count, its share among the known codes and their 90% intervals.
 *
 * <p>{@code mode=estimate} (the default) sums each issue's calibrated probability of the code
 * instead of counting labels: probabilistic classify-and-count with a Poisson-binomial count
 * interval and a simulated share interval ({@link ClassifyAndCount}); where the scope has a
 * validation sample (issues drawn uniformly at random by {@code faultline sample draw} and labelled
 * by a person, {@code sample import}), prediction-powered inference instead ({@link
 * PredictionPowered}, PPI with the continuity-corrected score interval), whose intervals hold for
 * the whole scope. {@code mode=confident} counts only labels above the dimension's bar (and of the
 * kind), {@code mode=all} every top label: counts of labels, without intervals.
 *
 * <p>The kind filter in an estimate is a probability too: an issue counts toward "bug reports" with
 * its probability of being one. For the dimensions a codebook gives only bug reports (symptom,
 * symptom class, root cause, fix pattern, distributed-specific: the others get NONE, UNKNOWN or
 * null) the dimension's own distribution already holds that probability (P(code) is P(bug and
 * code)); for stage and phase, which the codebook also gives other kinds, P(code and kind) is taken
 * as the product of the two marginals, the classifier giving no joint.
 *
 * <p>An issue whose label has no stored distribution (classified before distributions were kept)
 * counts as a point mass on its label; so does a label a person gave.
 */
public final class CategoryShares implements ScopeEstimator {
  static final String NAME = "category-shares";

  /** Validation-sample items needed before a scope's estimate uses them. */
  static final int MIN_SAMPLE = 10;

  /**
   * The rectified estimate and its interval, as chosen by measured coverage on held-out folds
   * (docs/estimates.md): PPI with the continuity-corrected score interval held 0.88-0.92 in every
   * frequency band; the plain score interval 0.77-0.89 (PPI++ estimated the same as PPI there).
   */
  static final PredictionPowered.Interval SAMPLE_INTERVAL = PredictionPowered.Interval.SCORE_CC;

  static final PredictionPowered.Tuning SAMPLE_TUNING = PredictionPowered.Tuning.PPI;

  static final double LEVEL = 0.9;

  /** The code that stands for "not of the kind in scope" (left out of shares). */
  static final String OTHER_KIND = "OTHER_KIND";

  /**
   * The dimensions the codebook gives other kinds than bug reports too (their P(code and kind) is
   * the product of the marginals); every other dimension is given bug reports only, so its own
   * distribution already holds the kind's probability.
   */
  private static final Set<Dimension> ALSO_OTHER_KINDS =
      Set.of(Dimension.KIND, Dimension.STAGE, Dimension.PHASE);

  /** Whether the codebook gives a dimension bug reports only (NONE, UNKNOWN or null otherwise). */
  static boolean onlyForBugs(Dimension d) {
    return !ALSO_OTHER_KINDS.contains(d);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> inputs() {
    return List.of("top", "p", "topKind", "kindP", "passes", "kindPasses", "sample");
  }

  @Override
  public Set<String> parameters() {
    return Set.of("dimension", "kind", "mode");
  }

  @Override
  public List<Map<String, Object>> estimate(
      List<Map<String, Object>> items, Map<String, Object> parameters) {
    Dimension dimension =
        Dimension.ofKey((String) parameters.get("dimension"))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "unknown dimension " + parameters.get("dimension")));
    String kind = (String) parameters.get("kind");
    String mode = parameters.get("mode") == null ? "estimate" : (String) parameters.get("mode");
    List<String> codes = ItemDistributions.codes(dimension);
    List<String> withOther = new ArrayList<>(codes);
    withOther.add(OTHER_KIND);
    Set<String> excluded = new LinkedHashSet<>(Codes.NOT_KNOWN);
    excluded.add(OTHER_KIND);
    Codes all = new Codes(withOther, excluded);
    Tally t = Tally.of(items, dimension, kind, codes, all);
    int n = items.size();
    boolean rectify = t.sampled >= MIN_SAMPLE && n > t.sampled;
    if (!rectify) {
      // too few sampled items to measure the classifier's error: each counts as its person's label
      for (int i = 0; i < n; i++) {
        if (t.label[i] >= 0) {
          java.util.Arrays.fill(t.p[i], 0);
          t.p[i][t.label[i]] = 1;
        }
      }
    }
    List<Estimate> estimates =
        switch (mode) {
          case "estimate" ->
              rectify
                  ? PredictionPowered.estimate(
                      all,
                      t.p,
                      t.label,
                      SAMPLE_TUNING,
                      SAMPLE_INTERVAL,
                      LEVEL,
                      ClassifyAndCount.DEFAULT_SEED)
                  : ClassifyAndCount.estimate(all, t.p, LEVEL, ClassifyAndCount.DEFAULT_SEED);
          case "confident" -> counted(codes, t.labelled, "count of labels above the bar");
          case "all" -> counted(codes, t.top, "count of top labels");
          default ->
              throw new IllegalArgumentException(
                  "mode must be estimate, confident or all, not '" + mode + "'");
        };
    return rows(codes, estimates, t);
  }

  /**
   * What the items of a scope give: per item its probabilities of each code and of "not of the kind
   * in scope" ({@code p}) and its sample label index ({@code label}, -1 outside the sample); how
   * many are sampled, the expected number of the kind, and per code the top labels and the top
   * labels above the bar.
   */
  private static final class Tally {
    final double[][] p;
    final int[] label;
    final long[] labelled;
    final long[] top;
    int sampled;
    double expectedInScope;

    private Tally(int n, int codes) {
      p = new double[n][];
      label = new int[n];
      labelled = new long[codes];
      top = new long[codes];
    }

    static Tally of(
        List<Map<String, Object>> items,
        Dimension dimension,
        String kind,
        List<String> codes,
        Codes all) {
      Tally t = new Tally(items.size(), codes.size());
      boolean own = "BUG".equals(kind) && onlyForBugs(dimension);
      for (int i = 0; i < items.size(); i++) {
        Map<String, Object> item = items.get(i);
        double w =
            kind == null
                ? 1
                : ItemDistributions.probabilityOf(item, "kindP", "topKind", Dimension.KIND, kind);
        double[] d = ItemDistributions.distribution(item, dimension, codes);
        double[] row = new double[codes.size() + 1];
        double inKind = 0;
        for (int k = 0; k < codes.size(); k++) {
          row[k] = own ? d[k] : w * d[k];
          inKind += row[k];
        }
        row[codes.size()] = Math.max(0, 1 - inKind);
        t.p[i] = row;
        t.expectedInScope += w;
        t.label[i] = sampleLabel(item, dimension, kind, all);
        if (t.label[i] >= 0) {
          t.sampled++;
        }
        t.countTop(item, kind, codes);
      }
      return t;
    }

    private void countTop(Map<String, Object> item, String kind, List<String> codes) {
      String topCode = (String) item.get("top");
      int k = topCode == null ? -1 : codes.indexOf(topCode);
      boolean kindMatches = kind == null || kind.equals(item.get("topKind"));
      if (k >= 0 && kindMatches) {
        top[k]++;
        if (Boolean.TRUE.equals(item.get("passes"))
            && (kind == null || Boolean.TRUE.equals(item.get("kindPasses")))) {
          labelled[k]++;
        }
      }
    }
  }

  /** The query's rows: one per code, with the scope's coverage beside each. */
  private static List<Map<String, Object>> rows(
      List<String> codes, List<Estimate> estimates, Tally t) {
    int n = t.p.length;
    long confident = 0;
    for (long c : t.labelled) {
      confident += c;
    }
    Double coverage = n == 0 ? null : round(confident / (double) n, 4);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int k = 0; k < codes.size(); k++) {
      Estimate e = estimates.get(k);
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("code", codes.get(k));
      r.put("estimate", round(e.count(), 1));
      r.put("estimateLow", round(e.countLow(), 1));
      r.put("estimateHigh", round(e.countHigh(), 1));
      r.put("share", round(e.share(), 4));
      r.put("shareLow", round(e.shareLow(), 4));
      r.put("shareHigh", round(e.shareHigh(), 4));
      r.put("labelled", t.labelled[k]);
      r.put("method", e.method());
      r.put("sampleSize", (long) e.sampleSize());
      r.put("inScope", (long) n);
      r.put("coverage", coverage);
      r.put("expectedInScope", round(t.expectedInScope, 1));
      rows.add(r);
    }
    return rows;
  }

  /** The index of a sampled item's human label in {@code all}, or -1 outside the sample. */
  private static int sampleLabel(
      Map<String, Object> item, Dimension dimension, String kind, Codes all) {
    if (!(item.get("sample") instanceof Map<?, ?> sample)) {
      return -1;
    }
    Object humanKind = sample.get(Dimension.KIND.key());
    Object code = sample.get(dimension.key());
    if (humanKind == null || code == null) {
      return -1; // a field left empty: the item does not count as labelled for this dimension
    }
    if (kind != null && !kind.equals(humanKind)) {
      return all.index(OTHER_KIND);
    }
    return all.index(String.valueOf(code));
  }

  private static List<Estimate> counted(List<String> codes, long[] counts, String method) {
    long known = 0;
    for (int k = 0; k < codes.size(); k++) {
      if (!Codes.NOT_KNOWN.contains(codes.get(k))) {
        known += counts[k];
      }
    }
    List<Estimate> out = new ArrayList<>();
    for (int k = 0; k < codes.size(); k++) {
      boolean isKnown = !Codes.NOT_KNOWN.contains(codes.get(k));
      double share = isKnown && known > 0 ? counts[k] / (double) known : Double.NaN;
      out.add(
          new Estimate(
              codes.get(k),
              counts[k],
              Double.NaN,
              Double.NaN,
              share,
              Double.NaN,
              Double.NaN,
              method,
              0,
              0,
              LEVEL));
    }
    return out;
  }

  private static Double round(double v, int decimals) {
    if (!Double.isFinite(v)) {
      return null;
    }
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }
}
