package dev.faultline.estimate.query;

import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.testing.GraphFixture;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

/**
 * Base of the integration tests of the estimated queries: the shared server, an empty graph before
 * each test, the query library on it with this module's estimators (found as services, as the
 * dashboard and the CLI find them).
 */
@ExtendWith(SharedNeo4j.class)
public abstract class EstimatedQueryITBase {
  protected GraphFixture graph;
  protected QueryLibrary library;
  protected Driver driver;

  @BeforeEach
  void emptyGraph(Driver driver) {
    this.driver = driver;
    graph = new GraphFixture(driver, SharedNeo4j.DATABASE);
    graph.clear();
    library = new QueryLibrary(driver, SharedNeo4j.DATABASE);
  }

  /**
   * Writes one calibrated distribution (marker {@code cv:test}) onto an issue: code to probability,
   * the rest 0.
   */
  protected void probabilities(String id, Dimension d, Map<String, Double> p) {
    List<Double> over = new java.util.ArrayList<>();
    d.distributionCodes().forEach(c -> over.add(p.getOrDefault(c, 0.0)));
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", id);
    row.put("p", over);
    row.put("property", d.probabilitiesProperty());
    row.put("marker", d.calibrationProperty());
    graph.write(
        """
        UNWIND $rows AS row MATCH (i:Issue {id: row.id})
        SET i[row.property] = row.p, i[row.marker] = 'cv:test'
        """,
        List.of(row));
  }

  /** Runs a query with {@code name=value} pairs. */
  protected List<Map<String, Object>> run(String query, String... nameValues) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      params.put(nameValues[i], nameValues[i + 1]);
    }
    return library.run(query, params);
  }
}
