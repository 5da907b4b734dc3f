package dev.faultline.graph.query;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Turns the rows of a query's statement, one per item of the scope, into the query's declared
 * columns: estimates that need every item's probabilities (and a validation sample's labels) and
 * so cannot be aggregated in Cypher. A query names its estimator in its header ({@code //
 * @estimator name}) and tells it what to do in {@code // @estimate key value} lines ({@link
 * QueryDefinition#estimatorOptions()}); the {@link QueryLibrary} checks them when it loads, runs
 * the statement, then the estimator, with the same bound parameters.
 *
 * <p>This is the query library's service interface: graph-model gives the rows, the estimators
 * live elsewhere (the {@code estimate} module) and are found by name through {@link
 * ServiceLoader}, each registered in its jar's {@code
 * META-INF/services/dev.faultline.graph.query.ScopeEstimator}. A module that runs estimated queries
 * (the dashboard, the CLI) needs the estimators on its classpath; without them the library refuses
 * to load ({@link QueryLibrary}).
 */
public interface ScopeEstimator {

  /** The name a query header gives. */
  String name();

  /**
   * Checks a query's header against this estimator (its options, its declared columns).
   *
   * @throws IllegalArgumentException naming the query and what is wrong
   */
  default void check(QueryDefinition query) {}

  /** The columns every statement row of the query must have. */
  List<String> inputs(QueryDefinition query);

  /** The query parameters the estimator itself reads (the statement need not use them). */
  Set<String> parameters(QueryDefinition query);

  /**
   * The result rows, with the query's declared columns.
   *
   * @param items the statement's rows, one per item of the scope
   * @param parameters the query's bound parameters
   */
  List<Map<String, Object>> estimate(
      QueryDefinition query, List<Map<String, Object>> items, Map<String, Object> parameters);

  /** The estimator of that name among the services on the classpath. */
  static Optional<ScopeEstimator> named(String name) {
    for (ScopeEstimator e : ServiceLoader.load(ScopeEstimator.class)) {
      if (e.name().equals(name)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
