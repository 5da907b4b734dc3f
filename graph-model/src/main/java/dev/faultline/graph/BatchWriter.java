package dev.faultline.graph;

import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Writes rows of one kind in one {@code UNWIND $rows … MERGE} transaction per batch, inside a
 * transaction function so the driver retries transient failures. Implementations are idempotent: a
 * replayed row changes nothing.
 *
 * @param <R> the row type
 */
public abstract class BatchWriter<R> {
  private final Driver driver;
  private final String database;
  private final String statement;

  protected BatchWriter(Driver driver, String database, String statementResource) {
    this.driver = driver;
    this.database = database;
    this.statement = LabelHistory.expand(CypherResources.load(statementResource));
  }

  /** The row's key: a batch holds at most one row per key, the newest. */
  public abstract String keyOf(R row);

  /** The row's version: of two rows with one key, the higher version is newer. */
  public abstract long versionOf(R row);

  /** The row as Cypher parameters. */
  public abstract Map<String, Object> toParameters(R row);

  /** Writes the batch in one transaction. */
  public void write(List<R> rows) {
    if (rows.isEmpty()) {
      return;
    }
    List<Map<String, Object>> params = rows.stream().map(this::toParameters).toList();
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(tx -> tx.run(statement, Map.of("rows", params)).consume());
    }
  }
}
