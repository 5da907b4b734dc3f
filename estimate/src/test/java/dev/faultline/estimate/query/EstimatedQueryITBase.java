package dev.faultline.estimate.query;

import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.testing.GraphFixture;
import dev.faultline.graph.testing.SharedNeo4j;
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

  @BeforeEach
  void emptyGraph(Driver driver) {
    graph = new GraphFixture(driver, SharedNeo4j.DATABASE);
    graph.clear();
    library = new QueryLibrary(driver, SharedNeo4j.DATABASE);
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
