package dev.faultline.estimate.scope;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.JointTable;
import dev.faultline.graph.query.ScopeEstimator;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code category-pairs} query's arithmetic: a two-dimension table of expected counts over the
 * issues of a kind. Each issue's probability of a cell is P(kind) × P(row code | kind) × P(column
 * code | kind), the two codes taken as independent given the issue (the product of the marginals:
 * the classifier gives no joint; {@link JointTable}). For a dimension the codebook gives only bug
 * reports (its NONE or UNKNOWN mass is the rest), P(code | bug) is its distribution over the other
 * codes renormalised; for the others, P(code | kind) is its distribution as it is.
 */
public final class CategoryPairs implements ScopeEstimator {
  static final String NAME = "category-pairs";
  static final double LEVEL = 0.9;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> inputs() {
    return List.of(
        "rowTop", "rowP", "columnTop", "columnP", "topKind", "kindP", "passes", "kindPasses");
  }

  @Override
  public Set<String> parameters() {
    return Set.of("rows", "columns", "kind", "mode");
  }

  /** One axis of the table: its dimension, codes and each item's distribution given the kind. */
  private record Axis(Dimension dimension, List<String> codes, double[][] given) {
    static Axis of(Object key, List<Map<String, Object>> items, String top, String p, String kind) {
      Dimension d =
          Dimension.ofKey((String) key)
              .orElseThrow(() -> new IllegalArgumentException("unknown dimension " + key));
      List<String> codes = ItemDistributions.codes(d);
      double[][] given = new double[items.size()][];
      for (int i = 0; i < items.size(); i++) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("p", items.get(i).get(p));
        view.put("top", items.get(i).get(top));
        double[] dist = ItemDistributions.distribution(view, d, codes);
        given[i] =
            "BUG".equals(kind) && CategoryShares.onlyForBugs(d) ? givenBug(dist, codes) : dist;
      }
      return new Axis(d, codes, given);
    }

    /**
     * The distribution given a bug report: NONE's mass (not a bug) left out, the rest renormalised.
     */
    private static double[] givenBug(double[] dist, List<String> codes) {
      int none = codes.indexOf("NONE");
      double rest = 1 - (none < 0 ? 0 : dist[none]);
      double[] out = new double[dist.length];
      if (rest <= 1e-9) {
        out[codes.contains("UNKNOWN") ? codes.indexOf("UNKNOWN") : codes.indexOf("null")] = 1;
        return out;
      }
      for (int k = 0; k < dist.length; k++) {
        out[k] = k == none ? 0 : dist[k] / rest;
      }
      return out;
    }

    boolean known(int k) {
      return !Codes.NOT_KNOWN.contains(codes.get(k));
    }
  }

  @Override
  public List<Map<String, Object>> estimate(
      List<Map<String, Object>> items, Map<String, Object> parameters) {
    String kind = (String) parameters.get("kind");
    String mode = parameters.get("mode") == null ? "estimate" : (String) parameters.get("mode");
    Axis rows = Axis.of(parameters.get("rows"), items, "rowTop", "rowP", kind);
    Axis columns = Axis.of(parameters.get("columns"), items, "columnTop", "columnP", kind);
    int n = items.size();
    long[][] labelled = new long[rows.codes().size()][columns.codes().size()];
    long[][] top = new long[rows.codes().size()][columns.codes().size()];
    double[][] weighted = new double[n][];
    for (int i = 0; i < n; i++) {
      Map<String, Object> item = items.get(i);
      double w =
          kind == null
              ? 1
              : ItemDistributions.probabilityOf(item, "kindP", "topKind", Dimension.KIND, kind);
      // the row axis carries the kind: w × P(row | kind), the rest of the mass on "not the kind"
      double[] r = new double[rows.codes().size() + 1];
      for (int k = 0; k < rows.codes().size(); k++) {
        r[k] = w * rows.given()[i][k];
      }
      r[rows.codes().size()] = Math.max(0, 1 - w);
      weighted[i] = r;
      countLabels(item, kind, rows, columns, top, labelled);
    }
    List<Map<String, Object>> out =
        switch (mode) {
          case "estimate" -> estimated(rows, columns, weighted, labelled, n);
          case "confident" ->
              counted(rows, columns, labelled, labelled, "count of labels above the bar", n);
          case "all" -> counted(rows, columns, top, labelled, "count of top labels", n);
          default ->
              throw new IllegalArgumentException(
                  "mode must be estimate, confident or all, not '" + mode + "'");
        };
    long confident = 0;
    for (int a = 0; a < rows.codes().size(); a++) {
      for (int b = 0; b < columns.codes().size(); b++) {
        confident += rows.known(a) && columns.known(b) ? labelled[a][b] : 0;
      }
    }
    Double coverage = n == 0 ? null : Math.round(confident * 10000.0 / n) / 10000.0;
    out.forEach(r -> r.put("coverage", coverage));
    out.sort(
        (x, y) -> {
          int byCount = Double.compare((Double) y.get("estimate"), (Double) x.get("estimate"));
          return byCount != 0
              ? byCount
              : (x.get("row") + "/" + x.get("column"))
                  .compareTo(y.get("row") + "/" + y.get("column"));
        });
    return out;
  }

  /**
   * The cells of known codes with an expected count of at least 0.05, from the joint table of the
   * kind-weighted rows and the columns.
   */
  private static List<Map<String, Object>> estimated(
      Axis rows, Axis columns, double[][] weighted, long[][] labelled, int n) {
    List<Map<String, Object>> out = new ArrayList<>();
    List<String> rowCodes = new ArrayList<>(rows.codes());
    rowCodes.add(CategoryShares.OTHER_KIND);
    List<JointTable.Cell> cells =
        JointTable.estimate(
            Codes.of(rowCodes),
            normalised(weighted),
            Codes.of(columns.codes()),
            columns.given(),
            LEVEL);
    for (JointTable.Cell c : cells) {
      int a = rows.codes().indexOf(c.row());
      int b = columns.codes().indexOf(c.column());
      if (a < 0 || !rows.known(a) || !columns.known(b) || c.count() < 0.05) {
        continue;
      }
      out.add(
          row(
              c.row(),
              c.column(),
              c.count(),
              c.countLow(),
              c.countHigh(),
              labelled[a][b],
              c.method(),
              n));
    }
    return out;
  }

  /** The cells of known codes with a positive count of labels. */
  private static List<Map<String, Object>> counted(
      Axis rows, Axis columns, long[][] counts, long[][] labelled, String method, int n) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int a = 0; a < rows.codes().size(); a++) {
      for (int b = 0; b < columns.codes().size(); b++) {
        if (counts[a][b] > 0 && rows.known(a) && columns.known(b)) {
          out.add(
              row(
                  rows.codes().get(a),
                  columns.codes().get(b),
                  counts[a][b],
                  Double.NaN,
                  Double.NaN,
                  labelled[a][b],
                  method,
                  n));
        }
      }
    }
    return out;
  }

  private static void countLabels(
      Map<String, Object> item,
      String kind,
      Axis rows,
      Axis columns,
      long[][] top,
      long[][] labelled) {
    int a = rows.codes().indexOf(topCode(item.get("rowTop"), rows));
    int b = columns.codes().indexOf(topCode(item.get("columnTop"), columns));
    boolean kindMatches = kind == null || kind.equals(item.get("topKind"));
    if (a < 0 || b < 0 || !kindMatches) {
      return;
    }
    top[a][b]++;
    if (Boolean.TRUE.equals(item.get("passes"))
        && (kind == null || Boolean.TRUE.equals(item.get("kindPasses")))) {
      labelled[a][b]++;
    }
  }

  private static String topCode(Object top, Axis axis) {
    String code = top == null ? null : String.valueOf(top);
    return axis.dimension() == Dimension.DISTRIBUTED_SPECIFIC && "UNKNOWN".equals(code)
        ? "null"
        : code;
  }

  /** Rows rounded by storage may sum a hair off 1: renormalise before the strict check. */
  private static double[][] normalised(double[][] p) {
    for (double[] row : p) {
      double s = 0;
      for (double v : row) {
        s += v;
      }
      for (int k = 0; k < row.length; k++) {
        row[k] /= s;
      }
    }
    return p;
  }

  private static Map<String, Object> row(
      String r,
      String c,
      double estimate,
      double low,
      double high,
      long labelled,
      String method,
      int n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("row", r);
    m.put("column", c);
    m.put("estimate", round(estimate));
    m.put("estimateLow", Double.isFinite(low) ? round(low) : null);
    m.put("estimateHigh", Double.isFinite(high) ? round(high) : null);
    m.put("labelled", labelled);
    m.put("method", method);
    m.put("inScope", (long) n);
    return m;
  }

  private static Double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
