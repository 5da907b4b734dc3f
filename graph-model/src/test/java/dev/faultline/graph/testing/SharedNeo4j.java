package dev.faultline.graph.testing;

import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * One real Neo4j server per test JVM, shared by every class that uses this extension (the
 * graph-model and dashboard integration tests; published in graph-model's test-jar): started on
 * first use, kept in the root extension store (not a static field) and closed by JUnit when the
 * whole run ends. Injects the {@link Driver}. The schema migrations are applied once at start, so
 * MERGE keys are backed by constraints as in production.
 */
public final class SharedNeo4j implements BeforeAllCallback, ParameterResolver {
  public static final String DATABASE = "neo4j";
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedNeo4j.class);

  /** The server, its driver and its store directory, closed together. */
  private static final class Server
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    final EmbeddedNeo4j neo4j;
    final Driver driver;
    final Path directory;

    private Server(EmbeddedNeo4j neo4j, Driver driver, Path directory) {
      this.neo4j = neo4j;
      this.driver = driver;
      this.directory = directory;
    }

    static Server start() {
      try {
        Path directory = Files.createTempDirectory("faultline-neo4j-it");
        EmbeddedNeo4j neo4j =
            EmbeddedNeo4j.start(directory, 0, 0, "it-" + Long.toHexString(System.nanoTime()));
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(neo4j.user(), neo4j.password()));
        driver.verifyConnectivity();
        new GraphSchema(driver, DATABASE).migrate();
        return new Server(neo4j, driver, directory);
      } catch (Exception e) {
        throw new IllegalStateException(
            "Could not start the embedded Neo4j for the integration tests", e);
      }
    }

    @Override
    public void close() throws IOException {
      driver.close();
      neo4j.close();
      try (Stream<Path> paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static Server server(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(Server.class, k -> Server.start(), Server.class);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Driver.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return server(context).driver;
  }
}
