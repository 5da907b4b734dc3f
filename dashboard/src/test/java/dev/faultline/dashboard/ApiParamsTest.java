package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiParamsTest {
  private static ApiParams params(Map<String, List<String>> values, String... accepted) {
    return new ApiParams(values, Set.of(accepted));
  }

  private static void assertBad(String parameter, Runnable call) {
    ApiError e = assertThrows(ApiError.class, call::run);
    assertEquals(400, e.getStatus());
    assertEquals(parameter, e.parameter());
  }

  @Test
  void rejectsParametersTheEndpointDoesNotKnow() {
    assertBad("frmework", () -> params(Map.of("frmework", List.of("x")), "framework"));
  }

  @Test
  void rejectsAParameterGivenTwice() {
    assertBad("framework", () -> params(Map.of("framework", List.of("a", "b")), "framework"));
  }

  @Test
  void readsDatesAsMidnightUtcAndInstantsWithOffsets() {
    ApiParams p =
        params(
            Map.of("from", List.of("2024-05-01"), "to", List.of("2024-05-01T12:00:00+02:00")),
            "from",
            "to");
    assertEquals(Optional.of(Instant.parse("2024-05-01T00:00:00Z")), p.instant("from"));
    assertEquals(Optional.of(Instant.parse("2024-05-01T10:00:00Z")), p.instant("to"));
    assertBad("from", () -> params(Map.of("from", List.of("yesterday")), "from").instant("from"));
  }

  @Test
  void boundsWholeNumbersAndFallsBackWhenAbsent() {
    assertEquals(25, params(Map.of(), "size").integer("size", 25, 1, 200));
    assertBad(
        "size", () -> params(Map.of("size", List.of("201")), "size").integer("size", 25, 1, 200));
    assertBad(
        "size", () -> params(Map.of("size", List.of("ten")), "size").integer("size", 25, 1, 200));
  }

  @Test
  void acceptsOnlyWellFormedNamesCodesReleasesAndIssueIds() {
    assertEquals(
        Optional.of("Megatron-LM"),
        params(Map.of("f", List.of("Megatron-LM")), "f").framework("f"));
    assertBad("f", () -> params(Map.of("f", List.of("x') DETACH DELETE n")), "f").framework("f"));
    assertBad("s", () -> params(Map.of("s", List.of("<b>")), "s").code("s"));
    assertEquals(
        Optional.of("DeepSpeed@0.14.2"),
        params(Map.of("r", List.of("DeepSpeed@0.14.2")), "r").release("r"));
    assertBad("r", () -> params(Map.of("r", List.of("0.14.2")), "r").release("r"));
    assertEquals("a/b#1", params(Map.of("id", List.of("a/b#1")), "id").issueId("id"));
    assertBad("id", () -> params(Map.of(), "id").issueId("id"));
  }

  @Test
  void choicesAreCheckedAgainstTheirList() {
    assertEquals(
        Optional.of("week"),
        params(Map.of("b", List.of("week")), "b").choice("b", List.of("week", "month")));
    assertBad(
        "b", () -> params(Map.of("b", List.of("year")), "b").choice("b", List.of("week", "month")));
  }
}
