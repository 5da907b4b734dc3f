package dev.faultline.infra;

import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import java.io.PrintStream;
import java.util.List;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/** Applies the graph schema migrations to the Neo4j named by the environment. */
final class MigrateCommand implements Command {
  @Override
  public String name() {
    return "migrate";
  }

  @Override
  public String summary() {
    return "apply the graph schema (constraints, indexes, taxonomy) to a Neo4j database";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0) {
      out.println(
          """
          Usage: faultline migrate

          Applies the versioned graph migrations that are not applied yet, idempotently.
          Environment: FAULTLINE_NEO4J_URI (default bolt://127.0.0.1:7687), FAULTLINE_NEO4J_USER (default neo4j),
          FAULTLINE_NEO4J_PASSWORD, FAULTLINE_NEO4J_DATABASE (default neo4j).""");
      return args[0].equals("--help") ? 0 : 2;
    }
    GraphConfig config = GraphConfig.fromEnvironment(System.getenv());
    try (Driver driver = GraphDatabase.driver(config.uri(), AuthTokens.basic(config.user(), config.password()))) {
      driver.verifyConnectivity();
      List<String> applied = new GraphSchema(driver, config.database()).migrate();
      out.println(applied.isEmpty() ? "Graph schema is up to date." : "Applied migrations: " + String.join(", ", applied));
    }
    return 0;
  }
}
