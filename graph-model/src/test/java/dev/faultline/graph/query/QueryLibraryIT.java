package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.testing.SharedNeo4j;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * What the library does around the queries: listing, unknown names, and plain-Java values from the
 * driver.
 */
class QueryLibraryIT extends QueryITBase {

  @Test
  void listsEveryBundledQueryInIndexOrder() {
    assertEquals(
        QueryLibrary.loadDefinitions().stream().map(QueryDefinition::name).toList(),
        library.list().stream().map(QueryDefinition::name).toList());
    assertEquals("new-bugs-per-release", library.list().get(0).name());
  }

  @Test
  void refusesToLoadWhenAQueryNamesAnEstimatorThatIsNotOnTheClasspath(Driver driver) {
    // graph-model's own classpath has no estimators (they are the estimate module's services)
    var e =
        assertThrows(
            IllegalStateException.class, () -> new QueryLibrary(driver, SharedNeo4j.DATABASE));
    assertTrue(
        e.getMessage().startsWith("query 'category-shares' names the estimator 'grouped',"),
        e.getMessage());
    assertTrue(e.getMessage().contains("faultline-estimate"), e.getMessage());
  }

  @Test
  void rejectsAnUnknownQueryListingTheKnownOnes() {
    var e = assertThrows(IllegalArgumentException.class, () -> library.run("new-bugs"));
    assertTrue(e.getMessage().contains("unknown query 'new-bugs'"), e.getMessage());
    assertTrue(e.getMessage().contains("new-bugs-per-release"), e.getMessage());
  }

  @Test
  void runsEveryQueryOnAnEmptyGraph() {
    for (QueryDefinition q : library.list()) {
      Map<String, String> params =
          q.parameter("issue").isPresent() ? Map.of("issue", "o/r#1") : Map.of();
      List<Map<String, Object>> rows = library.run(q.name(), params);
      rows.forEach(r -> assertEquals(q.columnNames(), List.copyOf(r.keySet()), q.name()));
    }
  }

  @Test
  void convertsDriverValuesToPlainJava(Driver driver) {
    Map<String, Object> row;
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      row =
          session.executeRead(
              tx ->
                  QueryLibrary.toRow(
                      tx.run(
                              """
                              RETURN datetime('2024-05-01T12:30:00Z') AS dt,
                                     datetime('2024-05-01T12:30:00.250+02:00') AS dtOffset,
                                     date('2024-05-01') AS d,
                                     localdatetime('2024-05-01T12:30:00') AS ldt,
                                     duration('P1DT2H') AS dur,
                                     42 AS n, 0.5 AS f, true AS b, 'x' AS s, null AS nothing,
                                     [1, 'a', date('2024-01-02')] AS list,
                                     {k: datetime('2024-01-01T00:00:00Z'), inner: {v: 1}} AS map
                              """)
                          .single()));
    }
    assertEquals("2024-05-01T12:30:00Z", row.get("dt"));
    assertEquals("2024-05-01T12:30:00.25+02:00", row.get("dtOffset"));
    assertEquals("2024-05-01", row.get("d"));
    assertEquals("2024-05-01T12:30:00", row.get("ldt"));
    assertEquals("P0M1DT7200S", row.get("dur"));
    assertEquals(42L, row.get("n"));
    assertEquals(0.5, row.get("f"));
    assertEquals(true, row.get("b"));
    assertEquals("x", row.get("s"));
    assertEquals(null, row.get("nothing"));
    assertEquals(List.of(1L, "a", "2024-01-02"), row.get("list"));
    assertEquals(Map.of("k", "2024-01-01T00:00:00Z", "inner", Map.of("v", 1L)), row.get("map"));
    assertEquals(
        List.of("dt", "dtOffset", "d", "ldt", "dur", "n", "f", "b", "s", "nothing", "list", "map"),
        List.copyOf(row.keySet()));
  }

  @Test
  void convertsNodesToTheirProperties(Driver driver) {
    graph.release("deepspeed", "0.14.0", "2024-01-01T00:00:00Z", false);
    Object release;
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      release =
          session.executeRead(
              tx -> QueryLibrary.toJava(tx.run("MATCH (r:Release) RETURN r").single().get("r")));
    }
    assertEquals(
        Map.of(
            "id",
            "deepspeed@0.14.0",
            "framework",
            "deepspeed",
            "version",
            "0.14.0",
            "tag",
            "v0.14.0",
            "publishedAt",
            "2024-01-01T00:00:00Z",
            "prerelease",
            false),
        release);
  }
}
