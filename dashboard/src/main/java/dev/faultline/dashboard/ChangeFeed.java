package dev.faultline.dashboard;

import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells open pages that the graph changed, over server-sent events. One poller per dashboard (not
 * one per page) reads the graph's change marker every {@code interval} while at least one page
 * listens, and sends a {@code change} event to every listener when the marker differs from the last
 * one seen. Pages get the current marker as a {@code hello} event on connect, and a comment on
 * every poll so connections of closed pages are noticed.
 */
final class ChangeFeed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);

  private final Supplier<String> marker;
  private final Function<Object, String> json;
  private final Duration interval;
  private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService scheduler;
  private String last;
  private ScheduledFuture<?> poller;

  /**
   * @param marker reads the graph's current change marker (a query); called from the poller thread
   *     only
   * @param json serialises event data
   */
  ChangeFeed(Supplier<String> marker, Function<Object, String> json, Duration interval) {
    this.marker = Objects.requireNonNull(marker, "marker");
    this.json = Objects.requireNonNull(json, "json");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "dashboard-change-feed");
              t.setDaemon(true);
              return t;
            });
  }

  /** The SSE handler: registers the page and greets it with the current marker. */
  void subscribe(SseClient client) {
    client.keepAlive();
    client.onClose(() -> clients.remove(client));
    clients.add(client);
    // The first page's greeting carries a marker read now, so any write after the greeting is seen
    // as a change.
    String current = baseline();
    ensurePolling();
    client.sendEvent("hello", json.apply(Map.of("marker", current)));
  }

  int listeners() {
    return clients.size();
  }

  private synchronized String baseline() {
    if (last == null) {
      try {
        last = marker.get();
      } catch (RuntimeException e) {
        LOG.warn("Reading the graph's change marker failed: {}", e.getMessage());
        return "";
      }
    }
    return last;
  }

  private synchronized void ensurePolling() {
    if (poller == null && !scheduler.isShutdown()) {
      poller =
          scheduler.scheduleWithFixedDelay(
              this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * One poll: read the marker (only while someone listens), notify on change, keep connections
   * alive.
   */
  synchronized void poll() {
    if (clients.isEmpty()) {
      return;
    }
    try {
      String now = marker.get();
      String before = last;
      last = now;
      boolean changed = before != null && !before.equals(now);
      String event = changed ? json.apply(Map.of("marker", now)) : null;
      for (SseClient c : List.copyOf(clients)) {
        if (c.terminated()) {
          clients.remove(c);
        } else if (changed) {
          c.sendEvent("change", event);
        } else {
          // A comment on every poll: a page that went away is noticed (its write fails) within a
          // poll or two, so
          // its request is released promptly rather than held until the next change.
          c.sendComment("poll");
        }
      }
    } catch (RuntimeException e) {
      // The graph may be restarting; pages keep their data and hear of the next change.
      LOG.warn("Reading the graph's change marker failed: {}", e.getMessage());
    }
  }

  /**
   * Stops polling and ends every open event stream, so the server's stop is not held up by them.
   */
  @Override
  public void close() {
    scheduler.shutdownNow();
    for (SseClient c : List.copyOf(clients)) {
      try {
        c.close();
      } catch (RuntimeException e) {
        LOG.debug("Closing an event stream failed: {}", e.getMessage());
      }
    }
    clients.clear();
  }
}
