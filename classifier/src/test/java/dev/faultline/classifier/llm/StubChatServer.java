package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small OpenAI-compatible chat-completions server for tests: real HTTP on 127.0.0.1 and a free
 * port. It records every request (path, headers, parsed body) and answers from a script of replies,
 * in order: a valid answer, an HTTP error (with optional Retry-After), a slow answer, a body that
 * is not JSON. When the script is empty it gives the fallback reply. Usage tokens are counted as
 * characters / 4 of the messages and of the answer.
 */
public final class StubChatServer implements AutoCloseable {

  /** One scripted reply. */
  public record Reply(
      int status, String content, String rawBody, long delayMillis, Map<String, String> headers) {

    /** 200 with this message content. */
    public static Reply answer(String content) {
      return new Reply(200, content, null, 0, Map.of());
    }

    /** 200 with this message content after a delay. */
    public static Reply slow(String content, long delayMillis) {
      return new Reply(200, content, null, delayMillis, Map.of());
    }

    /** An error status with an OpenAI-style error body. */
    public static Reply status(int status, Map<String, String> headers) {
      return new Reply(
          status,
          null,
          "{\"error\":{\"message\":\"stub says " + status + "\",\"type\":\"stub\"}}",
          0,
          headers);
    }

    /** 200 with a body that is not JSON at all. */
    public static Reply brokenBody() {
      return new Reply(200, null, "{\"choices\": [ oops", 0, Map.of());
    }
  }

  /** One recorded request. */
  public record Recorded(
      String method, String path, Map<String, List<String>> headers, JsonNode body) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(8);
  private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
  private final List<Recorded> requests = Collections.synchronizedList(new ArrayList<>());
  private final ObjectMapper json = new ObjectMapper();
  private volatile Reply fallback = Reply.status(500, Map.of());
  private volatile java.util.concurrent.CountDownLatch gate =
      new java.util.concurrent.CountDownLatch(0);
  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger maxInFlight =
      new java.util.concurrent.atomic.AtomicInteger();

  public StubChatServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** The base URL to configure as the endpoint. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Adds replies to the script. */
  public StubChatServer then(Reply... replies) {
    script.addAll(List.of(replies));
    return this;
  }

  /** The reply once the script is empty. */
  public StubChatServer otherwise(Reply reply) {
    fallback = reply;
    return this;
  }

  /** Every request so far, oldest first. */
  public List<Recorded> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /**
   * Holds every request that arrives from now on (recorded, unanswered) until {@link #release()}: a
   * test can see what happens while answers are outstanding without timing anything.
   */
  public StubChatServer hold() {
    gate = new java.util.concurrent.CountDownLatch(1);
    return this;
  }

  /** Answers the held requests and every later one. */
  public StubChatServer release() {
    gate.countDown();
    return this;
  }

  /** The most requests it was ever answering at once. */
  public int maxInFlight() {
    return maxInFlight.get();
  }

  private void handle(HttpExchange ex) throws IOException {
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try {
      answer(ex);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void answer(HttpExchange ex) throws IOException {
    try (ex) {
      byte[] in = ex.getRequestBody().readAllBytes();
      JsonNode body;
      try {
        body = json.readTree(in);
      } catch (IOException e) {
        body = null;
      }
      requests.add(
          new Recorded(
              ex.getRequestMethod(),
              ex.getRequestURI().getPath(),
              Map.copyOf(ex.getRequestHeaders()),
              body));
      if (!ex.getRequestURI().getPath().equals("/v1/chat/completions")
          || !"POST".equals(ex.getRequestMethod())) {
        send(ex, 404, "{\"error\":{\"message\":\"no such route\"}}");
        return;
      }
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      Reply r = script.poll();
      if (r == null) {
        r = fallback;
      }
      if (r.delayMillis() > 0) {
        try {
          Thread.sleep(r.delayMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
      if (r.rawBody() != null) {
        send(ex, r.status(), r.rawBody());
        return;
      }
      long promptChars = 0;
      for (JsonNode m : body.path("messages")) {
        promptChars += m.path("content").asText().length();
      }
      ObjectNode o = json.createObjectNode();
      o.put("id", "chatcmpl-stub");
      o.put("object", "chat.completion");
      o.put("model", body.path("model").asText());
      ObjectNode choice = o.putArray("choices").addObject();
      choice.put("index", 0);
      choice.putObject("message").put("role", "assistant").put("content", r.content());
      choice.put("finish_reason", "stop");
      ObjectNode usage = o.putObject("usage");
      usage.put("prompt_tokens", promptChars / 4);
      usage.put("completion_tokens", r.content().length() / 4);
      usage.put("total_tokens", promptChars / 4 + r.content().length() / 4);
      send(ex, r.status(), o.toString());
    }
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
