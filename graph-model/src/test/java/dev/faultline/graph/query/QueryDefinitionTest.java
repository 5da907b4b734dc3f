package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.ConfidencePolicy;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryDefinitionTest {
  private static final String TEXT =
      """
      // @name sample-query
      // @description Counts things
      // @description per bucket.
      // A plain comment line is ignored.
      // @param framework String = null  -- framework; null = all
      // @param bucket String(week|month) = month  -- period length
      // @param limit Integer = 5
      // @param issue String  -- required
      // @param since DateTime = 2024-01-01  -- lower bound
      // @column bucket String  -- the bucket
      // @column n Integer
      MATCH (n) RETURN count(n) AS n
      // @param afterHeader String
      """;

  @Test
  void parsesNameDescriptionParametersAndColumns() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    assertEquals("sample-query", q.name());
    assertEquals("Counts things per bucket.", q.description());
    assertEquals(
        List.of("framework", "bucket", "limit", "issue", "since"),
        q.parameters().stream().map(QueryParameter::name).toList());
    assertEquals(List.of("bucket", "n"), q.columnNames());
    assertEquals("the bucket", q.columns().get(0).description());
    assertEquals("Integer", q.columns().get(1).type());
    assertEquals(TEXT, q.cypher());
  }

  @Test
  void readsTypesDefaultsWhitelistsAndRequiredness() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    QueryParameter framework = q.parameter("framework").orElseThrow();
    assertFalse(framework.required());
    assertNull(framework.defaultValue());
    assertEquals("framework; null = all", framework.description());

    QueryParameter bucket = q.parameter("bucket").orElseThrow();
    assertEquals(List.of("week", "month"), bucket.allowedValues());
    assertEquals("month", bucket.defaultValue());
    assertEquals("String(week|month)", bucket.typeText());

    assertEquals(5L, q.parameter("limit").orElseThrow().defaultValue());
    assertEquals("", q.parameter("limit").orElseThrow().description());
    assertTrue(q.parameter("issue").orElseThrow().required());
    assertEquals(
        ZonedDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
        q.parameter("since").orElseThrow().defaultValue());
  }

  @Test
  void stopsReadingTheHeaderAtTheFirstStatementLine() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    assertTrue(q.parameter("afterHeader").isEmpty());
  }

  @Test
  void bindsGivenValuesAndFillsDefaultsForTheRest() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    Map<String, Object> bound = q.bind(Map.of("issue", "o/r#1", "limit", "7"));
    Map<String, Object> expected = new HashMap<>();
    expected.put("framework", null);
    expected.put("bucket", "month");
    expected.put("limit", 7L);
    expected.put("issue", "o/r#1");
    expected.put("since", ZonedDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
    assertEquals(expected, bound);
  }

  @Test
  void bindsAConfidenceBarAsAMapOfDimensionsDefaultingToTheGivenPolicy() {
    QueryDefinition q =
        QueryDefinition.parse(
            "bar.cypher",
            """
            // @name bar-query
            // @param minConfidence Confidence = default  -- the bar
            // @column n Integer
            MATCH (i:Issue) WHERE i.kindConfidence >= $minConfidence.kind RETURN count(i) AS n
            """);
    ConfidencePolicy serverDefault = ConfidencePolicy.atLeast(0.6);
    assertEquals(serverDefault.toParameter(), q.bind(Map.of(), serverDefault).get("minConfidence"));
    assertEquals(
        serverDefault.toParameter(),
        q.bind(Map.of("minConfidence", "default"), serverDefault).get("minConfidence"));
    assertEquals(
        ConfidencePolicy.calibrated().toParameter(), q.bind(Map.of()).get("minConfidence"));
    assertEquals(
        ConfidencePolicy.all().toParameter(),
        q.bind(Map.of("minConfidence", "all")).get("minConfidence"));
    assertEquals(
        0.75,
        ((Map<?, ?>) q.bind(Map.of("minConfidence", "0.75")).get("minConfidence")).get("symptom"));
    assertNull(q.bind(Map.of("minConfidence", "null")).get("minConfidence"));
    var e =
        assertThrows(IllegalArgumentException.class, () -> q.bind(Map.of("minConfidence", "most")));
    assertTrue(e.getMessage().contains("'minConfidence'"), e.getMessage());
  }

  @Test
  void rejectsAMissingRequiredParameterNamingIt() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    var e = assertThrows(IllegalArgumentException.class, () -> q.bind(Map.of()));
    assertTrue(e.getMessage().contains("'issue'"), e.getMessage());
    assertTrue(e.getMessage().contains("--param issue=VALUE"), e.getMessage());
  }

  @Test
  void rejectsAnUndeclaredParameterListingTheDeclaredOnes() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> q.bind(Map.of("issue", "x", "frameworks", "a")));
    assertTrue(e.getMessage().contains("no parameter 'frameworks'"), e.getMessage());
    assertTrue(e.getMessage().contains("framework, bucket, limit, issue, since"), e.getMessage());
  }

  @Test
  void rejectsAValueOutsideTheWhitelist() {
    QueryDefinition q = QueryDefinition.parse("sample.cypher", TEXT);
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> q.bind(Map.of("issue", "x", "bucket", "day")));
    assertTrue(e.getMessage().contains("use one of week, month"), e.getMessage());
  }

  @Test
  void rejectsAHeaderWithoutName() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> QueryDefinition.parse("x.cypher", "// @column n Integer\nRETURN 1 AS n"));
    assertTrue(e.getMessage().contains("x.cypher"), e.getMessage());
  }

  @Test
  void rejectsAnUnknownTagWithItsLine() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                QueryDefinition.parse(
                    "x.cypher", "// @name x\n// @parm a String\n// @column n\nRETURN 1 AS n"));
    assertTrue(e.getMessage().contains("x.cypher line 2"), e.getMessage());
  }

  @Test
  void rejectsAnUnknownParameterType() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                QueryDefinition.parse(
                    "x.cypher", "// @name x\n// @param a Text\n// @column n\nRETURN 1 AS n"));
    assertTrue(e.getMessage().contains("unknown parameter type 'Text'"), e.getMessage());
  }

  @Test
  void rejectsADefaultOfTheWrongType() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                QueryDefinition.parse(
                    "x.cypher", "// @name x\n// @param a Integer = ten\n// @column n\nRETURN 1"));
    assertTrue(e.getMessage().contains("bad default"), e.getMessage());
  }

  @Test
  void rejectsANameThatIsNotKebabCase() {
    assertThrows(
        IllegalArgumentException.class,
        () -> QueryDefinition.parse("x.cypher", "// @name NewBugs\n// @column n\nRETURN 1 AS n"));
  }

  @Test
  void rejectsAParameterDeclaredTwice() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            QueryDefinition.parse(
                "x.cypher",
                "// @name x\n// @param a String\n// @param a String\n// @column n\nRETURN 1"));
  }
}
