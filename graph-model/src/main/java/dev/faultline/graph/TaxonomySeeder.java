package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * Creates or updates the taxonomy nodes (symptom classes, symptoms with their IS_A edges, root
 * causes, fix patterns, stages) from the one taxonomy resource. Idempotent; run at every start
 * after the migrations.
 */
public final class TaxonomySeeder {
  private static final List<String> STATEMENTS =
      CypherResources.statements("write/seed-taxonomy.cypher");

  private final Driver driver;
  private final String database;
  private final Taxonomy taxonomy;

  public TaxonomySeeder(Driver driver, String database, Taxonomy taxonomy) {
    this.driver = driver;
    this.database = database;
    this.taxonomy = taxonomy;
  }

  public void seed() {
    Map<String, Object> params = new HashMap<>();
    params.put("version", taxonomy.version());
    List<Map<String, Object>> nodes = new java.util.ArrayList<>();
    for (Dimension d : Dimension.values()) {
      d.nodeLabel().ifPresent(label -> nodes.addAll(rows(d, label)));
    }
    params.put("nodes", nodes);
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      session.executeWrite(
          tx -> {
            STATEMENTS.forEach(s -> tx.run(s, params).consume());
            return null;
          });
    }
  }

  /** A symptom's parent: its symptom class's node. */
  private static final String PARENT_LABEL = Dimension.SYMPTOM_CLASS.nodeLabel().orElseThrow();

  private List<Map<String, Object>> rows(Dimension dimension, String label) {
    return taxonomy.dimension(dimension).codes().stream()
        .map(
            c -> {
              Map<String, Object> row = new HashMap<>();
              row.put("label", label);
              row.put("parent", c.symptomClass());
              row.put("parentLabel", c.symptomClass() == null ? null : PARENT_LABEL);
              row.put("code", c.code());
              row.put("name", c.name());
              row.put("definition", c.definition());
              row.put("group", c.group() == null ? null : c.group().name());
              row.put("distributedSpecific", c.distributedSpecific());
              return row;
            })
        .toList();
  }
}
