package dev.faultline.estimate.scope;

import dev.faultline.estimate.group.GroupedEstimator;
import dev.faultline.estimate.group.Row;
import dev.faultline.estimate.group.Weights;
import dev.faultline.estimate.item.Item;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code @estimate quantiles} option of the grouped estimator: statistics of a numeric
 * statement column over each row's items beside its count, e.g. {@code medianLines=lines@0.5,
 * p90Lines=lines@0.9} gives each row the columns {@code medianLines} and {@code p90Lines}. Each
 * item of the row's group weighs what it counts in the row's cell ({@link Weights}: its probability
 * of the kind and code, or 1 for a counted label); a null value is left out. The quantile is the
 * weighted one by Hazen's midpoint rule (Hyndman &amp; Fan 1996, definition 5, with weights): the
 * sorted values sit at their cumulative weight less half their own, over the total, and the
 * quantile is linear between them (the first and last value beyond). Not an estimate with an
 * interval: a description of the items as classified.
 */
final class Quantiles {
  /** One statistic: the result column, the statement column it is of, and the quantile. */
  record Spec(String name, String column, double q) {}

  private Quantiles() {}

  /** The option's statistics ({@code name=column@q}, comma-separated). */
  static List<Spec> parse(String option) {
    List<Spec> out = new ArrayList<>();
    if (option == null || option.isBlank()) {
      return out;
    }
    for (String part : option.split(",")) {
      String p = part.strip();
      int eq = p.indexOf('=');
      int at = p.indexOf('@');
      if (eq <= 0 || at <= eq + 1) {
        throw new IllegalArgumentException(
            "'@estimate quantiles' takes name=column@q, ...: not '" + p + "'");
      }
      double q = Double.parseDouble(p.substring(at + 1).strip());
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("a quantile lies in [0, 1]: '" + p + "'");
      }
      out.add(new Spec(p.substring(0, eq).strip(), p.substring(eq + 1, at).strip(), q));
    }
    return out;
  }

  /**
   * The weighted quantile {@code q} of the values (NaN where every weight is 0 or there is no
   * value).
   */
  static double weighted(double[] values, double[] weights, double q) {
    List<double[]> points = new ArrayList<>();
    double total = 0;
    for (int i = 0; i < values.length; i++) {
      if (weights[i] > 1e-12 && Double.isFinite(values[i])) {
        points.add(new double[] {values[i], weights[i]});
        total += weights[i];
      }
    }
    if (points.isEmpty()) {
      return Double.NaN;
    }
    points.sort((x, y) -> Double.compare(x[0], y[0]));
    double cumulative = 0;
    double previousAt = Double.NaN;
    double previous = Double.NaN;
    for (double[] p : points) {
      double at = (cumulative + p[1] / 2) / total;
      cumulative += p[1];
      if (q <= at) {
        if (Double.isNaN(previousAt)) {
          return p[0];
        }
        return previous + (p[0] - previous) * (q - previousAt) / (at - previousAt);
      }
      previousAt = at;
      previous = p[0];
    }
    return previous;
  }

  /** Adds each statistic to the kept rows' output, 2 decimals (null where there is none). */
  static void add(
      List<Spec> specs,
      List<Map<String, Object>> rows,
      List<Item> items,
      List<List<Object>> groups,
      GroupedEstimator.Spec spec,
      List<Row> kept,
      List<Map<String, Object>> out) {
    if (specs.isEmpty()) {
      return;
    }
    Map<List<Object>, List<Integer>> byGroup = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i) != null) {
        byGroup.computeIfAbsent(groups.get(i), g -> new ArrayList<>()).add(i);
      }
    }
    for (int r = 0; r < kept.size(); r++) {
      Row row = kept.get(r);
      List<Integer> members = byGroup.getOrDefault(row.group(), List.of());
      double[] w = new double[members.size()];
      for (int m = 0; m < w.length; m++) {
        w[m] = Weights.of(items.get(members.get(m)), spec, row.code(), row.code2(), row.code3());
      }
      for (Spec s : specs) {
        double[] v = new double[members.size()];
        for (int m = 0; m < v.length; m++) {
          Object value = rows.get(members.get(m)).get(s.column());
          v[m] = value instanceof Number n ? n.doubleValue() : Double.NaN;
        }
        out.get(r).put(s.name(), Output.round(weighted(v, w, s.q()), 2));
      }
    }
  }
}
