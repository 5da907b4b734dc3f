package dev.faultline.embedded;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Neo4j 5 server (Bolt and Neo4j's own HTTP API, auth on) run in this JVM, with its store in
 * a directory that survives restarts.
 */
public final class EmbeddedNeo4j implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedNeo4j.class);
  public static final String USER = "neo4j";

  private final Neo4j neo4j;
  private final String password;
  private volatile boolean running;

  private EmbeddedNeo4j(Neo4j neo4j, String password) {
    this.neo4j = neo4j;
    this.password = password;
  }

  /**
   * Starts Neo4j with its store under {@code dataDir}, Bolt on {@code 127.0.0.1:boltPort} and HTTP
   * on {@code 127.0.0.1:httpPort} (0 picks free ports), and sets the {@code neo4j} user's password.
   */
  public static EmbeddedNeo4j start(Path dataDir, int boltPort, int httpPort, String password)
      throws Exception {
    if (password == null || password.length() < 8) {
      throw new IllegalArgumentException("Neo4j password must have at least 8 characters");
    }
    Path data = dataDir.toAbsolutePath();
    Files.createDirectories(data);
    Path work = data.resolve("harness-work");
    Files.createDirectories(work);
    Neo4j neo4j =
        Neo4jBuilders.newInProcessBuilder(work)
            .withConfig(GraphDatabaseSettings.data_directory, data.resolve("data"))
            .withConfig(GraphDatabaseSettings.auth_enabled, true)
            .withConfig(GraphDatabaseSettings.udc_enabled, false)
            .withConfig(GraphDatabaseSettings.pagecache_memory, 256L * 1024 * 1024)
            .withConfig(BoltConnector.enabled, true)
            .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
            .withConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", boltPort))
            .withConfig(HttpConnector.enabled, true)
            .withConfig(HttpConnector.listen_address, new SocketAddress("127.0.0.1", httpPort))
            .withConfig(HttpsConnector.enabled, false)
            // Netty 4.2 (needed by the driver) runs the 5.26 server only without the in-JVM local
            // connector.
            .withConfig(BoltConnectorInternalSettings.enable_local_connector, false)
            // Without these, close() waits ~10 s on Netty's quiet period.
            .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
            .withConfig(
                GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(1))
            .withConfig(
                BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofSeconds(1))
            .build();
    try {
      GraphDatabaseService system = neo4j.databaseManagementService().database("system");
      try {
        system.executeTransactionally(
            "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
            Map.of("password", password));
      } catch (QueryExecutionException e) {
        // A restart on the same store with the same password: nothing to change.
        if (e.getMessage() == null || !e.getMessage().contains("cannot be the same")) {
          throw e;
        }
      }
    } catch (RuntimeException e) {
      neo4j.close();
      throw e;
    }
    EmbeddedNeo4j server = new EmbeddedNeo4j(neo4j, password);
    server.running = true;
    LOG.info(
        "Neo4j listening on {} (Bolt) and {} (HTTP), store in {}",
        neo4j.boltURI(),
        neo4j.httpURI(),
        data);
    return server;
  }

  public URI boltUri() {
    return neo4j.boltURI();
  }

  public URI httpUri() {
    return neo4j.httpURI();
  }

  public String user() {
    return USER;
  }

  public String password() {
    return password;
  }

  public boolean isRunning() {
    return running && neo4j.defaultDatabaseService().isAvailable(1000);
  }

  /** Stops the server; the store stays for a later start. */
  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    neo4j.close();
    LOG.info("Neo4j stopped");
  }

  @Override
  public String toString() {
    return "EmbeddedNeo4j{bolt=" + boltUri() + ", http=" + httpUri() + ", password=****}";
  }
}
