package dev.faultline.infra;

import dev.faultline.cli.CliCommand;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import java.util.List;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import picocli.CommandLine.Command;

/** Applies the graph schema migrations to the Neo4j named by the environment. */
@Command(
    name = "migrate",
    description = {
      "Apply the graph schema (constraints, indexes, taxonomy) to a Neo4j database.",
      "",
      "Applies the versioned graph migrations that are not applied yet, idempotently."
    },
    footer = {
      "",
      "Environment: FAULTLINE_NEO4J_URI (default bolt://127.0.0.1:7687), FAULTLINE_NEO4J_USER (default neo4j),",
      "FAULTLINE_NEO4J_PASSWORD, FAULTLINE_NEO4J_DATABASE (default neo4j)."
    })
final class MigrateCommand extends CliCommand {
  @Override
  public Integer call() {
    GraphConfig config = GraphConfig.fromEnvironment(System.getenv());
    try (Driver driver =
        GraphDatabase.driver(config.uri(), AuthTokens.basic(config.user(), config.password()))) {
      driver.verifyConnectivity();
      List<String> applied = new GraphSchema(driver, config.database()).migrate();
      out.println(
          applied.isEmpty()
              ? "Graph schema is up to date."
              : "Applied migrations: " + String.join(", ", applied));
    }
    return 0;
  }
}
