package dev.faultline.ingest;

import dev.faultline.ingest.testing.Receivers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

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
    return Receivers.webhook(port, event, deliveryId, body, secret);
  }

  static HttpResponse<String> send(HttpClient client, HttpRequest request) {
    return Receivers.send(client, request);
  }
}
