package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.BatchWriter;
import dev.faultline.graph.CypherResources;
import dev.faultline.graph.LabelHistory;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.summary.Plan;

/**
 * The two writer statements that keep their first plan ({@code CYPHER replan=skip}: the issue and
 * the pull-request upserts) are planned on an empty graph, where Neo4j's statistics say nothing, so
 * that plan must not depend on statistics: every node it starts from is found by an index seek,
 * never by a scan of a label or of all nodes. A scan in that plan would stay for the server's
 * lifetime, and grow with the graph.
 */
class FrozenWriterPlansIT extends QueryITBase {
  @Test
  void theIssueUpsertPlannedOnAnEmptyGraphSeeksEveryNode(Driver driver) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int n = 1; n <= 3; n++) {
      rows.add(
          WriterRows.issue("frozen", "Trainer", n, n == 1 ? null : "0.1." + n, 1_000L * n)
              .toParameters());
    }
    assertSeeksOnly(driver, "write/upsert-issues.cypher", rows);
  }

  @Test
  void thePullRequestUpsertPlannedOnAnEmptyGraphSeeksEveryNode(Driver driver) {
    List<Map<String, Object>> rows =
        List.of(pullRequest("frozen/pt#101", List.of("frozen/pt#1")).toParameters());
    assertSeeksOnly(driver, "write/upsert-pull-requests.cypher", rows);
  }

  private static void assertSeeksOnly(
      Driver driver, String resource, List<Map<String, Object>> rows) {
    String statement = LabelHistory.expand(CypherResources.load(resource));
    assertTrue(statement.contains("CYPHER replan=skip"), resource + " keeps its first plan");
    assertEquals(
        0,
        driver
            .executableQuery("MATCH (n) RETURN count(n) AS n")
            .execute()
            .records()
            .get(0)
            .get("n")
            .asLong(),
        "planned on an empty graph");
    Plan plan;
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      plan = session.run("EXPLAIN " + statement, BatchWriter.parameters(rows)).consume().plan();
    }
    List<String> scans = new ArrayList<>();
    List<String> seeks = new ArrayList<>();
    collect(plan, scans, seeks);
    assertEquals(List.of(), scans, resource + ": scans in the plan made on an empty graph");
    assertTrue(seeks.size() >= 3, resource + ": its nodes are found by seeks, was " + seeks);
  }

  private static void collect(Plan plan, List<String> scans, List<String> seeks) {
    String operator = plan.operatorType();
    if (operator.contains("Scan")) {
      scans.add(operator + " " + plan.arguments().get("Details"));
    } else if (operator.contains("Seek")) {
      seeks.add(operator);
    }
    plan.children().forEach(child -> collect(child, scans, seeks));
  }

  private static PullRequestRow pullRequest(String id, List<String> fixes) {
    int number = Integer.parseInt(id.substring(id.indexOf('#') + 1));
    return new PullRequestRow(
        id,
        "frozen/pt",
        "pytorch",
        number,
        "Change " + id,
        "https://github.com/frozen/pt",
        "merged",
        true,
        2_000L,
        2_000L,
        2_000L,
        4,
        2,
        1,
        fixes,
        true,
        "webhook",
        "SQUASH",
        "0123456789abcdef0123456789abcdef01234567",
        "alice",
        null);
  }
}
