package dev.faultline.estimate.scope;

import dev.faultline.estimate.ScoreInterval;
import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.ScopeEstimator;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The {@code study-figures} query's arithmetic: every figure the two seed studies publish
 * (../shared/taxonomy/CODEBOOK.md §10) beside this data's estimate of the same quantity, with a 90%
 * interval.
 *
 * <p>Each figure is a ratio of two counts over the issues of the scope (e.g. training bugs over
 * bugs whose phase is training or inference), the numerator's issues a part of the denominator's.
 * Its estimate is probabilistic classify-and-count on the one item model ({@link ItemModel}): an
 * issue's probability of each count is P(its kind) times the probabilities of the codes given the
 * kind (the bug-only dimensions given a bug report, so P(bug) is counted once; dimensions
 * independent given the kind, the product of their conditionals), the figure the ratio of the
 * expected counts, its interval the score-type interval of the same ratio ({@link ScoreInterval},
 * the numerator and denominator Poisson-binomial sums, so the estimate is always inside it). A base
 * of fewer than {@value #MIN_BASE} expected issues gives no figure and the note "too few to
 * estimate". Ranked figures (the most frequent symptoms, causes, fixes) give this data's top codes
 * by expected share among the known codes of their base, each with its interval. The intervals hold
 * the per-issue uncertainty only, not calibration error or prior shift. Fix sizes are measured (a
 * merged fix's changed lines), not estimated; whether the fixed issue is a bug is.
 */
public final class StudyFigures implements ScopeEstimator {
  static final String NAME = "study-figures";
  static final double LEVEL = 0.9;

  /** Expected issues in a figure's base below which it is not estimated. */
  static final double MIN_BASE = 3;

  private static final double Z =
      new NormalDistribution().inverseCumulativeProbability((1 + LEVEL) / 2);

  private static final List<Dimension> FIELDS =
      List.of(
          Dimension.SYMPTOM,
          Dimension.SYMPTOM_CLASS,
          Dimension.ROOT_CAUSE,
          Dimension.FIX_PATTERN,
          Dimension.PHASE,
          Dimension.DISTRIBUTED_SPECIFIC);

  private static final ItemModel MODEL =
      ItemModel.of(
          FIELDS.stream()
              .map(
                  d ->
                      d == Dimension.SYMPTOM_CLASS
                          ? new Field(
                              d, "symptomClass", "symptomP", "symptomCalibration", "symptomPasses")
                          : Field.named(d))
              .toList());

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> inputs(QueryDefinition query) {
    List<String> in = new ArrayList<>(List.of("fixLines", "longOpen", "kind", "kindP"));
    for (Dimension d : FIELDS) {
      if (d != Dimension.SYMPTOM_CLASS) {
        in.add(d.key());
        in.add(d.key() + "P");
        in.add(d.key() + "Calibration");
      }
    }
    in.add("kindCalibration");
    in.add("humanGiven");
    return in;
  }

  @Override
  public Set<String> parameters(QueryDefinition query) {
    return Set.of();
  }

  @Override
  public List<Map<String, Object>> estimate(
      QueryDefinition query, List<Map<String, Object>> rows, Map<String, Object> parameters) {
    List<Issue> issues = new ArrayList<>(rows.size());
    for (Map<String, Object> r : rows) {
      Object lines = r.get("fixLines");
      issues.add(
          new Issue(
              MODEL.item(r),
              lines instanceof Number n ? n.longValue() : null,
              Boolean.TRUE.equals(r.get("longOpen"))));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Figures.Ratio f : Figures.RATIOS) {
      out.add(ratioRow(f, issues));
    }
    for (Figures.Ranked f : Figures.RANKED) {
      out.add(rankedRow(f, issues));
    }
    return out;
  }

  /** One issue: its item and its facts. */
  record Issue(Item item, Long fixLines, boolean longOpen) {
    /** P(bug). */
    double bug() {
      return item.kind("BUG");
    }

    /** P(code of field | bug). */
    double given(Dimension d, String code) {
      int f = FIELDS.indexOf(d);
      return item.given(f, "BUG")[d.distributionCodes().indexOf(code)];
    }

    /** P(the field's code is one of codes | bug). */
    double given(Dimension d, Set<String> codes) {
      double p = 0;
      for (String c : codes) {
        p += given(d, c);
      }
      return p;
    }
  }

  private static Map<String, Object> ratioRow(Figures.Ratio f, List<Issue> issues) {
    Sums s = new Sums();
    for (Issue i : issues) {
      double den = f.denominator().applyAsDouble(i);
      double num = den <= 0 ? 0 : den * f.numerator().applyAsDouble(i);
      s.add(num, den);
    }
    Map<String, Object> row = base(f.id(), f.study(), f.statement(), f.definition());
    row.put("published", f.published());
    if (s.den < MIN_BASE) {
      row.put("estimate", null);
      row.put("low", null);
      row.put("high", null);
    } else {
      double[] ci = s.interval();
      row.put("estimate", round(s.num / s.den));
      row.put("low", round(ci[0]));
      row.put("high", round(ci[1]));
    }
    row.put("ranking", null);
    row.put("basis", Math.round(s.den * 10) / 10.0);
    row.put("method", METHOD);
    row.put("note", s.den < MIN_BASE ? tooFew(s.den) : null);
    return row;
  }

  private static Map<String, Object> rankedRow(Figures.Ranked f, List<Issue> issues) {
    List<String> codes = f.dimension().distributionCodes();
    Map<String, Sums> byCode = new LinkedHashMap<>();
    double total = 0;
    for (String c : codes) {
      if (!Figures.NO_CODE.contains(c)) {
        byCode.put(c, new Sums());
      }
    }
    for (Issue i : issues) {
      double scope = f.scope().applyAsDouble(i);
      if (scope <= 0) {
        continue;
      }
      double known = scope * i.given(f.dimension(), byCode.keySet());
      total += known;
      for (Map.Entry<String, Sums> e : byCode.entrySet()) {
        e.getValue().add(scope * i.given(f.dimension(), e.getKey()), known);
      }
    }
    Map<String, Object> row = base(f.id(), f.study(), f.statement(), f.definition());
    row.put("published", null);
    row.put("estimate", null);
    row.put("low", null);
    row.put("high", null);
    row.put("ranking", total < MIN_BASE ? null : ranking(byCode, f.top()));
    row.put("basis", Math.round(total * 10) / 10.0);
    row.put("method", METHOD);
    row.put("note", total < MIN_BASE ? tooFew(total) : null);
    return row;
  }

  private static String ranking(Map<String, Sums> byCode, int top) {
    List<String> parts = new ArrayList<>();
    byCode.entrySet().stream()
        .sorted(
            (a, b) -> {
              int byCount = Double.compare(b.getValue().num, a.getValue().num);
              return byCount != 0 ? byCount : a.getKey().compareTo(b.getKey());
            })
        .limit(top)
        .forEach(
            e -> {
              Sums s = e.getValue();
              double[] ci = s.interval();
              parts.add(
                  String.format(
                      Locale.ROOT,
                      "%s %.0f%% (%.0f–%.0f%%)",
                      e.getKey(),
                      100 * s.num / s.den,
                      100 * ci[0],
                      100 * ci[1]));
            });
    return String.join(", ", parts);
  }

  /**
   * Expected numerator and denominator and the terms of Var(num − s·den) over independent issues
   * (the numerator's issues part of the denominator's: Cov = Σ p_num (1 − p_den)).
   */
  static final class Sums {
    double num;
    double den;
    private double a;
    private double b;
    private double c;

    void add(double pNum, double pDen) {
      num += pNum;
      den += pDen;
      a += pNum * (1 - pNum);
      b += pNum * (1 - pDen);
      c += pDen * (1 - pDen);
    }

    /**
     * The score interval of num / den, with a continuity correction of half an issue where there is
     * per-issue uncertainty (none where every label is a person's).
     */
    double[] interval() {
      double correction = a + c > 1e-12 ? 0.5 : 0;
      return ScoreInterval.solve(num, den, s -> a - 2 * s * b + s * s * c, Z * Z, correction);
    }
  }

  static final String METHOD =
      "pcc: expected counts, codes independent given the kind; per-issue uncertainty only";

  private static String tooFew(double base) {
    return String.format(Locale.ROOT, "too few to estimate (≈ %.1f in the base)", base);
  }

  private static Map<String, Object> base(String id, String study, String statement, String def) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("figure", id);
    row.put("study", study);
    row.put("statement", statement);
    row.put("definition", def);
    return row;
  }

  private static Double round(double v) {
    return Double.isFinite(v) ? Math.round(v * 10000) / 10000.0 : null;
  }
}
