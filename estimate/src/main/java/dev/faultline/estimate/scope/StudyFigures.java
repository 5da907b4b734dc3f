package dev.faultline.estimate.scope;

import dev.faultline.graph.query.ScopeEstimator;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * The {@code study-figures} query's arithmetic: every figure the two seed studies publish
 * (../shared/taxonomy/CODEBOOK.md §10) beside this data's estimate of the same quantity, with a 90%
 * interval.
 *
 * <p>Each figure is a ratio of two counts over the issues of the scope (e.g. training bugs over
 * bugs whose phase is training or inference). Its estimate is probabilistic classify-and-count:
 * {@value #DRAWS} seeded labellings of the scope, each issue's labels drawn independently from its
 * calibrated distributions (the product of the marginals: the classifier gives no joint), the
 * figure computed on each; the estimate is the mean of the draws' numerators over the mean of their
 * denominators, the interval the draws' 5th and 95th percentiles. The interval contains the
 * per-issue uncertainty only, not calibration error or prior shift; a person's label is a point
 * mass. Ranked figures (the most frequent symptoms, causes, fixes) give this data's top codes with
 * their shares and intervals. Fix sizes are measured (a merged fix's changed lines), not estimated;
 * whether the fixed issue is a bug is.
 */
public final class StudyFigures implements ScopeEstimator {
  static final String NAME = "study-figures";
  static final int DRAWS = 400;
  static final long SEED = 20261127L;
  static final double LEVEL = 0.9;

  private static final List<Dimension> DRAWN =
      List.of(
          Dimension.KIND,
          Dimension.SYMPTOM,
          Dimension.ROOT_CAUSE,
          Dimension.FIX_PATTERN,
          Dimension.PHASE,
          Dimension.DISTRIBUTED_SPECIFIC);

  /** One issue's drawn labels and its facts. */
  record Drawn(
      boolean bug,
      String symptom,
      String symptomClass,
      String rootCause,
      String fixPattern,
      String phase,
      String distributed,
      Long fixLines,
      boolean longOpen) {
    boolean phaseKnown() {
      return phase.equals("TRAINING") || phase.equals("INFERENCE");
    }

    boolean distributedKnown() {
      return !distributed.equals("null");
    }
  }

  /**
   * A ratio figure: the share of the items passing {@code denominator} that pass {@code numerator}.
   */
  record Ratio(
      String id,
      String study,
      String statement,
      Double published,
      String definition,
      Predicate<Drawn> denominator,
      Predicate<Drawn> numerator) {}

  /** A ranked figure: the top codes of one drawn field among the items passing {@code scope}. */
  record Ranked(
      String id,
      String study,
      String statement,
      String definition,
      java.util.function.Function<Drawn, String> field,
      Predicate<Drawn> scope,
      int top,
      Set<String> shareOf) {}

  private static final Set<String> NO_CODE = Set.of("UNKNOWN", "NONE", "null");

  static final List<Ratio> RATIOS =
      List.of(
          new Ratio(
              "p1-small-fixes",
              "P1",
              "48% of bug fixes change at most 10 lines of code",
              0.48,
              "bug reports with a merged fix: its changed lines (additions + deletions, the smallest fix) <= 10",
              d -> d.bug() && d.fixLines() != null,
              d -> d.fixLines() <= 10),
          new Ratio(
              "p1-training-vs-inference",
              "P1",
              "training-phase bugs are about twice as frequent as inference-phase bugs (about 2/3 of the two)",
              2.0 / 3,
              "bugs whose phase is TRAINING or INFERENCE: the share of TRAINING",
              d -> d.bug() && d.phaseKnown(),
              d -> d.phase().equals("TRAINING")),
          new Ratio(
              "p1-hangs-in-training",
              "P1",
              "hang bugs occur only in training",
              1.0,
              "HANG bugs whose phase is TRAINING or INFERENCE: the share of TRAINING",
              d -> d.bug() && d.symptom().equals("HANG") && d.phaseKnown(),
              d -> d.phase().equals("TRAINING")),
          new Ratio(
              "p1-long-open-tail",
              "P1",
              "6% of bugs stay open for more than a month with 10 or more comments",
              0.06,
              "bugs open more than 30 days (until closed, or until now) with at least 10 comments",
              Drawn::bug,
              Drawn::longOpen),
          new Ratio(
              "p1-distributed-root-causes",
              "P1",
              "four root causes exist only because the framework is distributed (allocation strategy,"
                  + " distributed communication, distributed tensor, concurrency); no share stated",
              null,
              "bugs with a known root cause: the share of the four distributed-specific causes",
              d -> d.bug() && !NO_CODE.contains(d.rootCause()),
              d ->
                  Set.of(
                          "ALLOCATION_STRATEGY_ERROR",
                          "DISTRIBUTED_COMMUNICATION_ERROR",
                          "DISTRIBUTED_TENSOR_ERROR",
                          "CONCURRENCY_ERROR")
                      .contains(d.rootCause())),
          new Ratio(
              "p2-distributed-specific",
              "P2",
              "45.1% of bug symptoms are distributed-specific",
              0.451,
              "bugs where distributed-specific is known: the share of true",
              d -> d.bug() && d.distributedKnown(),
              d -> d.distributed().equals("true")),
          new Ratio(
              "p2-setup-distributed",
              "P2",
              "95% of the issues in the communication-setup stage are distributed-specific",
              0.95,
              "SETUP_FAILURE bugs (launcher, rendezvous, process-group and NCCL init) where"
                  + " distributed-specific is known: the share of true",
              d -> d.bug() && d.symptom().equals("SETUP_FAILURE") && d.distributedKnown(),
              d -> d.distributed().equals("true")),
          new Ratio(
              "p2-version-or-tuning-fixes",
              "P2",
              "over 60% of the cases are resolved by version and dependency management or by"
                  + " distributed tuning",
              0.60,
              "bugs with a known fix pattern: the share of VERSION_DEPENDENCY_MANAGEMENT or"
                  + " DISTRIBUTED_TUNING",
              d -> d.bug() && !NO_CODE.contains(d.fixPattern()),
              d ->
                  d.fixPattern().equals("VERSION_DEPENDENCY_MANAGEMENT")
                      || d.fixPattern().equals("DISTRIBUTED_TUNING")));

  static final List<Ranked> RANKED =
      List.of(
          new Ranked(
              "p1-top-symptoms",
              "P1",
              "most frequent symptoms: crash, incorrect functionality, build failure",
              "bugs with a known symptom class: the three most frequent classes",
              Drawn::symptomClass,
              Drawn::bug,
              3,
              Set.of()),
          new Ranked(
              "p1-top-root-causes",
              "P1",
              "most frequent root causes: API misuse, incorrect implementation, configuration error,"
                  + " missing precondition",
              "bugs with a known root cause: the four most frequent",
              Drawn::rootCause,
              Drawn::bug,
              4,
              Set.of()),
          new Ranked(
              "p1-low-effort-fixes",
              "P1",
              "the common low-effort fixes: conditional logic, parameter handling, version"
                  + " compatibility handling",
              "bugs with a merged fix of at most 10 changed lines and a known fix pattern: the three"
                  + " most frequent patterns",
              Drawn::fixPattern,
              d -> d.bug() && d.fixLines() != null && d.fixLines() <= 10,
              3,
              Set.of()),
          new Ranked(
              "p2-top-distributed-symptoms",
              "P2",
              "the three most frequent distributed-specific symptom types: setup failures, memory"
                  + " anomalies, performance anomalies",
              "distributed-specific bugs with a known symptom: the three most frequent",
              Drawn::symptom,
              d -> d.bug() && d.distributed().equals("true"),
              3,
              Set.of()));

  private final Taxonomy taxonomy = Taxonomy.load();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> inputs() {
    List<String> in = new ArrayList<>(List.of("fixLines", "longOpen"));
    for (Dimension d : DRAWN) {
      in.add(d.key());
      in.add(d.key() + "P");
    }
    return in;
  }

  @Override
  public Set<String> parameters() {
    return Set.of();
  }

  @Override
  public List<Map<String, Object>> estimate(
      List<Map<String, Object>> items, Map<String, Object> parameters) {
    int n = items.size();
    double[][][] dist = new double[DRAWN.size()][n][];
    List<List<String>> codes = new ArrayList<>();
    for (int k = 0; k < DRAWN.size(); k++) {
      Dimension d = DRAWN.get(k);
      codes.add(ItemDistributions.codes(d));
      for (int i = 0; i < n; i++) {
        Map<String, Object> row = items.get(i);
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("p", row.get(d.key() + "P"));
        view.put("top", row.get(d.key()));
        dist[k][i] = ItemDistributions.distribution(view, d, codes.get(k));
      }
    }
    SplittableRandom random = new SplittableRandom(SEED);
    double[][] num = new double[RATIOS.size()][DRAWS];
    double[][] den = new double[RATIOS.size()][DRAWS];
    List<List<Map<String, double[]>>> rankedCounts = new ArrayList<>();
    RANKED.forEach(r -> rankedCounts.add(new ArrayList<>()));
    for (int r = 0; r < DRAWS; r++) {
      List<Map<String, Double>> counts = new ArrayList<>();
      RANKED.forEach(x -> counts.add(new LinkedHashMap<>()));
      for (int i = 0; i < n; i++) {
        Drawn d = draw(items.get(i), dist, codes, i, random);
        for (int f = 0; f < RATIOS.size(); f++) {
          Ratio ratio = RATIOS.get(f);
          if (ratio.denominator().test(d)) {
            den[f][r]++;
            if (ratio.numerator().test(d)) {
              num[f][r]++;
            }
          }
        }
        for (int f = 0; f < RANKED.size(); f++) {
          Ranked ranked = RANKED.get(f);
          String code = ranked.field().apply(d);
          if (ranked.scope().test(d) && !NO_CODE.contains(code)) {
            counts.get(f).merge(code, 1.0, Double::sum);
          }
        }
      }
      for (int f = 0; f < RANKED.size(); f++) {
        Map<String, double[]> shares = new LinkedHashMap<>();
        double total = counts.get(f).values().stream().mapToDouble(Double::doubleValue).sum();
        for (Map.Entry<String, Double> e : counts.get(f).entrySet()) {
          shares.put(e.getKey(), new double[] {e.getValue() / total});
        }
        rankedCounts.get(f).add(shares);
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int f = 0; f < RATIOS.size(); f++) {
      rows.add(ratioRow(RATIOS.get(f), num[f], den[f]));
    }
    for (int f = 0; f < RANKED.size(); f++) {
      rows.add(rankedRow(RANKED.get(f), rankedCounts.get(f)));
    }
    return rows;
  }

  private Drawn draw(
      Map<String, Object> item,
      double[][][] dist,
      List<List<String>> codes,
      int i,
      SplittableRandom random) {
    String[] v = new String[DRAWN.size()];
    for (int k = 0; k < DRAWN.size(); k++) {
      v[k] = codes.get(k).get(sample(dist[k][i], random));
    }
    String symptom = v[1];
    Object lines = item.get("fixLines");
    return new Drawn(
        v[0].equals("BUG"),
        symptom,
        NO_CODE.contains(symptom) ? symptom : taxonomy.symptomClassOf(symptom).orElse(symptom),
        v[2],
        v[3],
        v[4],
        v[5],
        lines instanceof Number number ? number.longValue() : null,
        Boolean.TRUE.equals(item.get("longOpen")));
  }

  private static int sample(double[] p, SplittableRandom random) {
    double u = random.nextDouble();
    double c = 0;
    for (int k = 0; k < p.length; k++) {
      c += p[k];
      if (u < c) {
        return k;
      }
    }
    for (int k = p.length - 1; k >= 0; k--) {
      if (p[k] > 0) {
        return k;
      }
    }
    return 0;
  }

  private static Map<String, Object> ratioRow(Ratio f, double[] num, double[] den) {
    double meanNum = Arrays.stream(num).average().orElse(0);
    double meanDen = Arrays.stream(den).average().orElse(0);
    double[] ratios =
        java.util.stream.IntStream.range(0, num.length)
            .filter(r -> den[r] > 0)
            .mapToDouble(r -> num[r] / den[r])
            .sorted()
            .toArray();
    Map<String, Object> row = base(f.id(), f.study(), f.statement(), f.definition());
    row.put("published", f.published());
    Double estimate = meanDen > 0 ? round(meanNum / meanDen) : null;
    row.put("estimate", estimate);
    // On a base of a few expected issues many labellings have none in the denominator and the
    // ratio of the expected counts can fall outside the ratios' percentiles: the interval is
    // widened to hold it (it is never narrower than the draws').
    row.put(
        "low",
        ratios.length == 0 || estimate == null
            ? null
            : Math.min(estimate, round(percentile(ratios, (1 - LEVEL) / 2))));
    row.put(
        "high",
        ratios.length == 0 || estimate == null
            ? null
            : Math.max(estimate, round(percentile(ratios, (1 + LEVEL) / 2))));
    row.put("ranking", null);
    row.put("basis", Math.round(meanDen * 10) / 10.0);
    row.put("method", method());
    return row;
  }

  private static Map<String, Object> rankedRow(Ranked f, List<Map<String, double[]>> draws) {
    Map<String, List<Double>> byCode = new LinkedHashMap<>();
    for (Map<String, double[]> d : draws) {
      d.forEach((code, s) -> byCode.computeIfAbsent(code, c -> new ArrayList<>()).add(s[0]));
    }
    List<String> parts = new ArrayList<>();
    byCode.entrySet().stream()
        .map(
            e -> {
              // a draw in which the code did not occur has share 0 for it
              double[] s = new double[draws.size()];
              for (int r = 0; r < e.getValue().size(); r++) {
                s[r] = e.getValue().get(r);
              }
              Arrays.sort(s);
              return Map.entry(e.getKey(), s);
            })
        .sorted(
            (a, b) -> {
              int byShare =
                  Double.compare(
                      Arrays.stream(b.getValue()).average().orElse(0),
                      Arrays.stream(a.getValue()).average().orElse(0));
              return byShare != 0 ? byShare : a.getKey().compareTo(b.getKey());
            })
        .limit(f.top())
        .forEach(
            e ->
                parts.add(
                    String.format(
                        Locale.ROOT,
                        "%s %.0f%% (%.0f–%.0f%%)",
                        e.getKey(),
                        100 * Arrays.stream(e.getValue()).average().orElse(0),
                        100 * percentile(e.getValue(), (1 - LEVEL) / 2),
                        100 * percentile(e.getValue(), (1 + LEVEL) / 2))));
    Map<String, Object> row = base(f.id(), f.study(), f.statement(), f.definition());
    row.put("published", null);
    row.put("estimate", null);
    row.put("low", null);
    row.put("high", null);
    row.put("ranking", parts.isEmpty() ? null : String.join(", ", parts));
    row.put("basis", null);
    row.put("method", method());
    return row;
  }

  private static Map<String, Object> base(String id, String study, String statement, String def) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("figure", id);
    row.put("study", study);
    row.put("statement", statement);
    row.put("definition", def);
    return row;
  }

  private static String method() {
    return "pcc: " + DRAWS + " simulated labellings, product of the marginals";
  }

  private static double percentile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double pos = q * (sorted.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  }

  private static Double round(double v) {
    return Double.isFinite(v) ? Math.round(v * 10000) / 10000.0 : null;
  }
}
