package dev.faultline.graph.estimate;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns the rows of a query's statement, one per item of the scope, into the query's declared
 * columns: estimates that need every item's probabilities (and a validation sample's labels) and
 * so cannot be aggregated in Cypher. A query names its estimator in its header ({@code //
 * @estimator name}); the {@link dev.faultline.graph.query.QueryLibrary} runs the statement, then
 * the estimator, with the same bound parameters.
 */
public interface ScopeEstimator {

  /** The name a query header gives. */
  String name();

  /** The columns every statement row must have. */
  List<String> inputs();

  /** The query parameters the estimator itself reads (the statement need not use them). */
  Set<String> parameters();

  /**
   * The result rows.
   *
   * @param items the statement's rows, one per item of the scope
   * @param parameters the query's bound parameters
   */
  List<Map<String, Object>> estimate(
      List<Map<String, Object>> items, Map<String, Object> parameters);

  /** The bundled estimator of that name. */
  static Optional<ScopeEstimator> named(String name) {
    return switch (name) {
      case CategoryShares.NAME -> Optional.of(new CategoryShares());
      case StudyFigures.NAME -> Optional.of(new StudyFigures());
      case CategoryPairs.NAME -> Optional.of(new CategoryPairs());
      default -> Optional.empty();
    };
  }
}
