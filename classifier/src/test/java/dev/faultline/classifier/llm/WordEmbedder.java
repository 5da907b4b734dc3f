package dev.faultline.classifier.llm;

import dev.faultline.classifier.learned.TextEmbedder;
import java.util.Locale;

/**
 * A test encoder: every lower-case word adds one at its hashed position; texts sharing words point
 * alike.
 */
final class WordEmbedder implements TextEmbedder {

  @Override
  public float[] embed(String text) {
    float[] v = new float[dimension()];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (w.length() > 2) {
        v[Math.floorMod(w.hashCode(), v.length)] += 1;
      }
    }
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = n == 0 ? 0 : (float) (v[i] / Math.sqrt(n));
    }
    return v;
  }

  @Override
  public int dimension() {
    return 256;
  }

  @Override
  public String name() {
    return "test-words";
  }
}
