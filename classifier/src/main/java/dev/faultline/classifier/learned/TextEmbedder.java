package dev.faultline.classifier.learned;

/**
 * Turns a text into a fixed-length vector whose cosine similarity reflects meaning. Thread-safe.
 */
public interface TextEmbedder {

  /** The vector of a text (unit length); an empty text gives a vector too. */
  float[] embed(String text);

  /** Length of every vector. */
  int dimension();

  /** Identifies the encoder; a model artefact trained with one encoder refuses another. */
  String name();
}
