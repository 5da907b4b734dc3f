package dev.faultline.dashboard;

import java.util.Locale;

/**
 * A stand-in for the pipeline's encoder in the dashboard tests: each lower-cased word of three or
 * more letters hashed into one of 384 dimensions, the counts normalised to length 1. Texts sharing
 * words have a high cosine, texts sharing none about 0, so the {@link KnownGraph}'s stored vectors
 * and a pasted report's rank as a reader would expect, without loading a model.
 */
final class WordVectors implements TextEncoder {
  static final WordVectors INSTANCE = new WordVectors();

  static final int DIMENSIONS = 384;

  @Override
  public float[] encode(String text) {
    float[] v = new float[DIMENSIONS];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (w.length() >= 3) {
        v[Math.floorMod(w.hashCode(), DIMENSIONS)] += 1f;
      }
    }
    double norm = 0;
    for (float f : v) {
      norm += f * f;
    }
    if (norm == 0) {
      v[0] = 1f; // the vector index refuses a zero vector under cosine
      return v;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= scale;
    }
    return v;
  }
}
