package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the versioned schema migrations ({@code migrations/V*.cypher}, listed in {@code
 * migrations/index.txt}) in order, each once: applied versions are recorded as {@code
 * (:FaultlineMigration {version})}. Every statement is idempotent too ({@code IF NOT EXISTS},
 * {@code MERGE}), so a half-applied migration is simply re-run. The taxonomy nodes are then seeded
 * from the taxonomy resource.
 */
public final class GraphSchema {
  private static final Logger LOG = LoggerFactory.getLogger(GraphSchema.class);
  private static final String APPLIED = CypherResources.load("read/migration-applied.cypher");
  private static final String RECORD_APPLIED =
      CypherResources.load("write/migration-applied.cypher");

  private final Driver driver;
  private final String database;

  public GraphSchema(Driver driver, String database) {
    this.driver = driver;
    this.database = database;
  }

  /** The migration files, in the order they apply. */
  public static List<String> migrations() {
    return CypherResources.load("migrations/index.txt")
        .lines()
        .map(String::strip)
        .filter(l -> !l.isEmpty())
        .toList();
  }

  /** Applies what is not applied yet; returns the versions applied now. */
  public List<String> migrate() {
    List<String> applied = new java.util.ArrayList<>();
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      for (String file : migrations()) {
        String version = file.replaceFirst("__.*$", "");
        boolean done =
            session.executeRead(
                tx -> tx.run(APPLIED, Map.of("v", version)).single().get("done").asBoolean());
        if (done) {
          continue;
        }
        for (String statement : CypherResources.statements("migrations/" + file)) {
          // Schema statements cannot share a transaction with data writes: one auto-commit each.
          session.run(statement).consume();
        }
        session.executeWrite(
            tx -> tx.run(RECORD_APPLIED, Map.of("v", version, "f", file)).consume());
        applied.add(version);
        LOG.info("Applied graph migration {}", file);
      }
    }
    new TaxonomySeeder(driver, database, Taxonomy.load()).seed();
    return applied;
  }
}
