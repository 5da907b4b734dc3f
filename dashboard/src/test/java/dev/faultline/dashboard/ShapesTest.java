package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Period;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShapesTest {
  private static final Period MONTH = Period.ofMonths(1);

  private static Map<String, Object> trend(String period, String category, double estimate) {
    return Map.of("period", period, "code", category, "estimate", estimate);
  }

  @Test
  @SuppressWarnings("unchecked")
  void trendSeriesAreZeroFilledAndOrderedByTotal() {
    Map<String, Object> out =
        Shapes.trendSeries(
            List.of(
                trend("2024-01-01", "OOM", 1),
                trend("2024-02-01", "HANG", 2),
                trend("2024-01-01", "HANG", 1)),
            MONTH);
    assertEquals(List.of("2024-01-01", "2024-02-01"), out.get("periods"));
    List<Map<String, Object>> series = (List<Map<String, Object>>) out.get("series");
    assertEquals("HANG", series.get(0).get("category"));
    assertEquals(List.of(1.0, 2.0), series.get(0).get("counts"));
    assertEquals(List.of(1.0, 0.0), series.get(1).get("counts"));
    assertEquals(4.0, out.get("total"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void periodsWithoutIssuesStayOnTheTimeAxisAsZeros() {
    Map<String, Object> months =
        Shapes.trendSeries(
            List.of(trend("2024-01-01", "HANG", 1), trend("2024-04-01", "HANG", 2)), MONTH);
    assertEquals(
        List.of("2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"), months.get("periods"));
    assertEquals(
        List.of(1.0, 0.0, 0.0, 2.0),
        ((List<Map<String, Object>>) months.get("series")).get(0).get("counts"));
    Map<String, Object> weeks =
        Shapes.trendSeries(
            List.of(trend("2024-02-26", "HANG", 1), trend("2024-03-11", "OOM", 1)),
            Period.ofWeeks(1));
    assertEquals(List.of("2024-02-26", "2024-03-04", "2024-03-11"), weeks.get("periods"));
    assertEquals(List.of(), Shapes.trendSeries(List.of(), MONTH).get("periods"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void categoriesBeyondTheLargestAreSummedAsOther() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < Shapes.MAX_SERIES + 2; i++) {
      rows.add(trend("2024-01-01", "C" + i, 100 - i));
    }
    List<Map<String, Object>> series =
        (List<Map<String, Object>>) Shapes.trendSeries(rows, MONTH).get("series");
    assertEquals(Shapes.MAX_SERIES + 1, series.size());
    assertEquals(Shapes.OTHER, series.get(Shapes.MAX_SERIES).get("category"));
    assertEquals(
        (double) (100 - Shapes.MAX_SERIES) + (100 - Shapes.MAX_SERIES - 1),
        series.get(Shapes.MAX_SERIES).get("total"));
  }

  @Test
  void fixPatternsAreASymptomByPatternMatrixOrderedByTotalsWithTheRowsKept() {
    Map<String, Object> out =
        Shapes.fixPatterns(
            List.of(
                fixRow("CHECKPOINT_FAILURE", "CONDITIONAL_LOGIC", 1.3, 25.0),
                fixRow("HANG", "DISTRIBUTED_TUNING", 2.4, 4.0),
                fixRow("HANG", "VERSION_DEPENDENCY_MANAGEMENT", 0.7, 4.0)));
    assertEquals(List.of("HANG", "CHECKPOINT_FAILURE"), out.get("symptoms"));
    assertEquals(
        List.of("DISTRIBUTED_TUNING", "CONDITIONAL_LOGIC", "VERSION_DEPENDENCY_MANAGEMENT"),
        out.get("fixPatterns"));
    assertEquals(List.of(List.of(2.4, 0.0, 0.7), List.of(0.0, 1.3, 0.0)), out.get("cells"));
    assertEquals(List.of(3.1, 1.3), out.get("symptomTotals"));
    assertEquals(List.of(2.4, 1.3, 0.7), out.get("fixPatternTotals"));
    assertEquals(2.4, out.get("max"));
    assertEquals(4.4, out.get("total"));
    List<?> rows = (List<?>) out.get("rows");
    assertEquals(3, rows.size());
    Map<?, ?> hang = (Map<?, ?>) rows.get(1);
    assertEquals("HANG", hang.get("symptom"));
    assertEquals(2.4, hang.get("fixes"));
    assertEquals(1.0, hang.get("fixesLow"));
    assertEquals(0.5, hang.get("shareOfSymptom"));
  }

  /** A fix-pattern-per-symptom row as the grouped estimator gives it. */
  private static Map<String, Object> fixRow(
      String symptom, String fixPattern, double fixes, double medianLines) {
    Map<String, Object> m = new java.util.HashMap<>();
    m.put("code", symptom);
    m.put("code2", fixPattern);
    m.put("estimate", fixes);
    m.put("estimateLow", 1.0);
    m.put("estimateHigh", 4.0);
    m.put("fromIssueEstimate", fixes);
    m.put("share", 0.5);
    m.put("medianLines", medianLines);
    m.put("inScope", 4L);
    return m;
  }

  @Test
  void heatMapIsAMatrixWithZeroForEmptyCellsAndEachCellsInterval() {
    Map<String, Object> hang = new java.util.HashMap<>();
    hang.put("code", "COMMUNICATION");
    hang.put("code2", "HANG");
    hang.put("estimate", 2.5);
    hang.put("estimateLow", 1.0);
    hang.put("estimateHigh", 4.0);
    Map<String, Object> oom = new java.util.HashMap<>();
    oom.put("code", "MEMORY");
    oom.put("code2", "OUT_OF_MEMORY");
    oom.put("estimate", 1.0);
    oom.put("estimateLow", null);
    oom.put("estimateHigh", null);
    Map<String, Object> out =
        Shapes.estimateHeatMap(List.of(hang, oom), s -> s.equals("HANG") ? "HANG" : "CRASH");
    assertEquals(List.of("COMMUNICATION", "MEMORY"), out.get("stages"));
    assertEquals(List.of("HANG", "OUT_OF_MEMORY"), out.get("symptoms"));
    assertEquals(List.of("HANG", "CRASH"), out.get("symptomClasses"));
    assertEquals(List.of(List.of(2.5, 0.0), List.of(0.0, 1.0)), out.get("cells"));
    assertEquals(java.util.Arrays.asList(1.0, null), ((List<?>) out.get("low")).get(0));
    assertEquals(2.5, out.get("max"));
    assertEquals(3.5, out.get("total"));
  }

  @Test
  void aReleaseRowCarriesItsExpectedBugsWithTheirIntervals() {
    Map<String, Object> row = new java.util.HashMap<>();
    row.put("release", "DeepSpeed@0.14.0");
    row.put("estimate", 2.4);
    row.put("estimateLow", 1.0);
    row.put("estimateHigh", 3.0);
    row.put("openEstimate", 1.6);
    row.put("method", "pcc");
    Map<String, Object> out = Shapes.release(row);
    assertEquals(2.4, out.get("bugs"));
    assertEquals(1.0, out.get("bugsLow"));
    assertEquals(3.0, out.get("bugsHigh"));
    assertEquals(1.6, out.get("openBugs"));
    assertEquals("pcc", out.get("method"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void labelSourcesAreGroupedByDimensionInTheQuerysOrderWithEachDimensionsTotal() {
    List<Map<String, Object>> out =
        Shapes.labelSources(
            List.of(
                Map.of("dimension", "kind", "source", "rules", "version", "r-1", "labels", 3L),
                Map.of("dimension", "kind", "source", "human", "version", "human", "labels", 1L),
                Map.of("dimension", "symptom", "source", "model", "version", "m-2", "labels", 4L)));
    assertEquals(List.of("kind", "symptom"), out.stream().map(m -> m.get("dimension")).toList());
    assertEquals(4L, out.get(0).get("labels"));
    List<Map<String, Object>> kind = (List<Map<String, Object>>) out.get(0).get("sources");
    assertEquals(List.of("rules", "human"), kind.stream().map(m -> m.get("source")).toList());
    assertEquals(null, kind.get(0).get("dimension"));
    assertEquals(4L, out.get(1).get("labels"));
  }
}
