package dev.faultline.dashboard;

import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * One real Neo4j per test JVM, shared by the dashboard's integration tests: started on first use, kept in the root
 * extension store (not a static field), closed by JUnit when the run ends, schema migrated as in production. Injects
 * the {@link Driver}. The test classes run one after another and each writes its known graph in {@code @BeforeAll}.
 */
final class SharedGraph implements ParameterResolver {
  static final String DATABASE = "neo4j";
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedGraph.class);

  static final class Server implements ExtensionContext.Store.CloseableResource {
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
        Path directory = Files.createTempDirectory("faultline-dashboard-it");
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(directory, 0, 0, "dashboard-it-" + Long.toHexString(System.nanoTime()));
        Driver driver = GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(neo4j.user(), neo4j.password()));
        driver.verifyConnectivity();
        new GraphSchema(driver, DATABASE).migrate();
        return new Server(neo4j, driver, directory);
      } catch (Exception e) {
        throw new IllegalStateException("Could not start the embedded Neo4j for the dashboard tests", e);
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

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Driver.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Server.class, k -> Server.start(), Server.class).driver;
  }
}
