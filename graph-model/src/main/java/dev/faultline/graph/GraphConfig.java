package dev.faultline.graph;

import java.io.Serializable;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

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

  /** The environment variables a command reads the connection from. */
  public static final String ENV_URI = "FAULTLINE_NEO4J_URI";

  public static final String ENV_USER = "FAULTLINE_NEO4J_USER";
  public static final String ENV_PASSWORD = "FAULTLINE_NEO4J_PASSWORD";
  public static final String ENV_DATABASE = "FAULTLINE_NEO4J_DATABASE";

  /**
   * The environment as every command's help names it (a picocli footer line: {@code %n} breaks it).
   */
  public static final String ENVIRONMENT_HELP =
      "Environment: FAULTLINE_NEO4J_URI (default bolt://127.0.0.1:7687), FAULTLINE_NEO4J_USER (default neo4j),%n"
          + "FAULTLINE_NEO4J_PASSWORD, FAULTLINE_NEO4J_DATABASE (default neo4j).";

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
    return of(null, null, null, null, env);
  }

  /**
   * Each value as given (a flag), else from the environment ({@link #fromEnvironment}), else its
   * default.
   */
  public static GraphConfig of(
      String uri, String user, String password, String database, Map<String, String> env) {
    return new GraphConfig(
        uri != null ? uri : env.getOrDefault(ENV_URI, DEFAULT_URI),
        user != null ? user : env.getOrDefault(ENV_USER, "neo4j"),
        password != null ? password : env.get(ENV_PASSWORD),
        database != null ? database : env.get(ENV_DATABASE));
  }

  /**
   * A driver on this graph (basic authentication): the one way the project opens one. The caller
   * closes it; sessions name {@link #database()}.
   */
  public Driver openDriver() {
    return GraphDatabase.driver(uri, AuthTokens.basic(user, password));
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
