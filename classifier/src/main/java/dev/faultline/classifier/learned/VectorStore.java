package dev.faultline.classifier.learned;

/**
 * Where text vectors outlive the JVM, keyed by {@link StoredVectors#keyOf}: the SHA-256 of the
 * encoder's name, its numeric fingerprint ({@link EncoderFingerprint}) and what it reads of the
 * text ({@link TextEmbedder#inputKey}). A vector found under a key is the one that encoder gives
 * that input on a machine of that fingerprint, so a classifier may use it instead of encoding. The
 * graph keeps them on the issues ({@code textVector}, {@code textVectorKey}; the Neo4j
 * implementation is in stream-jobs), so a replay of history ({@code faultline reclassify}) encodes
 * only texts it has not seen. Implementations are thread-safe.
 */
public interface VectorStore {

  /** No store: every lookup misses. */
  VectorStore NONE = key -> null;

  /**
   * The vector stored under a key, or null when none is (or the store cannot answer now: the caller
   * then encodes).
   */
  float[] find(String key);

  /**
   * Whether the store is known to hold a vector under this key (it answered it recently): a caller
   * need not send that vector to it again. By default false.
   */
  default boolean holds(String key) {
    return false;
  }
}
