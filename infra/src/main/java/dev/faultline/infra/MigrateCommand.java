package dev.faultline.infra;

import dev.faultline.cli.CliCommand;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import picocli.CommandLine.Command;

/** Applies the graph schema migrations to the Neo4j named by the environment. */
@Command(
    name = "migrate",
    description = {
      "Apply the graph schema (constraints, indexes, taxonomy) to a Neo4j database.",
      "",
      "Applies the versioned graph migrations that are not applied yet, idempotently."
    },
    footer = {"", GraphConfig.ENVIRONMENT_HELP})
final class MigrateCommand extends CliCommand {
  private final Map<String, String> env;

  MigrateCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public Integer call() {
    GraphConfig config = GraphConfig.fromEnvironment(env);
    try (Driver driver = config.openDriver()) {
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
