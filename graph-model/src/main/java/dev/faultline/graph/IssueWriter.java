package dev.faultline.graph;

import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Writes issue rows in one {@code UNWIND $rows … MERGE} transaction per batch, inside a transaction function so the
 * driver retries transient failures. Idempotent: MERGE on constrained keys, and a row whose {@code updatedAt} is
 * older than the stored one leaves the issue as it is, so replays and out-of-order arrivals change nothing.
 */
public final class IssueWriter {
  private static final String UPSERT = CypherResources.load("write/upsert-issues.cypher");

  private final Driver driver;
  private final String database;

  public IssueWriter(Driver driver, String database) {
    this.driver = driver;
    this.database = database;
  }

  /** Writes the batch in one transaction. */
  public void write(List<IssueRow> rows) {
    if (rows.isEmpty()) {
      return;
    }
    List<Map<String, Object>> params = rows.stream().map(IssueRow::toParameters).toList();
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(tx -> tx.run(UPSERT, Map.of("rows", params)).consume());
    }
  }
}
