package dev.faultline.classifier.learned;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded, thread-safe memory of text vectors keyed by what the encoder reads of each text
 * ({@link TextEmbedder#inputKey}): for the MiniLM encoder the first {@value
 * MiniLmEmbedder#DEFAULT_MAX_TOKENS} word pieces. A comment that leaves them unchanged (the usual
 * case: the title and opening post already fill the window) re-classifies its issue without an
 * encoder call. Least recently used entries go first once {@link #capacity()} is reached.
 *
 * <p>Size: an entry holds the 384-float vector (1.5 KB) and its key (the word pieces joined, about
 * 0.5–1 KB), so the default {@value #DEFAULT_CAPACITY} entries take about 20–25 MB of heap per JVM
 * (one cache per JVM behind {@link LearnedClassifier#shared()}; {@code -Dfaultline.encoder.cache}
 * sets the number of entries, 0 turns it off).
 *
 * <p>The vectors returned are copies: a caller that changes one cannot change another's.
 */
public final class VectorCache implements TextEmbedder {

  /** Entries kept by default. */
  public static final int DEFAULT_CAPACITY = 8192;

  /** Entries kept behind the shared classifier ({@code -Dfaultline.encoder.cache}). */
  public static final int CAPACITY =
      Integer.getInteger("faultline.encoder.cache", DEFAULT_CAPACITY);

  private final TextEmbedder inner;
  private final int capacity;
  private final Map<Object, float[]> entries;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  public VectorCache(TextEmbedder inner, int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, not " + capacity);
    }
    this.inner = inner;
    this.capacity = capacity;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Object, float[]> eldest) {
            return size() > VectorCache.this.capacity;
          }
        };
  }

  @Override
  public float[] embed(String text) {
    if (capacity == 0) {
      misses.incrementAndGet();
      return inner.embed(text);
    }
    return embed(text, inner.inputKey(text));
  }

  @Override
  public float[] embed(String text, Object key) {
    if (capacity == 0) {
      misses.incrementAndGet();
      return inner.embed(text, key);
    }
    float[] v;
    synchronized (entries) {
      v = entries.get(key);
    }
    if (v != null) {
      hits.incrementAndGet();
      return v.clone();
    }
    misses.incrementAndGet();
    // Encoded outside the lock: two threads missing the same key both encode it (same vector).
    v = inner.embed(text, key);
    synchronized (entries) {
      entries.put(key, v);
    }
    return v.clone();
  }

  @Override
  public Object inputKey(String text) {
    return inner.inputKey(text);
  }

  @Override
  public int dimension() {
    return inner.dimension();
  }

  @Override
  public String name() {
    return inner.name();
  }

  /** The encoder (or store) behind the cache. */
  public TextEmbedder inner() {
    return inner;
  }

  /** Most entries kept. */
  public int capacity() {
    return capacity;
  }

  /** Entries held now. */
  public int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** Lookups answered without the encoder since creation. */
  public long hits() {
    return hits.get();
  }

  /** Lookups that called the encoder since creation. */
  public long misses() {
    return misses.get();
  }
}
