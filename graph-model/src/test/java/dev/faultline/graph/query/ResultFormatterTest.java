package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultFormatterTest {
  private static Map<String, Object> row(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private static final List<Map<String, Object>> ROWS =
      List.of(
          row("name", "HANG", "n", 12L, "share", 0.5, "tags", List.of("a", "b")),
          row("name", "say \"hi\", then\nleave", "n", 3L, "share", null, "tags", List.of()));

  @Test
  void rendersAnAlignedTableWithHeaderRuleAndRowCount() {
    String table =
        new ResultFormatter(ResultFormatter.Format.TABLE).format(List.of("name", "n"), ROWS);
    assertEquals(
        String.join(
            "\n",
            "name                 | n  | share | tags",
            "-------------------- | -- | ----- | ---------",
            "HANG                 | 12 | 0.5   | [\"a\",\"b\"]",
            "say \"hi\", then leave | 3  |       | []",
            "2 rows",
            ""),
        table);
  }

  @Test
  void rendersTheHeaderOfAnEmptyResultFromTheDeclaredColumns() {
    assertEquals(
        "a | b\n- | -\n0 rows\n",
        new ResultFormatter(ResultFormatter.Format.TABLE).format(List.of("a", "b"), List.of()));
    assertEquals(
        "a,b\r\n",
        new ResultFormatter(ResultFormatter.Format.CSV).format(List.of("a", "b"), List.of()));
    assertEquals(
        "[]\n",
        new ResultFormatter(ResultFormatter.Format.JSON).format(List.of("a", "b"), List.of()));
  }

  @Test
  void cutsLongTableCellsButNotJsonOrCsv() {
    String longText = "x".repeat(200);
    String table =
        new ResultFormatter(ResultFormatter.Format.TABLE)
            .format(List.of("t"), List.of(row("t", longText)));
    assertEquals(
        "x".repeat(ResultFormatter.MAX_TABLE_CELL - 1) + "…", table.lines().toList().get(2));
    String csv =
        new ResultFormatter(ResultFormatter.Format.CSV)
            .format(List.of("t"), List.of(row("t", longText)));
    assertEquals("t\r\n" + longText + "\r\n", csv);
  }

  @Test
  void rendersJsonArrayOfRowObjectsWithEscapesAndNulls() {
    String json =
        new ResultFormatter(ResultFormatter.Format.JSON).format(List.of("name", "n"), ROWS);
    assertEquals(
        "[\n"
            + "  {\"name\": \"HANG\", \"n\": 12, \"share\": 0.5, \"tags\": [\"a\",\"b\"]},\n"
            + "  {\"name\": \"say \\\"hi\\\", then\\nleave\", \"n\": 3, \"share\": null, \"tags\": []}\n"
            + "]\n",
        json);
  }

  @Test
  void writesNestedMapsAndNonFiniteNumbersAsValidJson() {
    List<Object> withNull = new ArrayList<>(Arrays.asList(1L, null));
    Map<String, Object> nested =
        row("pr", row("id", "o/r#2", "merged", true, "lines", withNull), "nan", Double.NaN);
    String json =
        new ResultFormatter(ResultFormatter.Format.JSON).format(List.of(), List.of(nested));
    assertEquals(
        "[\n  {\"pr\": {\"id\":\"o/r#2\",\"merged\":true,\"lines\":[1,null]}, \"nan\": null}\n]\n",
        json);
  }

  @Test
  void writesWholeDoublesWithADecimalPoint() {
    String json =
        new ResultFormatter(ResultFormatter.Format.JSON)
            .format(List.of("v"), List.of(row("v", 3.0)));
    assertEquals("[\n  {\"v\": 3.0}\n]\n", json);
  }

  @Test
  void quotesCsvCellsWithCommasQuotesAndLineBreaks() {
    String csv = new ResultFormatter(ResultFormatter.Format.CSV).format(List.of("name", "n"), ROWS);
    assertEquals(
        "name,n,share,tags\r\n"
            + "HANG,12,0.5,\"[\"\"a\"\",\"\"b\"\"]\"\r\n"
            + "\"say \"\"hi\"\", then\nleave\",3,,[]\r\n",
        csv);
  }

  @Test
  void parsesFormatNamesInAnyCaseAndRejectsOthers() {
    assertEquals(ResultFormatter.Format.CSV, ResultFormatter.Format.parse("CSV"));
    assertEquals(ResultFormatter.Format.JSON, ResultFormatter.Format.parse("json"));
    assertThrows(IllegalArgumentException.class, () -> ResultFormatter.Format.parse("xml"));
  }
}
