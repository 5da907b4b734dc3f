package dev.faultline.graph;

import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Writes rows of one kind in one {@code UNWIND $batch.rows … MERGE} transaction per batch, inside a
 * transaction function so the driver retries transient failures. Implementations are idempotent: a
 * replayed row changes nothing.
 *
 * <p>The rows travel inside a map ({@link #parameters}), not as a top-level list parameter: Neo4j 5
 * keys its plan cache on the statement and each parameter's type, and a top-level list's type
 * carries a size bucket (0, 1, up to 10, up to 100, up to 1,000, …: {@code
 * ParameterValueTypeHelper}, {@code SizeBucket}), so batches of varying size planned one text again
 * and again (the pipeline's issue upsert: 8–9 cache entries, tens of seconds of planning per 2,000
 * events). A map's type has no size, so every batch of a statement shares one plan, on an embedded
 * or an external server.
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
      session.executeWrite(tx -> tx.run(statement, parameters(params)).consume());
    }
  }

  /**
   * A writer statement's parameters for these rows: {@code $batch.rows}, a list inside a map, so
   * the plan Neo4j caches does not depend on the batch's size (see the class comment).
   */
  public static Map<String, Object> parameters(List<? extends Map<String, Object>> rows) {
    return Map.of("batch", Map.of("rows", rows));
  }
}
