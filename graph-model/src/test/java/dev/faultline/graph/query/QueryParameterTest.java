package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryParameterTest {
  private static QueryParameter of(QueryParameter.Type type) {
    return new QueryParameter("p", type, List.of(), false, null, "");
  }

  @Test
  void convertsIntegersToLong() {
    assertEquals(42L, of(QueryParameter.Type.INTEGER).convert("42"));
    assertEquals(-3L, of(QueryParameter.Type.INTEGER).convert(" -3 "));
  }

  @Test
  void convertsFloatsToDouble() {
    assertEquals(0.25, of(QueryParameter.Type.FLOAT).convert("0.25"));
  }

  @Test
  void convertsAVectorOfCommaSeparatedNumbersWithOrWithoutBrackets() {
    assertEquals(List.of(0.5, -1.0, 2.0E-3), of(QueryParameter.Type.VECTOR).convert("0.5,-1,2e-3"));
    assertEquals(List.of(0.5, 1.0), of(QueryParameter.Type.VECTOR).convert(" [0.5, 1] "));
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> of(QueryParameter.Type.VECTOR).convert("0.5,x"));
    assertTrue(e.getMessage().contains("'p' is '0.5,x'"), e.getMessage());
  }

  @Test
  void convertsBooleansInAnyCase() {
    assertEquals(Boolean.TRUE, of(QueryParameter.Type.BOOLEAN).convert("TRUE"));
    assertEquals(Boolean.FALSE, of(QueryParameter.Type.BOOLEAN).convert("false"));
  }

  @Test
  void rejectsABooleanThatIsNotTrueOrFalse() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> of(QueryParameter.Type.BOOLEAN).convert("yes"));
    assertTrue(e.getMessage().contains("'p' is 'yes', not true or false"), e.getMessage());
  }

  @Test
  void convertsADateToMidnightUtc() {
    assertEquals(
        ZonedDateTime.of(2024, 5, 1, 0, 0, 0, 0, ZoneOffset.UTC),
        of(QueryParameter.Type.DATETIME).convert("2024-05-01"));
  }

  @Test
  void convertsALocalDateTimeAsUtcAndKeepsAGivenOffset() {
    assertEquals(
        ZonedDateTime.of(2024, 5, 1, 12, 30, 0, 0, ZoneOffset.UTC),
        of(QueryParameter.Type.DATETIME).convert("2024-05-01T12:30:00"));
    assertEquals(
        ZonedDateTime.of(2024, 5, 1, 12, 30, 0, 0, ZoneOffset.ofHours(2)),
        of(QueryParameter.Type.DATETIME).convert("2024-05-01T12:30:00+02:00"));
    assertEquals(
        ZonedDateTime.of(2024, 5, 1, 12, 30, 0, 0, ZoneOffset.UTC),
        of(QueryParameter.Type.DATETIME).convert("2024-05-01T12:30:00Z"));
  }

  @Test
  void rejectsAMalformedDateNamingTheExpectedForm() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> of(QueryParameter.Type.DATETIME).convert("May 1"));
    assertTrue(e.getMessage().contains("2024-05-01"), e.getMessage());
  }

  @Test
  void rejectsANonNumberForAnInteger() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> of(QueryParameter.Type.INTEGER).convert("1.5"));
    assertTrue(e.getMessage().contains("whole number"), e.getMessage());
  }

  @Test
  void treatsTheLiteralNullAsNoValue() {
    assertNull(of(QueryParameter.Type.INTEGER).convert("null"));
    assertNull(of(QueryParameter.Type.STRING).convert(null));
  }

  @Test
  void keepsStringsAsGivenApartFromSurroundingSpace() {
    assertEquals("deepspeed", of(QueryParameter.Type.STRING).convert(" deepspeed "));
  }
}
