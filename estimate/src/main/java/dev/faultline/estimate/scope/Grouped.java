package dev.faultline.estimate.scope;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.group.GroupedEstimator;
import dev.faultline.estimate.group.GroupedEstimator.Mode;
import dev.faultline.estimate.group.Keep;
import dev.faultline.estimate.group.ModelError;
import dev.faultline.estimate.group.Row;
import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.ScopeEstimator;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code grouped} estimator: any counting query of the library as {@link GroupedEstimator}
 * rows. The query's header says what to count ({@code estimate/README.md}, "Estimated queries"):
 *
 * <pre>
 * // @estimator grouped
 * // @estimate dimension $dimension     -- the counted dimension (a parameter or a dimension key)
 * // @estimate pair $columns            -- optional: a second dimension; rows are code pairs
 * // @estimate third fixPattern         -- optional (with a pair): a third dimension; rows are
 * //                                       triples, a family a first code (column code3)
 * // @estimate group period             -- optional: statement columns that group the items
 * // @estimate kind $kind               -- optional: items of this kind (default every kind)
 * // @estimate mode $mode               -- optional: estimate (default), confident or all
 * // @estimate unknown $includeUnknown  -- optional: rows of UNKNOWN, NONE and null too (default true)
 * // @estimate minimum 0.05             -- optional: leave out estimated rows below this count
 * // @estimate zeros drop               -- optional: leave out counted rows of 0 (mode confident/all)
 * // @estimate top $limit               -- optional: the n largest rows of each group (of each code)
 * // @estimate codes BUG                -- optional: only the rows of these codes (comma-separated)
 * // @estimate subset open              -- optional: also estimate over the items whose column open
 * //                                       is true: columns openEstimate, openLow, openHigh (a
 * //                                       comma-separated list gives each its three columns)
 * // @estimate quantiles medianLines=lines@0.5  -- optional: weighted quantiles of a column over each
 * //                                       row's items ({@link Quantiles})
 * </pre>
 *
 * <p>A statement row whose {@code id} column is there and null is no item: it only names its group,
 * so a group without items (a release no issue was filed against, an empty age bucket) still has
 * its rows, with zero estimates. The {@code rank} column ranks each family's kept rows (a group's;
 * for a pair, a group's and first code's) by estimate, largest first, ties in the codes' order.
 *
 * <p>The statement returns one row per item: {@code kind, kindP, kindCalibration, kindPasses,
 * humanGiven}, the counted dimension's {@code top, p, calibration, passes} (a pair's second's
 * {@code top2, p2, calibration2, passes2}), the group columns, and for validation samples {@code
 * sample, sampleDrawn, samplePopulation} ({@link ItemModel}). The query declares its result columns
 * among: the group columns, {@code code}, {@code code2}, {@link #COLUMNS}.
 */
public final class Grouped implements ScopeEstimator {
  /** The name query headers give. */
  public static final String NAME = "grouped";

  /** The result columns besides the group columns, {@code code} and {@code code2}. */
  public static final List<String> COLUMNS =
      List.of(
          "rank",
          "estimate",
          "estimateLow",
          "estimateHigh",
          "share",
          "shareLow",
          "shareHigh",
          "method",
          "basis",
          "note",
          "labelled",
          "sampleSize",
          "inScope",
          "expectedInScope",
          "coverage");

  private static final Set<String> OPTIONS =
      Set.of(
          "dimension",
          "pair",
          "third",
          "group",
          "kind",
          "mode",
          "unknown",
          "minimum",
          "zeros",
          "top",
          "codes",
          "subset",
          "quantiles");

  private static final List<String> SAMPLE_COLUMNS =
      List.of("sample", "sampleDrawn", "samplePopulation");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void check(QueryDefinition query) {
    Map<String, String> o = query.estimatorOptions();
    for (String key : o.keySet()) {
      if (!OPTIONS.contains(key)) {
        throw new IllegalArgumentException(
            query.name() + ": unknown '@estimate " + key + "': use one of " + OPTIONS);
      }
    }
    if (!o.containsKey("dimension")) {
      throw new IllegalArgumentException(query.name() + ": '@estimate dimension' is required");
    }
    for (String value : o.values()) {
      if (value.startsWith("$") && query.parameter(value.substring(1)).isEmpty()) {
        throw new IllegalArgumentException(
            query.name() + ": '@estimate' names " + value + ", which the query does not declare");
      }
    }
    Set<String> provided = new LinkedHashSet<>(groupColumns(query));
    provided.add("code");
    if (o.containsKey("pair")) {
      provided.add("code2");
    }
    if (o.containsKey("third")) {
      provided.add("code3");
    }
    provided.addAll(COLUMNS);
    for (String subset : subsets(query)) {
      provided.addAll(List.of(subset + "Estimate", subset + "Low", subset + "High"));
    }
    Quantiles.parse(o.get("quantiles")).forEach(q -> provided.add(q.name()));
    for (String column : query.columnNames()) {
      if (!provided.contains(column)) {
        throw new IllegalArgumentException(
            query.name() + ": the grouped estimator gives no column '" + column + "'");
      }
    }
  }

  @Override
  public List<String> inputs(QueryDefinition query) {
    List<String> in =
        new ArrayList<>(model(query, Dimension.KIND, Dimension.KIND, Dimension.KIND).inputs());
    in.addAll(groupColumns(query));
    in.addAll(SAMPLE_COLUMNS);
    in.addAll(subsets(query));
    for (Quantiles.Spec q : Quantiles.parse(query.estimatorOptions().get("quantiles"))) {
      if (!in.contains(q.column())) {
        in.add(q.column());
      }
    }
    return in;
  }

  @Override
  public Set<String> parameters(QueryDefinition query) {
    Set<String> out = new LinkedHashSet<>();
    for (String value : query.estimatorOptions().values()) {
      if (value.startsWith("$")) {
        out.add(value.substring(1));
      }
    }
    return out;
  }

  @Override
  public List<Map<String, Object>> estimate(
      QueryDefinition query, List<Map<String, Object>> rows, Map<String, Object> parameters) {
    Options o = Options.of(query, parameters);
    ItemModel model = model(query, o.dimension(), o.pair(), o.third());
    List<Item> items = new ArrayList<>(rows.size());
    for (Map<String, Object> r : rows) {
      items.add(r.containsKey("id") && r.get("id") == null ? null : model.item(r));
    }
    List<String> groupColumns = groupColumns(query);
    List<List<Object>> groups = new ArrayList<>(rows.size());
    for (Map<String, Object> r : rows) {
      List<Object> key = new ArrayList<>(groupColumns.size());
      groupColumns.forEach(c -> key.add(r.get(c)));
      groups.add(key);
    }
    GroupedEstimator.Spec spec =
        new GroupedEstimator.Spec(
            o.dimension(), o.pair(), o.kind(), o.mode(), ModelError.shipped(), o.third());
    List<Row> estimated = GroupedEstimator.estimate(items, groups, spec, keep(o));
    List<Row> kept = kept(estimated, o);
    List<Map<String, Object>> out =
        Output.rows(query, groupColumns, kept, ranks(kept), coverage(estimated, o));
    for (String subset : subsets(query)) {
      subset(subset, rows, items, groups, spec, kept, out);
    }
    Quantiles.add(
        Quantiles.parse(query.estimatorOptions().get("quantiles")),
        rows,
        items,
        groups,
        spec,
        kept,
        out);
    return out;
  }

  /**
   * The same estimate over the items whose column {@code subset} is true (the others only name
   * their groups), as the columns {@code <subset>Estimate}, {@code <subset>Low}, {@code
   * <subset>High} of the kept rows.
   */
  private static void subset(
      String subset,
      List<Map<String, Object>> rows,
      List<Item> items,
      List<List<Object>> groups,
      GroupedEstimator.Spec spec,
      List<Row> kept,
      List<Map<String, Object>> out) {
    List<Item> members = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      members.add(Boolean.TRUE.equals(rows.get(i).get(subset)) ? items.get(i) : null);
    }
    Map<List<Object>, Row> byCell = new LinkedHashMap<>();
    for (Row r : GroupedEstimator.estimate(members, groups, spec)) {
      byCell.put(cell(r), r);
    }
    for (int i = 0; i < kept.size(); i++) {
      Row r = byCell.get(cell(kept.get(i)));
      Map<String, Object> row = out.get(i);
      row.put(subset + "Estimate", Output.round(r.estimate(), 1));
      row.put(subset + "Low", Output.round(r.estimateLow(), 1));
      row.put(subset + "High", Output.round(r.estimateHigh(), 1));
    }
  }

  private static List<Object> cell(Row r) {
    List<Object> key = new ArrayList<>(r.group());
    key.add(r.code());
    key.add(r.code2());
    key.add(r.code3());
    return key;
  }

  private static ItemModel model(QueryDefinition query, Dimension d, Dimension d2, Dimension d3) {
    boolean pair = query.estimatorOptions().containsKey("pair");
    if (pair && query.estimatorOptions().containsKey("third")) {
      return ItemModel.of(Field.primary(d), Field.secondary(d2), Field.tertiary(d3));
    }
    return pair
        ? ItemModel.of(Field.primary(d), Field.secondary(d2))
        : ItemModel.of(Field.primary(d));
  }

  /** The {@code subset} option's columns (comma-separated), in order. */
  static List<String> subsets(QueryDefinition query) {
    String s = query.estimatorOptions().get("subset");
    if (s == null || s.isBlank()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String c : s.split(",")) {
      out.add(c.strip());
    }
    return out;
  }

  static List<String> groupColumns(QueryDefinition query) {
    String g = query.estimatorOptions().get("group");
    if (g == null || g.isBlank()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String c : g.split(",")) {
      out.add(c.strip());
    }
    return out;
  }

  /**
   * The cells whose intervals the query can show ({@link #kept}'s rules): the estimator computes
   * only those. A filter of codes can drop a family's larger cells, so with one the top is not
   * passed on.
   */
  static Keep keep(Options o) {
    if (o.mode() != Mode.ESTIMATE) {
      return Keep.ALL;
    }
    return new Keep(o.minimum(), o.codes() == null ? o.top() : null, !o.unknown());
  }

  /** The rows a query keeps: known codes only if asked, above the minimum, the top n. */
  private static List<Row> kept(List<Row> rows, Options o) {
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      boolean known = known(r);
      boolean counted = o.mode() != Mode.ESTIMATE;
      if ((!o.unknown() && !known)
          || (o.codes() != null && !o.codes().contains(r.code()))
          || (!counted && r.estimate() < o.minimum())
          || (counted && o.dropZeros() && r.estimate() == 0)) {
        continue;
      }
      out.add(r);
    }
    List<Row> top = out;
    if (o.top() != null) {
      top = new ArrayList<>();
      for (List<Row> family : families(out).values()) {
        family.stream()
            .sorted(Comparator.comparingDouble(Row::estimate).reversed())
            .limit(o.top())
            .forEach(top::add);
      }
    }
    for (Row r : top) {
      if (Keep.NOTE.equals(r.note())) {
        throw new IllegalStateException("a kept row was left without intervals: " + r);
      }
    }
    return top;
  }

  /** Whether a row's codes are all known (not UNKNOWN, NONE or null). */
  private static boolean known(Row r) {
    return !Codes.NOT_KNOWN.contains(r.code())
        && (r.code2() == null || !Codes.NOT_KNOWN.contains(r.code2()))
        && (r.code3() == null || !Codes.NOT_KNOWN.contains(r.code3()));
  }

  /** The rows by family: a group's, for a pair a group's and first code's, in order. */
  private static Map<List<Object>, List<Row>> families(List<Row> rows) {
    Map<List<Object>, List<Row>> byFamily = new LinkedHashMap<>();
    for (Row r : rows) {
      List<Object> family = new ArrayList<>(r.group());
      if (r.code2() != null) {
        family.add(r.code());
      }
      byFamily.computeIfAbsent(family, f -> new ArrayList<>()).add(r);
    }
    return byFamily;
  }

  /** Each kept row's rank in its family by estimate, largest first (ties in the rows' order). */
  private static Map<Row, Integer> ranks(List<Row> rows) {
    Map<Row, Integer> out = new IdentityHashMap<>();
    for (List<Row> family : families(rows).values()) {
      List<Row> sorted = new ArrayList<>(family);
      sorted.sort(Comparator.comparingDouble(Row::estimate).reversed());
      for (int i = 0; i < sorted.size(); i++) {
        out.put(sorted.get(i), i + 1);
      }
    }
    return out;
  }

  /** Per group, the items whose labels of the known codes pass the bar / the items. */
  private static Map<List<Object>, Double> coverage(List<Row> rows, Options o) {
    Map<List<Object>, long[]> sums = new LinkedHashMap<>();
    for (Row r : rows) {
      long[] s = sums.computeIfAbsent(r.group(), g -> new long[] {0, r.items()});
      boolean known = known(r);
      s[0] += known ? r.labelled() : 0;
    }
    Map<List<Object>, Double> out = new LinkedHashMap<>();
    sums.forEach((g, s) -> out.put(g, s[1] == 0 ? null : Math.round(s[0] * 1e4 / s[1]) / 1e4));
    return out;
  }

  /** A query's options with its parameters bound. */
  record Options(
      Dimension dimension,
      Dimension pair,
      Dimension third,
      String kind,
      Mode mode,
      boolean unknown,
      double minimum,
      boolean dropZeros,
      Integer top,
      Set<String> codes) {
    static Options of(QueryDefinition query, Map<String, Object> parameters) {
      Map<String, String> o = query.estimatorOptions();
      Dimension d = dimension(value(o.get("dimension"), parameters));
      Dimension d2 = o.containsKey("pair") ? dimension(value(o.get("pair"), parameters)) : null;
      Dimension d3 = o.containsKey("third") ? dimension(value(o.get("third"), parameters)) : null;
      Object kind = value(o.get("kind"), parameters);
      Object mode = value(o.get("mode"), parameters);
      Object unknown = value(o.get("unknown"), parameters);
      Object minimum = value(o.get("minimum"), parameters);
      Object top = value(o.get("top"), parameters);
      Object codes = value(o.get("codes"), parameters);
      return new Options(
          d,
          d2,
          d3,
          kind == null || kind.equals("null") ? null : String.valueOf(kind),
          Mode.parse(mode == null ? null : String.valueOf(mode)),
          unknown == null || Boolean.parseBoolean(String.valueOf(unknown)),
          minimum == null ? Double.NEGATIVE_INFINITY : Double.parseDouble(String.valueOf(minimum)),
          "drop".equals(o.get("zeros")),
          top == null ? null : Integer.valueOf(String.valueOf(top)),
          codes == null ? null : codeSet(String.valueOf(codes)));
    }

    private static Set<String> codeSet(String list) {
      Set<String> out = new LinkedHashSet<>();
      for (String c : list.split(",")) {
        out.add(c.strip());
      }
      return out;
    }

    private static Object value(String option, Map<String, Object> parameters) {
      if (option == null) {
        return null;
      }
      return option.startsWith("$") ? parameters.get(option.substring(1)) : option;
    }

    private static Dimension dimension(Object key) {
      return Dimension.ofKey(String.valueOf(key))
          .orElseThrow(() -> new IllegalArgumentException("unknown dimension " + key));
    }
  }
}
