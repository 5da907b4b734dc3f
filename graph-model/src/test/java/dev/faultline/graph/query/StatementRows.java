package dev.faultline.graph.query;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * graph-model's tests run without the estimators (they live in the {@code estimate} module, which
 * depends on this one): a stand-in of any name that returns the statement's rows, one per item, as
 * they are. So the tests here check what graph-model gives an estimator; the estimate module's
 * tests check the estimates.
 */
final class StatementRows implements ScopeEstimator {
  private final String name;

  private StatementRows(String name) {
    this.name = name;
  }

  /** A stand-in for every estimator name. */
  static Optional<ScopeEstimator> named(String name) {
    return Optional.of(new StatementRows(name));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<String> inputs(QueryDefinition query) {
    return List.of();
  }

  @Override
  public Set<String> parameters(QueryDefinition query) {
    return Set.of();
  }

  @Override
  public List<Map<String, Object>> estimate(
      QueryDefinition query, List<Map<String, Object>> items, Map<String, Object> parameters) {
    return items;
  }
}
