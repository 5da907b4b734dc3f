package dev.faultline.estimate.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.query.QueryParameter;
import dev.faultline.graph.query.ScopeEstimator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The estimated queries of the library against this module's estimators (graph-model's
 * BundledQueriesTest checks the other queries): each names an estimator found as a service, its
 * statement returns the estimator's inputs, and its parameters are exactly those the statement and
 * the estimator use.
 */
class EstimatedQueriesTest {
  private static final Pattern PARAMETER_USE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern RETURN_ALIAS = Pattern.compile("\\bAS\\s+([A-Za-z_][A-Za-z0-9_]*)");

  private final List<QueryDefinition> estimated =
      QueryLibrary.loadDefinitions().stream().filter(q -> q.estimator() != null).toList();

  private static ScopeEstimator estimator(QueryDefinition q) {
    return ScopeEstimator.named(q.estimator()).orElseThrow();
  }

  @Test
  void everyEstimatorIsFoundAsAService() {
    assertFalse(estimated.isEmpty());
    for (QueryDefinition q : estimated) {
      assertTrue(ScopeEstimator.named(q.estimator()).isPresent(), q.name());
    }
  }

  @Test
  void everyParameterUsedIsDeclaredAndEveryDeclaredOneIsUsed() {
    for (QueryDefinition q : estimated) {
      Set<String> used = new TreeSet<>();
      Matcher m = PARAMETER_USE.matcher(body(q));
      while (m.find()) {
        used.add(m.group(1));
      }
      used.remove(QueryDefinition.ALL_DIMENSIONS); // supplied by the library, never declared
      used.remove(QueryDefinition.DIMENSIONS); // likewise
      used.addAll(estimator(q).parameters(q));
      Set<String> declared =
          q.parameters().stream()
              .map(QueryParameter::name)
              .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(declared, used, q.name());
    }
  }

  @Test
  void everyStatementReturnsItsEstimatorsInputs() {
    for (QueryDefinition q : estimated) {
      String body = body(q);
      String lastReturn = body.substring(body.lastIndexOf("RETURN "));
      for (String column : estimator(q).inputs(q)) {
        boolean aliased =
            RETURN_ALIAS.matcher(body).results().anyMatch(r -> r.group(1).equals(column));
        boolean bare =
            Pattern.compile("(RETURN |, |\\n\\s+)" + column + "(,|\\n|$)")
                .matcher(lastReturn)
                .find();
        assertTrue(aliased || bare, q.name() + " does not return input " + column);
      }
    }
  }

  private static String body(QueryDefinition q) {
    return q.cypher()
        .lines()
        .filter(l -> !l.strip().startsWith("//"))
        .collect(Collectors.joining("\n"));
  }
}
