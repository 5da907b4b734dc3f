package dev.faultline.classifier.learned;

/**
 * Turns a text into a fixed-length vector whose cosine similarity reflects meaning. Thread-safe.
 */
public interface TextEmbedder {

  /** The vector of a text (unit length); an empty text gives a vector too. */
  float[] embed(String text);

  /**
   * The vector of a text whose {@link #inputKey} the caller has already computed (saves a second
   * tokenisation down a chain of caches); by default {@link #embed(String)}.
   */
  default float[] embed(String text, Object inputKey) {
    return embed(text);
  }

  /** Length of every vector. */
  int dimension();

  /**
   * What the encoder actually reads of a text: two texts with equal keys get the same vector, so a
   * cache of vectors may be keyed by it ({@link VectorCache}). By default the text itself; an
   * encoder that truncates returns what survives the truncation.
   */
  default Object inputKey(String text) {
    return text;
  }

  /** Identifies the encoder; a model artefact trained with one encoder refuses another. */
  String name();
}
