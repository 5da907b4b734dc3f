package dev.faultline.ingest.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The benchmark's lean load generator, as one would use {@code wrk}: {@code connections} plain
 * sockets with HTTP/1.1 keep-alive, each request built once as bytes (only its delivery id's digits
 * patched per send, so the receiver's dedup never short-cuts one), each answer read and checked (a
 * status line of 2xx, a {@code Content-Length} or chunked body consumed). A non-2xx answer or a
 * closed connection fails that send; the connection is opened again for the next.
 *
 * <p>Sends are written by the caller's thread; each connection has one reader thread ({@value
 * #THREAD_PREFIX}n, blocked in {@code read} while a request is out), which the benchmark charges to
 * the client.
 */
final class LeanHttpClient implements AutoCloseable {
  static final String THREAD_PREFIX = "bench-client-";
  private static final int ID_DIGITS = 12;

  private final InetSocketAddress address;
  private final BlockingQueue<Connection> idle;
  private final List<Connection> all = new ArrayList<>();
  private final AtomicLong ids;

  /**
   * @param head the request line and headers up to the delivery id's value, which the client
   *     appends ({@code idPrefix} and {@value #ID_DIGITS} digits), then {@code tail}
   * @param tail the rest of the headers after the delivery id's value, the blank line and the body
   */
  LeanHttpClient(
      InetSocketAddress address,
      String head,
      String idPrefix,
      byte[] tail,
      int connections,
      long firstId)
      throws IOException {
    this.address = address;
    this.idle = new ArrayBlockingQueue<>(connections);
    this.ids = new AtomicLong(firstId);
    byte[] before = (head + idPrefix).getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < connections; i++) {
      byte[] request = new byte[before.length + ID_DIGITS + tail.length];
      System.arraycopy(before, 0, request, 0, before.length);
      System.arraycopy(tail, 0, request, before.length + ID_DIGITS, tail.length);
      Connection c = new Connection(i, request, before.length);
      all.add(c);
      idle.add(c);
    }
  }

  /**
   * A POST of {@code body} to {@code path} with {@code headers} (name, value pairs) and a delivery
   * id header {@code idHeader} of {@code idPrefix} and a counter.
   */
  static LeanHttpClient post(
      InetSocketAddress address,
      String path,
      List<String> headers,
      String idHeader,
      String idPrefix,
      byte[] body,
      int connections,
      long firstId)
      throws IOException {
    StringBuilder head = new StringBuilder();
    head.append("POST ").append(path).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(address.getHostString()).append(':').append(address.getPort());
    head.append("\r\n");
    for (int i = 0; i < headers.size(); i += 2) {
      head.append(headers.get(i)).append(": ").append(headers.get(i + 1)).append("\r\n");
    }
    head.append(idHeader).append(": ");
    byte[] rest =
        ("\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] tail = new byte[rest.length + body.length];
    System.arraycopy(rest, 0, tail, 0, rest.length);
    System.arraycopy(body, 0, tail, rest.length, body.length);
    return new LeanHttpClient(address, head.toString(), idPrefix, tail, connections, firstId);
  }

  /**
   * Sends the next request on an idle connection; completes once its answer was read, exceptionally
   * if it was not a 2xx or the connection failed. At most {@code connections} sends may be
   * outstanding (the caller's semaphore).
   */
  CompletableFuture<Void> send() {
    Connection c = idle.poll();
    if (c == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("more sends outstanding than connections"));
    }
    CompletableFuture<Void> answered = new CompletableFuture<>();
    c.send(ids.incrementAndGet(), answered);
    return answered;
  }

  @Override
  public void close() {
    for (Connection c : all) {
      c.close();
    }
  }

  /** What one answer said: its status, and whether the connection stays open after it. */
  record Answer(int status, boolean keepAlive) {}

  /**
   * Reads one HTTP/1.1 answer from {@code in} and consumes its body (by {@code Content-Length}, by
   * chunks, or to the end of the stream where it has neither).
   *
   * @throws EOFException when the stream ends before the answer does (a closed connection)
   * @throws IOException when the answer is not HTTP/1.x
   */
  static Answer readAnswer(InputStream in) throws IOException {
    String status = line(in);
    if (!status.startsWith("HTTP/1.") || status.length() < 12 || status.charAt(8) != ' ') {
      throw new IOException("not an HTTP/1.x status line: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean keepAlive = !status.startsWith("HTTP/1.0");
    for (String h = line(in); !h.isEmpty(); h = line(in)) {
      int colon = h.indexOf(':');
      if (colon < 0) {
        throw new IOException("malformed header line: " + h);
      }
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.endsWith("chunked");
        case "connection" -> keepAlive = !value.contains("close");
        default -> {}
      }
    }
    if (code / 100 == 1 || code == 204 || code == 304) {
      return new Answer(code, keepAlive);
    }
    if (chunked) {
      readChunks(in);
    } else if (length >= 0) {
      skip(in, length);
    } else {
      while (in.read() != -1) {
        // No length: the body runs to the end of the connection.
      }
      keepAlive = false;
    }
    return new Answer(code, keepAlive);
  }

  private static void readChunks(InputStream in) throws IOException {
    while (true) {
      String size = line(in);
      int semicolon = size.indexOf(';');
      long n = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
      if (n == 0) {
        for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
          // Trailers are not looked at.
        }
        return;
      }
      skip(in, n);
      if (!line(in).isEmpty()) {
        throw new IOException("chunk not followed by CRLF");
      }
    }
  }

  private static void skip(InputStream in, long n) throws IOException {
    long left = n;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() == -1) {
          throw new EOFException("connection closed " + left + " bytes before the body's end");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  /** One line without its CRLF (or LF); EOF before its end is a closed connection. */
  private static String line(InputStream in) throws IOException {
    StringBuilder s = new StringBuilder(64);
    int b;
    while ((b = in.read()) != '\n') {
      if (b == -1) {
        throw new EOFException("connection closed mid-answer");
      }
      s.append((char) b);
    }
    int end = s.length();
    if (end > 0 && s.charAt(end - 1) == '\r') {
      s.setLength(end - 1);
    }
    return s.toString();
  }

  /** One keep-alive connection, its request bytes and its reader thread. */
  private final class Connection {
    private final byte[] request;
    private final int idOffset;
    private final AtomicReference<CompletableFuture<Void>> pending = new AtomicReference<>();
    private final Thread reader;
    private volatile Socket socket;
    private volatile boolean closed;

    Connection(int index, byte[] request, int idOffset) throws IOException {
      this.request = request;
      this.idOffset = idOffset;
      this.socket = open();
      this.reader = new Thread(this::readLoop, THREAD_PREFIX + index);
      reader.setDaemon(true);
      reader.start();
    }

    private Socket open() throws IOException {
      Socket s = new Socket();
      s.setTcpNoDelay(true);
      s.connect(address, 5_000);
      return s;
    }

    void send(long id, CompletableFuture<Void> answered) {
      for (int i = ID_DIGITS - 1; i >= 0; i--) {
        request[idOffset + i] = (byte) ('0' + id % 10);
        id /= 10;
      }
      pending.set(answered);
      Socket s = socket;
      try {
        if (closed) {
          throw new IOException("connection could not be opened again");
        }
        OutputStream out = s.getOutputStream();
        out.write(request);
        out.flush();
      } catch (IOException e) {
        // Whichever of this thread and the reader takes the send back fails it.
        if (pending.compareAndSet(answered, null)) {
          idle.add(this);
          answered.completeExceptionally(new IllegalStateException("write failed: " + e));
        }
      }
    }

    private void readLoop() {
      InputStream in = null;
      Socket current = null;
      while (!closed) {
        try {
          if (current != socket) {
            current = socket;
            in = new BufferedInputStream(current.getInputStream(), 8192);
          }
          Answer answer = readAnswer(in);
          CompletableFuture<Void> answered = pending.getAndSet(null);
          if (!answer.keepAlive()) {
            reopen();
          }
          finish(answered, answer.status() / 100 == 2 ? null : "status " + answer.status());
        } catch (IOException | RuntimeException e) {
          if (closed) {
            return;
          }
          CompletableFuture<Void> answered = pending.getAndSet(null);
          reopen();
          finish(answered, "connection failed: " + e);
        }
      }
    }

    /**
     * Back to the idle queue first, then the send's outcome (its caller may send again at once).
     */
    private void finish(CompletableFuture<Void> answered, String failure) {
      if (answered == null) {
        // Nothing was out (a connection closed while idle): it is still in the idle queue.
        return;
      }
      idle.add(this);
      if (failure == null) {
        answered.complete(null);
      } else {
        answered.completeExceptionally(new IllegalStateException(failure));
      }
    }

    private void reopen() {
      closeQuietly(socket);
      try {
        socket = open();
      } catch (IOException e) {
        closed = true;
      }
    }

    void close() {
      closed = true;
      closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
      try {
        s.close();
      } catch (IOException e) {
        // Closing anyway.
      }
    }
  }
}
