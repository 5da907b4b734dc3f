package dev.faultline.ingest.backfill;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local stand-in for api.github.com replaying pages written here in GitHub's format: JSON arrays,
 * {@code Link} headers with {@code rel="next"} and {@code rel="last"}, rate-limit headers.
 */
final class FakeGitHub implements AutoCloseable {
  /** A canned answer. */
  record Answer(int status, String body, Map<String, String> headers) {
    static Answer ok(String body) {
      return new Answer(200, body, Map.of());
    }
  }

  private final HttpServer server;

  /** path?query (page included) → answer; a list is answered in turn, the last one repeatedly. */
  private final Map<String, List<Answer>> answers = new ConcurrentHashMap<>();

  private final Map<String, Integer> served = new ConcurrentHashMap<>();
  final List<String> requests = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();

  FakeGitHub() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  URI base() {
    return URI.create(baseUrl());
  }

  /** Answers {@code pathAndQuery} with {@code answers} in turn. */
  FakeGitHub on(String pathAndQuery, Answer... answers) {
    this.answers.put(pathAndQuery, List.of(answers));
    return this;
  }

  /**
   * A Link header for page {@code page} of {@code last} of {@code pathAndQuery} (which lacks
   * page=).
   */
  String link(String pathAndQuery, int page, int last) {
    StringBuilder sb = new StringBuilder();
    if (page < last) {
      sb.append('<')
          .append(baseUrl())
          .append(pathAndQuery)
          .append("&page=")
          .append(page + 1)
          .append(">; rel=\"next\", ");
    }
    sb.append('<')
        .append(baseUrl())
        .append(pathAndQuery)
        .append("&page=")
        .append(last)
        .append(">; rel=\"last\"");
    return sb.toString();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String key =
        exchange.getRequestURI().getRawPath()
            + (exchange.getRequestURI().getRawQuery() == null
                ? ""
                : "?" + exchange.getRequestURI().getRawQuery());
    requests.add(key);
    authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
    List<Answer> list = answers.get(key);
    Answer answer;
    if (list == null) {
      answer = new Answer(404, "{\"message\":\"Not Found\"}", Map.of());
    } else {
      int n = served.merge(key, 1, Integer::sum) - 1;
      answer = list.get(Math.min(n, list.size() - 1));
    }
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.getResponseHeaders().add("X-RateLimit-Limit", "5000");
    answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    if (!answer.headers().containsKey("X-RateLimit-Remaining")) {
      exchange.getResponseHeaders().add("X-RateLimit-Remaining", "4999");
    }
    exchange.sendResponseHeaders(answer.status(), body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
