package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.stats.AlertRow;
import dev.faultline.graph.stats.AlertWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * A later row of an alert's id revises the node (the statistics job re-emits an alert when late
 * records change it): its examples replace the old ones, and a withdrawn alert leaves the query
 * library's alert list.
 */
class AlertRevisionIT extends QueryITBase {
  private static final String ID = "deepspeed/symptom/OUT_OF_MEMORY/MEMORY/NEW_COMBINATION";
  private static final long DAY = 86_400_000L;
  private static final long T = 1_709_251_200_000L; // 2024-03-01

  @Test
  void aRevisionReplacesTheExamplesAndAWithdrawalTakesTheAlertOffTheList(Driver driver) {
    AlertWriter writer = new AlertWriter(driver, SharedNeo4j.DATABASE);
    writer.write(List.of(alert(T + 40 * DAY, 40, "o/ds#3", false)));
    assertEquals(List.of(ID), column(run("emerging-categories"), "id"));
    assertEquals(List.of("o/ds#3"), examples());

    // an earlier issue of the pair arrived: same alert, earlier, another example
    writer.write(List.of(alert(T + 35 * DAY, 35, "o/ds#2", false)));
    List<Map<String, Object>> rows = run("emerging-categories");
    assertEquals(1, rows.size());
    assertEquals(35.0, rows.get(0).get("score"));
    assertEquals(List.of("o/ds#2"), examples());

    // and one within the warm-up: withdrawn
    writer.write(List.of(alert(T + 5 * DAY, 5, "o/ds#1", true)));
    assertEquals(List.of(), run("emerging-categories"));
    assertEquals(1L, run("graph-change-marker").get(0).get("withdrawnAlerts"));
    assertEquals(1L, run("graph-change-marker").get(0).get("alerts"));
  }

  @Test
  void aChangeOfTextOrMembersMovesUpdatedAtAndTheSameRowAgainDoesNot(Driver driver)
      throws Exception {
    AlertWriter writer = new AlertWriter(driver, SharedNeo4j.DATABASE);
    AlertRow alone = grouped("DeepSpeed: 9 issues of symptom hang.", List.of());
    writer.write(List.of(alone));
    Object first = run("emerging-categories").get(0).get("updatedAt");
    Thread.sleep(20);
    writer.write(List.of(alone)); // a replay writes the same alert again
    assertEquals(first, run("emerging-categories").get(0).get("updatedAt"));
    Thread.sleep(20);
    // a member joins: the same id, another text and members, a later update
    writer.write(
        List.of(
            grouped(
                "DeepSpeed: 9 issues of symptom hang. Also: 5 issues of stage communication.",
                List.of("9 issues of symptom hang", "5 issues of stage communication"))));
    Map<String, Object> joined = run("emerging-categories").get(0);
    assertEquals(ID, joined.get("id"));
    assertTrue(
        instant(joined.get("updatedAt")).isAfter(instant(first)), joined + " after " + first);
    Thread.sleep(20);
    // and leaves again
    writer.write(List.of(alone));
    Map<String, Object> left = run("emerging-categories").get(0);
    assertTrue(
        instant(left.get("updatedAt")).isAfter(instant(joined.get("updatedAt"))), left.toString());
  }

  private static java.time.Instant instant(Object isoDateTime) {
    return java.time.OffsetDateTime.parse((String) isoDateTime).toInstant();
  }

  private static AlertRow grouped(String explanation, List<String> moved) {
    return new AlertRow(
        ID,
        "deepspeed",
        "symptom",
        "HANG",
        null,
        "SURGE",
        T,
        T + 7 * DAY,
        9,
        1.0,
        5.0,
        explanation,
        T + 7 * DAY,
        List.of("o/ds#9"),
        false,
        moved);
  }

  private List<Object> examples() {
    return column(
        (List<Map<String, Object>>) run("emerging-categories").get(0).get("examples"), "id");
  }

  private static AlertRow alert(long time, double days, String example, boolean withdrawn) {
    return new AlertRow(
        ID,
        "deepspeed",
        "symptom",
        "OUT_OF_MEMORY",
        "MEMORY",
        "NEW_COMBINATION",
        time,
        time + DAY,
        1,
        0,
        days,
        "OUT_OF_MEMORY met MEMORY after " + days + " days",
        time,
        List.of(example),
        withdrawn);
  }
}
