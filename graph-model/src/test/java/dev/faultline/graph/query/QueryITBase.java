package dev.faultline.graph.query;

import dev.faultline.graph.testing.GraphFixture;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

/**
 * Base of the query integration tests: the shared server, an empty graph before each test, a
 * library on it. An estimated query returns its statement's rows here ({@link StatementRows}).
 */
@ExtendWith(SharedNeo4j.class)
abstract class QueryITBase {
  protected GraphFixture graph;
  protected QueryLibrary library;

  @BeforeEach
  void emptyGraph(Driver driver) {
    graph = new GraphFixture(driver, SharedNeo4j.DATABASE);
    graph.clear();
    library =
        new QueryLibrary(
            driver,
            SharedNeo4j.DATABASE,
            QueryLibrary.DEFAULT_TIMEOUT,
            dev.faultline.graph.ConfidencePolicy.calibrated(),
            StatementRows::named);
  }

  /** An expected row: alternating column names and values, in column order. */
  static Map<String, Object> row(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  /** Runs a query with {@code name=value} pairs. */
  List<Map<String, Object>> run(String query, String... nameValues) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      params.put(nameValues[i], nameValues[i + 1]);
    }
    return library.run(query, params);
  }

  /**
   * The coverage columns of the counting queries (how many issues in scope have labels that pass
   * the bar).
   */
  static final List<String> COVERAGE_COLUMNS = List.of("inScope", "labelled", "coverage");

  /** Runs a counting query and leaves out its coverage columns: for tests of the counts alone. */
  List<Map<String, Object>> counts(String query, String... nameValues) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> r : run(query, nameValues)) {
      Map<String, Object> kept = new LinkedHashMap<>(r);
      COVERAGE_COLUMNS.forEach(kept::remove);
      rows.add(kept);
    }
    return rows;
  }

  /** The values of one column, in row order. */
  static List<Object> column(List<Map<String, Object>> rows, String name) {
    List<Object> values = new ArrayList<>();
    rows.forEach(r -> values.add(r.get(name)));
    return values;
  }
}
