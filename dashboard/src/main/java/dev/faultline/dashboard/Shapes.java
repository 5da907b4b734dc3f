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
   * summed as {@code OTHER}; a code whose total is 0 (estimated rows include every code) has no
   * series. Series are ordered by total, largest first (ties by code); values to 1 decimal. A
   * series kept apart carries each point's 90% interval in {@code low} and {@code high} (a period
   * without a row: 0–0; null for counts of labels, and for {@code OTHER}, whose sum of estimates
   * has no interval here).
   *
   * @param step the bucket: a week or a month (periods are ISO dates of their first day)
   */
  static Map<String, Object> trendSeries(List<Map<String, Object>> rows, Period step) {
    TreeSet<String> periodSet = new TreeSet<>();
    Map<String, Map<String, Double>> byCategory = new LinkedHashMap<>();
    Map<String, Map<String, Object>> lows = new LinkedHashMap<>();
    Map<String, Map<String, Object>> highs = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      String period = String.valueOf(row.get("period"));
      String category = String.valueOf(row.get("code"));
      double issues = ((Number) row.get("estimate")).doubleValue();
      periodSet.add(period);
      byCategory
          .computeIfAbsent(category, c -> new LinkedHashMap<>())
          .merge(period, issues, Double::sum);
      lows.computeIfAbsent(category, c -> new LinkedHashMap<>())
          .put(period, row.get("estimateLow"));
      highs
          .computeIfAbsent(category, c -> new LinkedHashMap<>())
          .put(period, row.get("estimateHigh"));
    }
    List<String> periods = withEmptyPeriods(periodSet, step);
    List<Map.Entry<String, Double>> totals = new ArrayList<>();
    byCategory.forEach(
        (c, counts) ->
            totals.add(
                Map.entry(c, counts.values().stream().mapToDouble(Double::doubleValue).sum())));
    // a code no issue of the scope can have (an estimate of 0) draws no series
    totals.removeIf(e -> e.getValue() <= 0);
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
        Map<String, Object> one = seriesOf(category, values, totals.get(rank).getValue());
        boolean intervals = lows.get(category).values().stream().anyMatch(v -> v != null);
        one.put("low", intervals ? band(periods, lows.get(category)) : null);
        one.put("high", intervals ? band(periods, highs.get(category)) : null);
        series.add(one);
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

  /** One end of a series' intervals over every period (0 where the period has no row). */
  private static List<Double> band(List<String> periods, Map<String, Object> ends) {
    return periods.stream()
        .map(p -> ends.get(p) == null ? 0.0 : round1(((Number) ends.get(p)).doubleValue()))
        .toList();
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
    m.put("low", null);
    m.put("high", null);
    return m;
  }

  /**
   * A {@code new-bugs-per-release} row as the release view shows it: {@code bugs} the expected
   * number of bug reports filed against the release (with {@code mode=confident}, the count of BUG
   * labels above the bar) with its 90% interval {@code bugsLow}–{@code bugsHigh}, {@code openBugs}
   * likewise among the issues still open, the method, basis and note, and the coverage columns.
   */
  static Map<String, Object> release(Map<String, Object> row) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String c :
        List.of("framework", "release", "version", "tag", "publishedAt", "prerelease")) {
      out.put(c, row.get(c));
    }
    out.put("bugs", row.get("estimate"));
    out.put("bugsLow", row.get("estimateLow"));
    out.put("bugsHigh", row.get("estimateHigh"));
    out.put("openBugs", row.get("openEstimate") == null ? 0.0 : row.get("openEstimate"));
    out.put("openLow", row.get("openLow"));
    out.put("openHigh", row.get("openHigh"));
    for (String c : List.of("method", "basis", "note", "inScope", "labelled", "coverage")) {
      out.put(c, row.get(c));
    }
    return out;
  }

  /**
   * {@code stage-symptom-matrix} (or {@code category-pairs}) rows of stage × symptom ({@code code,
   * code2, estimate, estimateLow, estimateHigh}) as the heat map's matrix: stages and symptoms
   * ordered by their totals (largest first, ties by code), expected counts (1 decimal; with {@code
   * mode=confident} counts of labels) in {@code cells[stage][symptom]}, 0 for an absent cell, and
   * their 90% intervals in {@code low} and {@code high} (null for a count of labels).
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
   * {@code fix-pattern-per-symptom} rows ({@code code} the symptom, {@code code2} the fix pattern,
   * {@code estimate} the expected number of merged fixes, or the count of labels with
   * mode=confident; issue #31) as a matrix: symptoms and fix patterns ordered by their totals
   * (largest first, ties by code), {@code cells[symptom][fixPattern]} expected fixes to 1 decimal,
   * 0 for empty cells; the rows kept as {@code rows} under the panel's names ({@code symptom,
   * fixPattern, fixes, fixesLow, fixesHigh, fromIssues, shareOfSymptom, medianLines}).
   */
  static Map<String, Object> fixPatterns(List<Map<String, Object>> rows) {
    Map<String, Double> symptomTotals = new LinkedHashMap<>();
    Map<String, Double> patternTotals = new LinkedHashMap<>();
    Map<String, Double> cell = new LinkedHashMap<>();
    List<Map<String, Object>> kept = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      String symptom = String.valueOf(row.get("code"));
      String pattern = String.valueOf(row.get("code2"));
      double fixes = ((Number) row.get("estimate")).doubleValue();
      symptomTotals.merge(symptom, fixes, Double::sum);
      patternTotals.merge(pattern, fixes, Double::sum);
      cell.merge(symptom + "\u0000" + pattern, fixes, Double::sum);
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("symptom", symptom);
      r.put("fixPattern", pattern);
      r.put("fixes", row.get("estimate"));
      r.put("fixesLow", row.get("estimateLow"));
      r.put("fixesHigh", row.get("estimateHigh"));
      r.put("fromIssues", row.get("fromIssueEstimate"));
      r.put("shareOfSymptom", row.get("share"));
      r.put("medianLines", row.get("medianLines"));
      kept.add(r);
    }
    List<String> symptoms = byTotal(symptomTotals);
    List<String> patterns = byTotal(patternTotals);
    List<List<Double>> cells = new ArrayList<>();
    double max = 0;
    for (String sy : symptoms) {
      List<Double> line = new ArrayList<>();
      for (String fp : patterns) {
        double v = cell.getOrDefault(sy + "\u0000" + fp, 0.0);
        max = Math.max(max, v);
        line.add(oneDecimal(v));
      }
      cells.add(line);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("symptoms", symptoms);
    out.put("fixPatterns", patterns);
    out.put("cells", cells);
    out.put("symptomTotals", symptoms.stream().map(k -> oneDecimal(symptomTotals.get(k))).toList());
    out.put(
        "fixPatternTotals", patterns.stream().map(k -> oneDecimal(patternTotals.get(k))).toList());
    out.put("max", oneDecimal(max));
    out.put(
        "total",
        oneDecimal(symptomTotals.values().stream().mapToDouble(Double::doubleValue).sum()));
    out.put("rows", kept);
    return out;
  }

  private static double oneDecimal(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private static List<String> byTotal(Map<String, Double> totals) {
    return totals.entrySet().stream()
        .sorted(
            Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
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
