package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API's choices come from the schemas' enums and keep the names and order the dashboard has
 * always shown.
 */
class ApiChoicesTest {

  @Test
  void everyDimensionIsAChoiceInTheMenusOrder() {
    assertEquals(
        List.of(
            "symptom",
            "symptomClass",
            "rootCause",
            "fixPattern",
            "stage",
            "phase",
            "kind",
            "distributedSpecific"),
        ApiController.DIMENSIONS);
    assertEquals(
        new HashSet<>(Arrays.stream(Dimension.values()).map(Dimension::key).toList()),
        new HashSet<>(ApiController.DIMENSIONS));
  }

  @Test
  void kindsAndAlertKindsAreTheEnumsSymbols() {
    assertEquals(
        List.of("BUG", "FEATURE_REQUEST", "QUESTION", "DOCUMENTATION", "OTHER"),
        ApiController.KINDS);
    assertEquals(List.of("SURGE", "NEW_COMBINATION"), ApiController.ALERT_KINDS);
  }
}
