package dev.faultline.ingest;

import static dev.faultline.ingest.TestSupport.SECRET;
import static dev.faultline.ingest.TestSupport.send;
import static dev.faultline.ingest.TestSupport.webhook;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookLoggingTest {
  @TempDir Path tmp;

  @Test
  void neverLogsPayloadsOrSecrets() {
    List<String> lines = new CopyOnWriteArrayList<>();
    AbstractAppender capture =
        new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            lines.add(event.getMessage().getFormattedMessage() + " " + event.getThrown());
          }
        };
    capture.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().addAppender(capture, Level.ALL, null);
    context.updateLoggers();
    RecordingPublisher publisher = new RecordingPublisher();
    WebhookApp app =
        new WebhookApp(
                IngestConfig.builder().secret(SECRET).spoolDir(tmp).build(),
                publisher,
                List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of())
            .start("127.0.0.1", 0);
    try {
      HttpClient client = HttpClient.newHttpClient();
      String marker = "PAYLOAD-MARKER-7f3a";
      byte[] good =
          ("{\"action\":\"opened\",\"issue\":{\"number\":1,\"title\":\""
                  + marker
                  + "\"},\"repository\":{\"full_name\":\"o/r\"}}")
              .getBytes(StandardCharsets.UTF_8);
      byte[] malformed = ("{\"" + marker + "\": tru").getBytes(StandardCharsets.UTF_8);
      byte[] unquoted = ("{" + marker + "}").getBytes(StandardCharsets.UTF_8);
      send(client, webhook(app.port(), "issues", "d-1", good, SECRET).build());
      send(client, webhook(app.port(), "issues", "d-2", good, "wrong").build());
      send(client, webhook(app.port(), "issues", "d-3", malformed, SECRET).build());
      send(client, webhook(app.port(), "issues", "d-4", unquoted, SECRET).build());
      publisher.failing(new IllegalStateException("down"));
      send(client, webhook(app.port(), "issues", "d-5", good, SECRET).build());
    } finally {
      app.stop();
      context.getConfiguration().getRootLogger().removeAppender("capture");
      context.updateLoggers();
    }
    assertTrue(lines.stream().anyMatch(l -> l.contains("d-2")), "refusals are logged: " + lines);
    assertFalse(lines.stream().anyMatch(l -> l.contains("PAYLOAD-MARKER")), lines.toString());
    assertFalse(lines.stream().anyMatch(l -> l.contains(SECRET)), lines.toString());
  }
}
