package dev.faultline.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's lean load generator against a scripted server socket: 2xx answers with a length
 * or chunked body keep the connection, a 5xx fails its send, a connection closed mid-answer fails
 * its send and the next goes out on a new connection.
 */
class LeanHttpClientTest {
  private static final byte[] BODY = "{\"action\":\"opened\"}".getBytes(StandardCharsets.UTF_8);
  private static final String CLOSE = "<close>";

  private final BlockingQueue<String> script = new LinkedBlockingQueue<>();
  private final List<String> deliveryIds = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<byte[]> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private ServerSocket server;
  private LeanHttpClient client;

  @AfterEach
  void close() throws IOException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void lengthAndChunkedAnswersAreConsumedAndTheConnectionKept() throws Exception {
    start(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}",
        "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4;ext=1\r\n{\"ok\r\n7\r\n\":true}\r\n0\r\nX-Trailer: t\r\n\r\n",
        "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}");

    for (int i = 0; i < 3; i++) {
      client.send().get(5, TimeUnit.SECONDS);
    }

    assertEquals(1, accepted.get(), "all three on one keep-alive connection");
    assertEquals(
        List.of("bench-000000000001", "bench-000000000002", "bench-000000000003"), deliveryIds);
    for (byte[] b : bodies) {
      assertArrayEquals(BODY, b);
    }
  }

  @Test
  void aServerErrorFailsItsSendAndTheConnectionServesTheNext() throws Exception {
    start(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 13\r\n\r\n{\"status\":503",
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");

    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> client.send().get(5, TimeUnit.SECONDS));
    assertTrue(failed.getCause().getMessage().contains("503"), failed.getCause().getMessage());
    client.send().get(5, TimeUnit.SECONDS);

    assertEquals(1, accepted.get());
  }

  @Test
  void aConnectionClosedMidAnswerFailsItsSendAndTheNextGoesOnANewOne() throws Exception {
    start(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"short\"" + CLOSE,
        CLOSE,
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");

    CompletableFuture<Void> first = client.send();
    assertThrows(ExecutionException.class, () -> first.get(5, TimeUnit.SECONDS));
    CompletableFuture<Void> second = client.send();
    assertThrows(ExecutionException.class, () -> second.get(5, TimeUnit.SECONDS));
    client.send().get(5, TimeUnit.SECONDS);

    assertEquals(3, accepted.get());
  }

  @Test
  void readAnswerLeavesTheStreamAtTheNextAnswer() throws IOException {
    InputStream in =
        new BufferedInputStream(
            new ByteArrayInputStream(
                ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                        + "HTTP/1.1 500 Server Error\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")
                    .getBytes(StandardCharsets.US_ASCII)));

    assertEquals(new LeanHttpClient.Answer(200, true), LeanHttpClient.readAnswer(in));
    LeanHttpClient.Answer error = LeanHttpClient.readAnswer(in);
    assertEquals(500, error.status());
    assertFalse(error.keepAlive());
    assertThrows(EOFException.class, () -> LeanHttpClient.readAnswer(in));
  }

  /** A server answering each request with the next scripted answer; {@link #CLOSE} closes. */
  private void start(String... answers) throws IOException {
    script.addAll(List.of(answers));
    server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket s = server.accept();
                  accepted.incrementAndGet();
                  Thread t = new Thread(() -> serve(s));
                  t.setDaemon(true);
                  t.start();
                } catch (IOException e) {
                  return;
                }
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
    client =
        LeanHttpClient.post(
            new InetSocketAddress("127.0.0.1", server.getLocalPort()),
            "/webhooks/github",
            List.of("Content-Type", "application/json", "X-GitHub-Event", "issues"),
            "X-GitHub-Delivery",
            "bench-",
            BODY,
            1,
            0);
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      while (true) {
        readRequest(in);
        String answer = script.poll(5, TimeUnit.SECONDS);
        if (answer == null) {
          return;
        }
        boolean close = answer.endsWith(CLOSE);
        out.write(answer.replace(CLOSE, "").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        if (close) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // The client went away: this connection is done.
    }
  }

  private void readRequest(InputStream in) throws IOException {
    int length = 0;
    List<String> lines = new ArrayList<>();
    for (String line = line(in); !line.isEmpty(); line = line(in)) {
      lines.add(line);
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
      if (lower.startsWith("x-github-delivery:")) {
        deliveryIds.add(line.substring(18).trim());
      }
    }
    if (lines.isEmpty() || !lines.get(0).startsWith("POST /webhooks/github HTTP/1.1")) {
      throw new IOException("unexpected request: " + lines);
    }
    bodies.add(in.readNBytes(length));
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder s = new StringBuilder();
    int b;
    while ((b = in.read()) != '\n') {
      if (b == -1) {
        throw new EOFException();
      }
      if (b != '\r') {
        s.append((char) b);
      }
    }
    return s.toString();
  }
}
