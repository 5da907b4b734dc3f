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
 * 0.5–1 KB), and the input key of up to as many recent texts is kept by the text (the classifier
 * passes at most {@link MiniLmEmbedder#MAX_CHARS} characters, about 1–2 KB), so the default {@value
 * #DEFAULT_CAPACITY} entries take about 30–40 MB of heap per JVM (one cache per JVM behind {@link
 * LearnedClassifier#shared()}; {@code -Dfaultline.encoder.cache} sets the number of entries, 0
 * turns it off).
 *
 * <p>The vectors returned are copies: a caller that changes one cannot change another's.
 */
public final class VectorCache implements TextEmbedder {

  /** Entries kept by default. */
  public static final int DEFAULT_CAPACITY = 8192;

  /** Entries kept behind the shared classifier ({@code -Dfaultline.encoder.cache}). */
  public static final int CAPACITY =
      Integer.getInteger("faultline.encoder.cache", DEFAULT_CAPACITY);

  /** Longest text whose input key is remembered by the text. */
  public static final int KEYED_TEXT_LIMIT = 4096;

  private final TextEmbedder inner;
  private final int capacity;
  private final Map<Object, float[]> entries;

  /**
   * What the encoder reads of each recent text, by the text itself: a comment that leaves the
   * encoder's text unchanged (the first {@link MiniLmEmbedder#MAX_CHARS} characters of title, body
   * and comments) costs neither a tokenizer nor an encoder call. Same bound as {@link #entries};
   * texts longer than {@link #KEYED_TEXT_LIMIT} characters are not kept.
   */
  private final Map<String, Object> keys;

  private final AtomicLong keyHits = new AtomicLong();
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
    this.keys =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
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
    return embed(text, inputKey(text));
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

  /** The inner encoder's input key of {@code text}, remembered for the most recent texts. */
  @Override
  public Object inputKey(String text) {
    if (capacity == 0 || text.length() > KEYED_TEXT_LIMIT) {
      return inner.inputKey(text);
    }
    Object key;
    synchronized (keys) {
      key = keys.get(text);
    }
    if (key != null) {
      keyHits.incrementAndGet();
      return key;
    }
    key = inner.inputKey(text); // outside the lock, as encoding
    synchronized (keys) {
      keys.put(text, key);
    }
    return key;
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

  /** Input keys answered without the inner encoder's tokenizer since creation. */
  public long keyHits() {
    return keyHits.get();
  }

  /** Lookups that called the encoder since creation. */
  public long misses() {
    return misses.get();
  }
}
