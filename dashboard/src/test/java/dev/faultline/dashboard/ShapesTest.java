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
                fixRow("CHECKPOINT_FAILURE", "CONDITIONAL_LOGIC", 1L, 25.0),
                fixRow("HANG", "DISTRIBUTED_TUNING", 2L, 4.0),
                fixRow("HANG", "VERSION_DEPENDENCY_MANAGEMENT", 1L, 4.0)));
    assertEquals(List.of("HANG", "CHECKPOINT_FAILURE"), out.get("symptoms"));
    assertEquals(
        List.of("DISTRIBUTED_TUNING", "CONDITIONAL_LOGIC", "VERSION_DEPENDENCY_MANAGEMENT"),
        out.get("fixPatterns"));
    assertEquals(List.of(List.of(2L, 0L, 1L), List.of(0L, 1L, 0L)), out.get("cells"));
    assertEquals(List.of(3L, 1L), out.get("symptomTotals"));
    assertEquals(List.of(2L, 1L, 1L), out.get("fixPatternTotals"));
    assertEquals(2L, out.get("max"));
    assertEquals(4L, out.get("total"));
    assertEquals(3, ((List<?>) out.get("rows")).size());
  }

  private static Map<String, Object> fixRow(
      String symptom, String fixPattern, long fixes, double medianLines) {
    return Map.of(
        "symptom",
        symptom,
        "fixPattern",
        fixPattern,
        "fixes",
        fixes,
        "fromIssues",
        fixes,
        "shareOfSymptom",
        0.5,
        "medianLines",
        medianLines,
        "inScope",
        4L);
  }

  @Test
  void heatMapIsAMatrixWithZeroForEmptyCells() {
    Map<String, Object> out =
        Shapes.heatMap(
            List.of(
                Map.of(
                    "stage",
                    "COMMUNICATION",
                    "symptomClass",
                    "HANG",
                    "symptom",
                    "HANG",
                    "issues",
                    2L),
                Map.of(
                    "stage",
                    "MEMORY",
                    "symptomClass",
                    "CRASH",
                    "symptom",
                    "OUT_OF_MEMORY",
                    "issues",
                    1L)));
    assertEquals(List.of("COMMUNICATION", "MEMORY"), out.get("stages"));
    assertEquals(List.of("HANG", "OUT_OF_MEMORY"), out.get("symptoms"));
    assertEquals(List.of(List.of(2L, 0L), List.of(0L, 1L)), out.get("cells"));
    assertEquals(2L, out.get("max"));
    assertEquals(3L, out.get("total"));
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
