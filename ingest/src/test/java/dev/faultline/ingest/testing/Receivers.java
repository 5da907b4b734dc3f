package dev.faultline.ingest.testing;

import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.WebhookApp;
import dev.faultline.ingest.WebhookSignature;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The tests' receiver: a {@link WebhookApp} on a free loopback port, and GitHub-shaped, signed
 * requests to it. Published in ingest's test-jar (only this package and the git fixtures).
 */
public final class Receivers {
  private Receivers() {}

  /**
   * A receiver on {@code 127.0.0.1} and a free port with {@code config} and {@code publisher}, no
   * health checks, no extra Javalin configuration and a registry of its own.
   */
  public static WebhookApp start(IngestConfig config, DeliveryPublisher publisher) {
    return new WebhookApp(
            config,
            publisher,
            List.of(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            List.of())
        .start("127.0.0.1", 0);
  }

  /**
   * A delivery as GitHub sends it to the receiver on {@code port}: signed with {@code secret}
   * (unsigned where it is null).
   */
  public static HttpRequest.Builder webhook(
      int port, String event, String deliveryId, byte[] body, String secret) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + WebhookApp.WEBHOOK_PATH))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("User-Agent", "GitHub-Hookshot/test")
            .header("X-GitHub-Event", event)
            .header("X-GitHub-Delivery", deliveryId)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (secret != null) {
      b.header(WebhookSignature.HEADER, WebhookSignature.sign(secret, body));
    }
    return b;
  }

  /** Sends {@code request}, the answer's body as a string; I/O failures unchecked. */
  public static HttpResponse<String> send(HttpClient client, HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
