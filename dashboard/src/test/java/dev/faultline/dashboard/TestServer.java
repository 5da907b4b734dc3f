package dev.faultline.dashboard;

import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.testing.SharedNeo4j;
import io.javalin.Javalin;
import java.time.Duration;
import org.neo4j.driver.Driver;

/**
 * A real Javalin server on a free loopback port with only the dashboard registered, as a host
 * application does.
 */
final class TestServer implements AutoCloseable {
  final Dashboard dashboard;
  final Javalin app;

  /** With the tests' stand-in encoder, {@link WordVectors}. */
  TestServer(Driver driver) {
    this(driver, WordVectors.INSTANCE);
  }

  /** With this encoder for "find issues like this" (null: by words alone). */
  TestServer(Driver driver, TextEncoder encoder) {
    this.dashboard =
        new Dashboard(
            new QueryLibrary(driver, SharedNeo4j.DATABASE), Duration.ofMillis(300), encoder);
    this.app =
        Javalin.create(
                cfg -> {
                  cfg.startup.showJavalinBanner = false;
                  cfg.startup.showOldJavalinVersionWarning = false;
                  dashboard.register(cfg);
                })
            .start("127.0.0.1", 0);
  }

  String base() {
    return "http://127.0.0.1:" + app.port();
  }

  @Override
  public void close() {
    dashboard.close();
    app.stop();
  }
}
