package dev.faultline.graph.stats;

import dev.faultline.graph.CypherResources;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Writes the category-stats job's {@code CategoryCount} and {@code Alert} nodes, one {@code UNWIND $rows … MERGE}
 * transaction per batch inside a transaction function (the driver retries transient failures). Idempotent: MERGE on
 * {@code CategoryCount.id} and {@code Alert.id}, which need uniqueness constraints:
 *
 * <pre>
 * CREATE CONSTRAINT category_count_id IF NOT EXISTS FOR (n:CategoryCount) REQUIRE n.id IS UNIQUE
 * CREATE CONSTRAINT alert_id IF NOT EXISTS FOR (n:Alert) REQUIRE n.id IS UNIQUE
 * </pre>
 */
public final class StatsWriter {
  private static final String COUNTS = CypherResources.load("write/stats-category-counts.cypher");
  private static final String ALERTS = CypherResources.load("write/stats-alerts.cypher");

  private final Driver driver;
  private final String database;

  public StatsWriter(Driver driver, String database) {
    this.driver = driver;
    this.database = database;
  }

  /** Writes the counts in one transaction; a later row of the same id in the batch wins. */
  public void writeCounts(List<CategoryCountRow> rows) {
    write(COUNTS, rows.stream().map(CategoryCountRow::toParameters).toList());
  }

  /** Writes the alerts and their example edges in one transaction. */
  public void writeAlerts(List<AlertRow> rows) {
    write(ALERTS, rows.stream().map(AlertRow::toParameters).toList());
  }

  private void write(String statement, List<Map<String, Object>> params) {
    if (params.isEmpty()) {
      return;
    }
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(tx -> tx.run(statement, Map.of("rows", params)).consume());
    }
  }
}
