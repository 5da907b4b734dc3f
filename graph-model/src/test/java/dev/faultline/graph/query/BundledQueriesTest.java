package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The query files shipped in the library: each parses, and its header matches its Cypher. */
class BundledQueriesTest {
  private static final Pattern PARAMETER_USE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern RETURN_ALIAS = Pattern.compile("\\bAS\\s+([A-Za-z_][A-Za-z0-9_]*)");

  private final List<QueryDefinition> queries = QueryLibrary.loadDefinitions();

  @Test
  void everyIndexedFileParsesWithADescription() {
    assertTrue(queries.size() >= 13, "queries: " + queries.size());
    for (QueryDefinition q : queries) {
      assertFalse(q.description().isBlank(), q.name() + " has no description");
      q.parameters()
          .forEach(
              p ->
                  assertFalse(
                      p.description().isBlank(), q.name() + "." + p.name() + " undocumented"));
    }
  }

  @Test
  void everyParameterUsedInTheCypherIsDeclaredAndEveryDeclaredOneIsUsed() {
    for (QueryDefinition q : queries) {
      Set<String> used = new TreeSet<>();
      Matcher m = PARAMETER_USE.matcher(body(q));
      while (m.find()) {
        used.add(m.group(1));
      }
      Set<String> declared =
          q.parameters().stream()
              .map(QueryParameter::name)
              .collect(Collectors.toCollection(TreeSet::new));
      used.remove(QueryDefinition.ALL_DIMENSIONS); // supplied by the library, never declared
      used.remove(QueryDefinition.DIMENSIONS); // likewise
      if (q.estimator() != null) {
        // the estimator reads some parameters itself (the estimate module's EstimatedQueriesTest)
        assertTrue(declared.containsAll(used), q.name() + " uses undeclared " + used);
        continue;
      }
      assertEquals(declared, used, q.name());
    }
  }

  @Test
  void everyDeclaredColumnIsReturned() {
    for (QueryDefinition q : queries) {
      if (q.estimator() != null) {
        continue; // returns its estimator's inputs: the estimate module's EstimatedQueriesTest
      }
      String body = body(q);
      String lastReturn = body.substring(body.lastIndexOf("RETURN "));
      for (String column : q.columnNames()) {
        boolean aliased =
            RETURN_ALIAS.matcher(body).results().anyMatch(r -> r.group(1).equals(column));
        boolean bare =
            Pattern.compile("(RETURN |, |\\n\\s+)" + column + "(,|\\n|$)")
                .matcher(lastReturn)
                .find();
        assertTrue(aliased || bare, q.name() + " does not return column " + column);
      }
    }
  }

  @Test
  void dimensionParametersAreWhitelisted() {
    for (QueryDefinition q : queries) {
      q.parameter("dimension")
          .filter(p -> !q.name().equals("emerging-categories"))
          .ifPresent(
              p ->
                  assertFalse(
                      p.allowedValues().isEmpty(), q.name() + ".dimension has no whitelist"));
    }
  }

  @Test
  void countingQueriesTakeTheConfidenceBarAndReportCoverageBesideTheirCounts() {
    List<String> counting =
        List.of(
            "new-bugs-per-release",
            "category-shares",
            "category-pairs",
            "category-trends",
            "stage-symptom-matrix",
            "top-root-causes-per-stage",
            "symptom-cause-fix-paths",
            "distributed-specific-share",
            "fix-effort-by-category",
            "fix-size-by-category",
            "fix-pattern-per-symptom",
            "open-bugs-by-age",
            "headline-summary",
            "headline-closing",
            "headline-top-categories",
            "label-sources");
    for (QueryDefinition q : queries) {
      boolean takesBar =
          q.parameter("minConfidence")
              .map(p -> p.type() == QueryParameter.Type.CONFIDENCE)
              .orElse(false);
      assertEquals(counting.contains(q.name()), takesBar, q.name() + " minConfidence");
      if (takesBar) {
        assertTrue(
            q.columnNames().containsAll(List.of("labelled", "coverage")),
            q.name() + " coverage columns");
      }
    }
  }

  @Test
  void noStatementSpellsADimensionsPropertyNameOrTheSymptomClassLabelRule() {
    String keys =
        java.util.Arrays.stream(dev.faultline.schemas.taxonomy.Dimension.values())
            .map(dev.faultline.schemas.taxonomy.Dimension::key)
            .collect(Collectors.joining("|"));
    String suffixes = "Confidence|Probabilities|Evidence|Source|Version|LabelledAt|Previous";
    Pattern spelled =
        Pattern.compile(
            "\\b(" + keys + ")(" + suffixes + ")\\b|'(" + suffixes + ")'|'symptomClass'\\s+THEN");
    for (QueryDefinition q : queries) {
      Matcher m = spelled.matcher(body(q));
      boolean found = m.find();
      assertFalse(
          found,
          () ->
              q.name()
                  + " spells '"
                  + m.group()
                  + "': read it from $dimensions or $allDimensions (QueryDefinition.names)");
    }
  }

  private static String body(QueryDefinition q) {
    return q.cypher()
        .lines()
        .filter(l -> !l.strip().startsWith("//"))
        .collect(Collectors.joining("\n"));
  }
}
