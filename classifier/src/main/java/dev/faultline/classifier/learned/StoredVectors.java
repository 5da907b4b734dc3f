package dev.faultline.classifier.learned;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An encoder that first asks a {@link VectorStore} for the vector of what it would read, and
 * encodes only when the store has none. The store is asked under {@link #keyOf} of the encoder's
 * name, the fingerprint given and the encoder's {@link TextEmbedder#inputKey}; a {@link
 * VectorCache} in front of it keys its entries by that input key as for the encoder alone. A stored
 * vector of the wrong length is ignored (encoded instead).
 */
public final class StoredVectors implements TextEmbedder {

  private final TextEmbedder encoder;
  private final String fingerprint;
  private final VectorStore store;
  private final AtomicLong found = new AtomicLong();
  private final AtomicLong encoded = new AtomicLong();

  /**
   * @param encoder the encoder itself
   * @param fingerprint its numeric fingerprint on this machine ({@link EncoderFingerprint#of})
   * @param store where earlier vectors are kept ({@link VectorStore#NONE}: always encode)
   */
  public StoredVectors(TextEmbedder encoder, String fingerprint, VectorStore store) {
    this.encoder = Objects.requireNonNull(encoder, "encoder");
    this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * The key of an input: SHA-256 (hex) of the encoder's name, its fingerprint and its input key,
   * each followed by a NUL. Two keys are equal only when the same encoder, computing the same way,
   * reads the same word pieces.
   */
  public static String keyOf(String encoderName, String fingerprint, Object inputKey) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(encoderName.getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      d.update(fingerprint.getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      d.update(String.valueOf(inputKey).getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public float[] embed(String text) {
    return embed(text, inputKey(text));
  }

  @Override
  public float[] embed(String text, Object key) {
    float[] v = store.find(keyOf(encoder.name(), fingerprint, key));
    if (v != null && v.length == encoder.dimension()) {
      found.incrementAndGet();
      return v;
    }
    encoded.incrementAndGet();
    return encoder.embed(text);
  }

  @Override
  public Object inputKey(String text) {
    return encoder.inputKey(text);
  }

  @Override
  public int dimension() {
    return encoder.dimension();
  }

  @Override
  public String name() {
    return encoder.name();
  }

  /** The encoder behind the store. */
  public TextEmbedder encoder() {
    return encoder;
  }

  /** The fingerprint in every key. */
  public String fingerprint() {
    return fingerprint;
  }

  /** Vectors the store gave since creation. */
  public long found() {
    return found.get();
  }

  /** Vectors the encoder computed since creation. */
  public long encoded() {
    return encoded.get();
  }
}
