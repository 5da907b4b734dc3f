package dev.faultline.classifier.learned;

import java.util.HashMap;
import java.util.Map;

/**
 * A test encoder: each word adds a fixed pseudo-random direction; texts sharing words point alike.
 * In the classifier's test-jar, so classifier-tools' training tests use the same stand-in.
 */
public final class SeededEmbedder implements TextEmbedder {

  @Override
  public float[] embed(String text) {
    float[] v = new float[dimension()];
    Map<String, Integer> words = new HashMap<>();
    Words.count(text, words);
    words.forEach(
        (w, c) -> {
          java.util.SplittableRandom r = new java.util.SplittableRandom(w.hashCode());
          for (int i = 0; i < v.length; i++) {
            v[i] += (float) (r.nextGaussian() * c);
          }
        });
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    n = Math.sqrt(n);
    for (int i = 0; i < v.length; i++) {
      v[i] = n == 0 ? 0 : (float) (v[i] / n);
    }
    return v;
  }

  @Override
  public int dimension() {
    return 32;
  }

  @Override
  public String name() {
    return "test-hashing";
  }
}
