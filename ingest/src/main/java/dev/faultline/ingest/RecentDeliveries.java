package dev.faultline.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The ids of the most recent deliveries, to drop GitHub redeliveries (they keep their {@code
 * X-GitHub-Delivery}). Bounded: the least recently seen id is forgotten first. Each id maps to its
 * hand-off, so a redelivery that races the original waits for the original's outcome instead of
 * publishing twice. Thread-safe.
 */
public final class RecentDeliveries {
  private final int capacity;
  private final Map<String, CompletableFuture<Handoff>> ids;

  /**
   * @param capacity how many ids to remember; 0 remembers none
   */
  public RecentDeliveries(int capacity) {
    this.capacity = capacity;
    this.ids =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(
              Map.Entry<String, CompletableFuture<Handoff>> eldest) {
            return size() > RecentDeliveries.this.capacity;
          }
        };
  }

  /**
   * Claims {@code deliveryId} for {@code handoff}.
   *
   * @return the hand-off of an earlier delivery with this id, or null when this is the first (the
   *     caller publishes)
   */
  public synchronized CompletableFuture<Handoff> claim(
      String deliveryId, CompletableFuture<Handoff> handoff) {
    if (capacity == 0) {
      return null;
    }
    CompletableFuture<Handoff> earlier = ids.get(deliveryId);
    if (earlier != null && !earlier.isCompletedExceptionally()) {
      return earlier;
    }
    ids.put(deliveryId, handoff);
    return null;
  }

  /**
   * Forgets {@code deliveryId} if it is still mapped to {@code handoff} (its hand-off failed: a
   * retry may publish).
   */
  public synchronized void release(String deliveryId, CompletableFuture<Handoff> handoff) {
    ids.remove(deliveryId, handoff);
  }

  public synchronized int size() {
    return ids.size();
  }
}
