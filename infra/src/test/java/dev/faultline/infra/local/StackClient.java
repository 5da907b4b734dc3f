package dev.faultline.infra.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a user does against a running stack, over HTTP only: signed deliveries, /health, Cypher over
 * Neo4j's HTTP API.
 */
public final class StackClient {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final int receiverPort;
  private final URI neo4jHttp;
  private final String neo4jPassword;
  private final String secret;

  public StackClient(int receiverPort, URI neo4jHttp, String neo4jPassword, String secret) {
    this.receiverPort = receiverPort;
    this.neo4jHttp = neo4jHttp;
    this.neo4jPassword = neo4jPassword;
    this.secret = secret;
  }

  static StackClient of(LocalStack stack) {
    return new StackClient(
        stack.receiver().port(),
        stack.neo4j().httpUri(),
        stack.secrets().neo4jPassword(),
        stack.secrets().webhookSecret());
  }

  public static String sign(String secret, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
  }

  public HttpResponse<String> deliver(String event, String deliveryId, byte[] body)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiverPort + "/webhooks/github"))
            .header("Content-Type", "application/json")
            .header("X-GitHub-Event", event)
            .header("X-GitHub-Delivery", deliveryId)
            .header("X-Hub-Signature-256", sign(secret, body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> health() throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiverPort + "/health"))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Runs one Cypher statement through Neo4j's HTTP API and returns the first column of each row.
   */
  public JsonNode cypher(String statement, Map<String, Object> parameters) throws Exception {
    String body =
        json.writeValueAsString(
            Map.of(
                "statements",
                new Object[] {Map.of("statement", statement, "parameters", parameters)}));
    String auth =
        Base64.getEncoder()
            .encodeToString(("neo4j:" + neo4jPassword).getBytes(StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(neo4jHttp.resolve("/db/neo4j/tx/commit"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .header("Authorization", "Basic " + auth)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    JsonNode result =
        json.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    if (!result.path("errors").isEmpty()) {
      throw new IllegalStateException("Cypher failed: " + result.path("errors"));
    }
    return result.path("results").path(0).path("data");
  }

  public long count(String statement, Map<String, Object> parameters) throws Exception {
    JsonNode data = cypher(statement, parameters);
    return data.isEmpty() ? 0 : data.path(0).path("row").path(0).asLong();
  }
}
