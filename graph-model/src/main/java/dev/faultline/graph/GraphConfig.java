package dev.faultline.graph;

import java.io.Serializable;
import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * Where the graph lives and how to log in. Immutable, serialisable (Flink ships it to the sink),
 * secret masked.
 *
 * @param uri Bolt URI, e.g. {@code bolt://127.0.0.1:7687} or {@code neo4j+s://host} for TLS
 * @param user Neo4j user
 * @param password Neo4j password
 * @param database database name, {@code neo4j} by default
 */
public record GraphConfig(String uri, String user, String password, String database)
    implements Serializable {
  public static final String DEFAULT_URI = "bolt://127.0.0.1:7687";

  public GraphConfig {
    Objects.requireNonNull(
        uri, "Neo4j URI is required: set FAULTLINE_NEO4J_URI (e.g. bolt://127.0.0.1:7687)");
    URI.create(uri);
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException(
          "Neo4j user is empty: set FAULTLINE_NEO4J_USER (default neo4j)");
    }
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("Neo4j password is empty: set FAULTLINE_NEO4J_PASSWORD");
    }
    database = database == null || database.isBlank() ? "neo4j" : database;
  }

  /**
   * From {@code FAULTLINE_NEO4J_URI}, {@code FAULTLINE_NEO4J_USER}, {@code
   * FAULTLINE_NEO4J_PASSWORD}, {@code FAULTLINE_NEO4J_DATABASE}.
   */
  public static GraphConfig fromEnvironment(Map<String, String> env) {
    return new GraphConfig(
        env.getOrDefault("FAULTLINE_NEO4J_URI", DEFAULT_URI),
        env.getOrDefault("FAULTLINE_NEO4J_USER", "neo4j"),
        env.get("FAULTLINE_NEO4J_PASSWORD"),
        env.get("FAULTLINE_NEO4J_DATABASE"));
  }

  @Override
  public String toString() {
    return "GraphConfig{uri="
        + uri
        + ", user="
        + user
        + ", password=****, database="
        + database
        + "}";
  }
}
