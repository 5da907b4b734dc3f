package dev.faultline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphConfigTest {
  private static final Map<String, String> ENV =
      Map.of(
          GraphConfig.ENV_URI, "neo4j+s://env-host",
          GraphConfig.ENV_USER, "env-user",
          GraphConfig.ENV_PASSWORD, "env-secret",
          GraphConfig.ENV_DATABASE, "envdb");

  @Test
  void givenValuesWinOverTheEnvironmentWhichWinsOverTheDefaults() {
    assertEquals(
        new GraphConfig("bolt://flag-host", "flag-user", "flag-secret", "flagdb"),
        GraphConfig.of("bolt://flag-host", "flag-user", "flag-secret", "flagdb", ENV));
    assertEquals(
        new GraphConfig("neo4j+s://env-host", "env-user", "env-secret", "envdb"),
        GraphConfig.of(null, null, null, null, ENV));
    assertEquals(
        new GraphConfig(GraphConfig.DEFAULT_URI, "neo4j", "p", "neo4j"),
        GraphConfig.fromEnvironment(Map.of(GraphConfig.ENV_PASSWORD, "p")));
  }

  @Test
  void keepsTheDatabaseGivenByTheEnvironmentWhenOnlyThePasswordIsAFlag() {
    assertEquals("envdb", GraphConfig.of(null, null, "flag-secret", null, ENV).database());
  }

  @Test
  void refusesAMissingPasswordNamingTheVariable() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> GraphConfig.fromEnvironment(Map.of()));
    assertEquals("Neo4j password is empty: set FAULTLINE_NEO4J_PASSWORD", e.getMessage());
  }

  @Test
  void masksThePassword() {
    assertFalse(GraphConfig.fromEnvironment(ENV).toString().contains("env-secret"));
  }
}
