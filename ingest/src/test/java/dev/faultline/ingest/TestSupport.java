package dev.faultline.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Small helpers shared by the tests. */
final class TestSupport {
  static final String SECRET = "test-secret-\u00e9";

  private TestSupport() {}

  static byte[] resource(String path) {
    try (InputStream in = TestSupport.class.getResourceAsStream("/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("No test resource " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static HttpRequest.Builder webhook(
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

  static HttpResponse<String> send(HttpClient client, HttpRequest request) {
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
