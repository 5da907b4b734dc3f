package dev.faultline.dashboard;

import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Pure reshaping of query rows into what the charts draw; no I/O, so tested without a server. */
final class Shapes {
  /**
   * Categories drawn as their own series in a trend chart; the rest are summed as {@link #OTHER}.
   */
  static final int MAX_SERIES = 8;

  static final String OTHER = "OTHER";

  private Shapes() {}

  /**
   * {@code category-trends} rows ({@code period, code, estimate}: an expected count, or a count of
   * labels with {@code mode=confident}) as one series per code over every period from the first to
   * the last, {@code step} apart (a period without issues is there with zeros, so the time axis
   * stays linear), zero-filled; the {@link #MAX_SERIES} largest codes by total kept apart, the rest
   * summed as {@code OTHER}. Series are ordered by total, largest first (ties by code); values to 1
   * decimal.
   *
   * @param step the bucket: a week or a month (periods are ISO dates of their first day)
   */
  static Map<String, Object> trendSeries(List<Map<String, Object>> rows, Period step) {
    TreeSet<String> periodSet = new TreeSet<>();
    Map<String, Map<String, Double>> byCategory = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      String period = String.valueOf(row.get("period"));
      String category = String.valueOf(row.get("code"));
      double issues = ((Number) row.get("estimate")).doubleValue();
      periodSet.add(period);
      byCategory
          .computeIfAbsent(category, c -> new LinkedHashMap<>())
          .merge(period, issues, Double::sum);
    }
    List<String> periods = withEmptyPeriods(periodSet, step);
    List<Map.Entry<String, Double>> totals = new ArrayList<>();
    byCategory.forEach(
        (c, counts) ->
            totals.add(
                Map.entry(c, counts.values().stream().mapToDouble(Double::doubleValue).sum())));
    totals.sort(
        Map.Entry.<String, Double>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    List<Map<String, Object>> series = new ArrayList<>();
    double[] other = new double[periods.size()];
    boolean hasOther = false;
    for (int rank = 0; rank < totals.size(); rank++) {
      String category = totals.get(rank).getKey();
      Map<String, Double> counts = byCategory.get(category);
      if (rank < MAX_SERIES) {
        List<Double> values =
            periods.stream().map(p -> round1(counts.getOrDefault(p, 0.0))).toList();
        series.add(seriesOf(category, values, totals.get(rank).getValue()));
      } else {
        hasOther = true;
        for (int p = 0; p < periods.size(); p++) {
          other[p] += counts.getOrDefault(periods.get(p), 0.0);
        }
      }
    }
    if (hasOther) {
      List<Double> values = new ArrayList<>();
      double total = 0;
      for (double v : other) {
        values.add(round1(v));
        total += v;
      }
      series.add(seriesOf(OTHER, values, total));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("periods", periods);
    out.put("series", series);
    out.put("total", round1(totals.stream().mapToDouble(Map.Entry::getValue).sum()));
    return out;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /** The periods and every {@code step} between the first and the last of them, sorted. */
  private static List<String> withEmptyPeriods(TreeSet<String> periods, Period step) {
    TreeSet<String> all = new TreeSet<>(periods);
    if (!periods.isEmpty()) {
      LocalDate last = LocalDate.parse(periods.last());
      for (LocalDate d = LocalDate.parse(periods.first()); d.isBefore(last); d = d.plus(step)) {
        all.add(d.toString());
      }
    }
    return List.copyOf(all);
  }

  private static Map<String, Object> seriesOf(String category, List<Double> values, double total) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("category", category);
    m.put("counts", values);
    m.put("total", round1(total));
    return m;
  }

  /**
   * {@code stage-symptom-matrix} rows ({@code stage, symptomClass, symptom, issues}) as a matrix:
   * stages and symptoms ordered by their totals (largest first, ties by code), {@code
   * cells[stage][symptom]} counts, 0 for empty cells.
   */
  static Map<String, Object> heatMap(List<Map<String, Object>> rows) {
    Map<String, Long> stageTotals = new LinkedHashMap<>();
    Map<String, Long> symptomTotals = new LinkedHashMap<>();
    Map<String, String> symptomClass = new LinkedHashMap<>();
    Map<String, Long> cell = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      String stage = String.valueOf(row.get("stage"));
      String symptom = String.valueOf(row.get("symptom"));
      long issues = ((Number) row.get("issues")).longValue();
      stageTotals.merge(stage, issues, Long::sum);
      symptomTotals.merge(symptom, issues, Long::sum);
      symptomClass.putIfAbsent(symptom, (String) row.get("symptomClass"));
      cell.merge(stage + "\u0000" + symptom, issues, Long::sum);
    }
    List<String> stages = byTotal(stageTotals);
    List<String> symptoms = byTotal(symptomTotals);
    List<List<Long>> cells = new ArrayList<>();
    long max = 0;
    for (String st : stages) {
      List<Long> line = new ArrayList<>();
      for (String sy : symptoms) {
        long v = cell.getOrDefault(st + "\u0000" + sy, 0L);
        max = Math.max(max, v);
        line.add(v);
      }
      cells.add(line);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("stages", stages);
    out.put("symptoms", symptoms);
    out.put("symptomClasses", symptoms.stream().map(symptomClass::get).toList());
    out.put("cells", cells);
    out.put("stageTotals", stages.stream().map(stageTotals::get).toList());
    out.put("symptomTotals", symptoms.stream().map(symptomTotals::get).toList());
    out.put("max", max);
    out.put("total", stageTotals.values().stream().mapToLong(Long::longValue).sum());
    return out;
  }

  /**
   * {@code category-pairs} rows of stage × symptom ({@code code, code2, estimate, estimateLow,
   * estimateHigh}) as the heat map's matrix: the same shape as {@link #heatMap} with expected
   * counts (1 decimal) in {@code cells} and their 90% intervals in {@code low} and {@code high}.
   */
  static Map<String, Object> estimateHeatMap(
      List<Map<String, Object>> rows, java.util.function.Function<String, String> symptomClassOf) {
    Map<String, Double> stageTotals = new LinkedHashMap<>();
    Map<String, Double> symptomTotals = new LinkedHashMap<>();
    Map<String, Map<String, Object>> cell = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      String stage = String.valueOf(row.get("code"));
      String symptom = String.valueOf(row.get("code2"));
      double v = ((Number) row.get("estimate")).doubleValue();
      stageTotals.merge(stage, v, Double::sum);
      symptomTotals.merge(symptom, v, Double::sum);
      cell.put(stage + "\u0000" + symptom, row);
    }
    List<String> stages = byValue(stageTotals);
    List<String> symptoms = byValue(symptomTotals);
    List<List<Double>> cells = new ArrayList<>();
    List<List<Object>> low = new ArrayList<>();
    List<List<Object>> high = new ArrayList<>();
    double max = 0;
    for (String st : stages) {
      List<Double> line = new ArrayList<>();
      List<Object> lo = new ArrayList<>();
      List<Object> hi = new ArrayList<>();
      for (String sy : symptoms) {
        Map<String, Object> r = cell.get(st + "\u0000" + sy);
        double v = r == null ? 0 : ((Number) r.get("estimate")).doubleValue();
        max = Math.max(max, v);
        line.add(v);
        lo.add(r == null ? null : r.get("estimateLow"));
        hi.add(r == null ? null : r.get("estimateHigh"));
      }
      cells.add(line);
      low.add(lo);
      high.add(hi);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("stages", stages);
    out.put("symptoms", symptoms);
    out.put("symptomClasses", symptoms.stream().map(symptomClassOf).toList());
    out.put("cells", cells);
    out.put("low", low);
    out.put("high", high);
    out.put("max", max);
    out.put(
        "total",
        Math.round(stageTotals.values().stream().mapToDouble(Double::doubleValue).sum() * 10)
            / 10.0);
    out.put("method", rows.isEmpty() ? null : rows.get(0).get("method"));
    return out;
  }

  private static List<String> byValue(Map<String, Double> totals) {
    return totals.entrySet().stream()
        .sorted(
            Map.Entry.<String, Double>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * {@code fix-pattern-per-symptom} rows ({@code symptom, fixPattern, fixes, fromIssues,
   * shareOfSymptom, medianLines}) as a matrix: symptoms and fix patterns ordered by their totals
   * (largest first, ties by code), {@code cells[symptom][fixPattern]} counts, 0 for empty cells;
   * the rows themselves kept as {@code rows} (fix sizes, shares).
   */
  static Map<String, Object> fixPatterns(List<Map<String, Object>> rows) {
    Map<String, Long> symptomTotals = new LinkedHashMap<>();
    Map<String, Long> patternTotals = new LinkedHashMap<>();
    Map<String, Long> cell = new LinkedHashMap<>();
    List<Map<String, Object>> kept = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      String symptom = String.valueOf(row.get("symptom"));
      String pattern = String.valueOf(row.get("fixPattern"));
      long fixes = ((Number) row.get("fixes")).longValue();
      symptomTotals.merge(symptom, fixes, Long::sum);
      patternTotals.merge(pattern, fixes, Long::sum);
      cell.merge(symptom + "\u0000" + pattern, fixes, Long::sum);
      Map<String, Object> r = new LinkedHashMap<>();
      for (String column :
          List.of(
              "symptom", "fixPattern", "fixes", "fromIssues", "shareOfSymptom", "medianLines")) {
        r.put(column, row.get(column));
      }
      kept.add(r);
    }
    List<String> symptoms = byTotal(symptomTotals);
    List<String> patterns = byTotal(patternTotals);
    List<List<Long>> cells = new ArrayList<>();
    long max = 0;
    for (String sy : symptoms) {
      List<Long> line = new ArrayList<>();
      for (String fp : patterns) {
        long v = cell.getOrDefault(sy + "\u0000" + fp, 0L);
        max = Math.max(max, v);
        line.add(v);
      }
      cells.add(line);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("symptoms", symptoms);
    out.put("fixPatterns", patterns);
    out.put("cells", cells);
    out.put("symptomTotals", symptoms.stream().map(symptomTotals::get).toList());
    out.put("fixPatternTotals", patterns.stream().map(patternTotals::get).toList());
    out.put("max", max);
    out.put("total", symptomTotals.values().stream().mapToLong(Long::longValue).sum());
    out.put("rows", kept);
    return out;
  }

  private static List<String> byTotal(Map<String, Long> totals) {
    return totals.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * {@code label-sources} rows ({@code dimension, source, version, labels, share, …}, grouped by
   * dimension in the query's order) as one entry per dimension: {@code {dimension, labels,
   * sources}} with the dimension's labels in scope and its rows, each without the dimension.
   */
  static List<Map<String, Object>> labelSources(List<Map<String, Object>> rows) {
    Map<String, Map<String, Object>> byDimension = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      String dimension = String.valueOf(row.get("dimension"));
      Map<String, Object> entry =
          byDimension.computeIfAbsent(
              dimension,
              d -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("dimension", d);
                m.put("labels", 0L);
                m.put("sources", new ArrayList<Map<String, Object>>());
                return m;
              });
      entry.put("labels", (Long) entry.get("labels") + ((Number) row.get("labels")).longValue());
      Map<String, Object> source = new LinkedHashMap<>(row);
      source.remove("dimension");
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> sources = (List<Map<String, Object>>) entry.get("sources");
      sources.add(source);
    }
    return new ArrayList<>(byDimension.values());
  }
}
