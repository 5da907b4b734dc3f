package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seeds report's Markdown from rows as the study-figures query returns them. */
class ReportCommandTest {
  private static Map<String, Object> row(
      String study, String statement, Double estimate, Double low, Double high, String ranking) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("figure", "f");
    r.put("study", study);
    r.put("statement", statement);
    r.put("definition", "counted | here");
    r.put("published", 0.451);
    r.put("estimate", estimate);
    r.put("low", low);
    r.put("high", high);
    r.put("ranking", ranking);
    r.put("basis", estimate == null ? null : 120.4);
    r.put("method", "pcc: 400 simulated labellings, product of the marginals");
    return r;
  }

  @Test
  void eachFigureIsARowWithTheStudysStatementAndThisDatasEstimateAndInterval() {
    String md =
        ReportCommand.markdown(
            List.of(
                row(
                    "P2",
                    "45.1% of bug symptoms are distributed-specific",
                    0.3912,
                    0.35,
                    0.4301,
                    null),
                row("P1", "most frequent symptoms", null, null, null, "CRASH 50% (45–55%)")),
            "DeepSpeed",
            LocalDate.parse("2025-01-01"),
            null);
    List<String> lines = md.lines().toList();
    assertTrue(
        lines.get(2).startsWith("Scope: DeepSpeed, issues opened from 2025-01-01 to now."),
        lines.get(2));
    assertEquals(
        "| P2 | 45.1% of bug symptoms are distributed-specific | 39.1% (35.0–43.0%) | ≈ 120 | counted \\| here |",
        lines.get(6));
    assertEquals(
        "| P1 | most frequent symptoms | CRASH 50% (45–55%) |  | counted \\| here |", lines.get(7));
  }
}
