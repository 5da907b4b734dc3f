package dev.faultline.estimate.scope;

import dev.faultline.estimate.group.GroupedEstimator.Mode;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.ScopeEstimator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The {@code headline-closing} query's arithmetic: how the bug reports of a scope end, as two
 * estimates on the one item model ({@link ItemModel}: an issue's P(bug), whatever its label).
 *
 * <ul>
 *   <li>Median days to close: the weighted median of the closed issues' days to close, each weighed
 *       by its P(bug); its 90% interval the 5th and 95th percentiles of the medians of {@value
 *       #DRAWS} seeded simulated labellings (each closed issue a bug report with its P(bug),
 *       independently), widened to hold the point.
 *   <li>Small-fix share: over the merged changes of known size that fix an issue in scope, each
 *       counting with the probability that at least one issue it fixes is a bug report ({@code 1 −
 *       Π(1 − P(bug))}), the ratio of the expected small ones (changed lines at most {@code
 *       maxLines}) to the expected all; its interval the score interval of that ratio ({@link
 *       StudyFigures.Sums}, as the study figures').
 * </ul>
 *
 * <p>A base below {@link StudyFigures#MIN_BASE} expected bug reports gives no figure and a note.
 * The intervals hold the per-issue uncertainty only, not calibration error; changes sharing an
 * issue are taken as independent. {@code mode=confident} (or {@code all}) weighs an issue 1 when
 * its BUG label passes the bar (any BUG label) and 0 otherwise: a count of labels, no interval.
 */
public final class HeadlineClosing implements ScopeEstimator {
  static final String NAME = "headline-closing";

  /** Simulated labellings of the median's interval. */
  static final int DRAWS = 2000;

  private static final long SEED = 31L;
  private static final ItemModel KIND_ONLY = ItemModel.of();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> inputs(QueryDefinition query) {
    List<String> in = new ArrayList<>(KIND_ONLY.inputs());
    in.addAll(List.of("id", "daysToClose", "fixes"));
    return in;
  }

  @Override
  public java.util.Set<String> parameters(QueryDefinition query) {
    return java.util.Set.of("maxLines", "mode");
  }

  @Override
  public List<Map<String, Object>> estimate(
      QueryDefinition query, List<Map<String, Object>> rows, Map<String, Object> parameters) {
    Mode mode =
        Mode.parse(parameters.get("mode") == null ? null : parameters.get("mode").toString());
    long maxLines =
        parameters.get("maxLines") == null
            ? 10
            : Long.parseLong(String.valueOf(parameters.get("maxLines")));
    List<double[]> closed = new ArrayList<>();
    Map<Object, double[]> changes = new LinkedHashMap<>();
    long closedPassing = 0;
    for (Map<String, Object> r : rows) {
      Item item = KIND_ONLY.item(r);
      double bug = bug(item, mode);
      double passing = bug(item, Mode.CONFIDENT);
      if (r.get("daysToClose") instanceof Number days) {
        closed.add(new double[] {days.doubleValue(), bug});
        closedPassing += (long) passing;
      }
      if (r.get("fixes") instanceof List<?> fixes) {
        for (Object f : fixes) {
          Map<?, ?> fix = (Map<?, ?>) f;
          // per change: {lines, P(no issue it fixes is a bug report), fixes a passing BUG label}
          double[] c =
              changes.computeIfAbsent(
                  fix.get("id"),
                  id -> new double[] {((Number) fix.get("lines")).doubleValue(), 1, 0});
          c[1] *= 1 - bug;
          c[2] = Math.max(c[2], passing);
        }
      }
    }
    boolean counted = mode != Mode.ESTIMATE;
    Map<String, Object> median = median(closed, counted);
    coverage(median, closedPassing, closed.size());
    Map<String, Object> small = smallFixShare(changes.values(), maxLines, counted);
    coverage(small, (long) changes.values().stream().mapToDouble(c -> c[2]).sum(), changes.size());
    return List.of(median, small);
  }

  /** The base's items whose BUG label passes the bar, and their share of the base's items. */
  private static void coverage(Map<String, Object> row, long labelled, long items) {
    row.put("labelled", labelled);
    row.put("coverage", items == 0 ? null : Math.round(labelled * 1e4 / items) / 1e4);
  }

  /** The item's weight: P(bug), or 1/0 for its BUG label counted. */
  static double bug(Item item, Mode mode) {
    return switch (mode) {
      case ESTIMATE -> item.kind("BUG");
      case CONFIDENT -> "BUG".equals(item.kindTop()) && item.kindPasses() ? 1 : 0;
      case ALL -> "BUG".equals(item.kindTop()) ? 1 : 0;
    };
  }

  /** The median days to close: each closed issue {days, P(bug)}. */
  static Map<String, Object> median(List<double[]> closed, boolean counted) {
    closed.sort((a, b) -> Double.compare(a[0], b[0]));
    double base = closed.stream().mapToDouble(c -> c[1]).sum();
    Map<String, Object> row = row("medianDaysToClose", base, counted);
    if (base < StudyFigures.MIN_BASE) {
      return tooFew(row, base);
    }
    double point = weightedMedian(closed);
    row.put("estimate", round(point, 2));
    if (!counted) {
      double[] ci = drawnMedians(closed);
      row.put("low", round(Math.min(point, ci[0]), 2));
      row.put("high", round(Math.max(point, ci[1]), 2));
    }
    return row;
  }

  /**
   * The weighted median of values sorted ascending ({value, weight}): the first value whose
   * cumulative weight reaches half the total; where it reaches exactly half, the mean of it and the
   * next (an unweighted median of an even count).
   */
  static double weightedMedian(List<double[]> sorted) {
    double total = sorted.stream().mapToDouble(c -> c[1]).sum();
    double cumulative = 0;
    for (int k = 0; k < sorted.size(); k++) {
      cumulative += sorted.get(k)[1];
      if (Math.abs(cumulative - total / 2) < 1e-9 * Math.max(1, total)) {
        for (int next = k + 1; next < sorted.size(); next++) {
          if (sorted.get(next)[1] > 0) {
            return (sorted.get(k)[0] + sorted.get(next)[0]) / 2;
          }
        }
        return sorted.get(k)[0];
      }
      if (cumulative > total / 2) {
        return sorted.get(k)[0];
      }
    }
    return sorted.get(sorted.size() - 1)[0];
  }

  /**
   * The 5th and 95th percentiles of the medians of seeded simulated labellings: in each, every
   * closed issue a bug report with its P(bug), the ordinary median of the drawn ones' days (no
   * allocation per draw: a scope of 10,000 closed issues takes 2,000 passes of two loops).
   */
  private static double[] drawnMedians(List<double[]> sorted) {
    SplittableRandom random = new SplittableRandom(SEED);
    int n = sorted.size();
    double[] days = new double[n];
    double[] p = new double[n];
    for (int k = 0; k < n; k++) {
      days[k] = sorted.get(k)[0];
      p[k] = sorted.get(k)[1];
    }
    boolean[] drawn = new boolean[n];
    double[] medians = new double[DRAWS];
    int kept = 0;
    for (int d = 0; d < DRAWS; d++) {
      int count = 0;
      for (int k = 0; k < n; k++) {
        drawn[k] = random.nextDouble() < p[k];
        count += drawn[k] ? 1 : 0;
      }
      if (count > 0) {
        medians[kept++] = middle(days, drawn, count);
      }
    }
    double[] m = Arrays.copyOf(medians, kept);
    Arrays.sort(m);
    return new double[] {
      m[(int) Math.floor(0.05 * (kept - 1))], m[(int) Math.ceil(0.95 * (kept - 1))]
    };
  }

  /**
   * The median of the drawn ones of ascending {@code days}: the middle one, or the middle two's
   * mean.
   */
  private static double middle(double[] days, boolean[] drawn, int count) {
    int lower = (count - 1) / 2;
    int upper = count / 2;
    int seen = 0;
    double low = Double.NaN;
    for (int k = 0; k < days.length; k++) {
      if (!drawn[k]) {
        continue;
      }
      if (seen == lower) {
        low = days[k];
      }
      if (seen == upper) {
        return (low + days[k]) / 2;
      }
      seen++;
    }
    return low;
  }

  /** The small-fix share: each change {lines, P(no issue it fixes is a bug report)}. */
  static Map<String, Object> smallFixShare(
      java.util.Collection<double[]> changes, long maxLines, boolean counted) {
    StudyFigures.Sums s = new StudyFigures.Sums();
    for (double[] c : changes) {
      double fixesABug = 1 - c[1];
      s.add(c[0] <= maxLines ? fixesABug : 0, fixesABug);
    }
    Map<String, Object> row = row("smallFixShare", s.den, counted);
    if (s.den < StudyFigures.MIN_BASE) {
      return tooFew(row, s.den);
    }
    row.put("estimate", round(s.num / s.den, 4));
    if (!counted) {
      double[] ci = s.interval();
      row.put("low", round(ci[0], 4));
      row.put("high", round(ci[1], 4));
    }
    return row;
  }

  private static Map<String, Object> row(String metric, double base, boolean counted) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("metric", metric);
    row.put("estimate", null);
    row.put("low", null);
    row.put("high", null);
    row.put("basis", Math.round(base * 10) / 10.0);
    row.put(
        "method",
        counted
            ? "labels counted: issues whose BUG label is counted"
            : metric.equals("smallFixShare")
                ? "pcc: changes weighted by P(a fixed issue is a bug report); score interval;"
                    + " per-issue uncertainty only"
                : "pcc: P(bug)-weighted median; interval from "
                    + DRAWS
                    + " simulated labellings; per-issue uncertainty only");
    row.put("note", null);
    return row;
  }

  private static Map<String, Object> tooFew(Map<String, Object> row, double base) {
    row.put("note", String.format(Locale.ROOT, "too few to estimate (≈ %.1f in the base)", base));
    return row;
  }

  private static Double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Double.isFinite(v) ? Math.round(v * f) / f : null;
  }
}
