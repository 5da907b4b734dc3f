package dev.faultline.classifier.learned;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The labelled training items by their text vectors (quantised to bytes), to name the nearest ones
 * as evidence: their ids (owner/repo#n or a commit) and labels, never their text.
 *
 * @param ids item ids
 * @param labels per item, field to gold code
 * @param vectors per item, the text vector scaled by {@link #SCALE} and rounded to bytes
 */
public final class Neighbours {

  private final List<String> ids;
  private final List<Map<String, String>> labels;
  private final byte[][] vectors;
  private final double[] norms;

  /**
   * The vectors one after another, widened to shorts: one pass over memory, and a loop the JIT
   * vectorises.
   */
  private final short[] flat;

  private final int dimension;

  /** Answers kept, by the quantised vector and k: re-classifying an issue reuses its answer. */
  static final int REMEMBERED = 2048;

  /**
   * The recent answers by quantised query vector and k (the answer depends on nothing else): a
   * comment or label edit that leaves an issue's text vector unchanged does not scan the items
   * again. Least recently used first out; the lists are unmodifiable.
   */
  private final Map<Query, List<Near>> recent =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Query, List<Near>> eldest) {
          return size() > REMEMBERED;
        }
      };

  /** A query's key: the quantised vector (compared by content) and k. */
  private record Query(java.nio.ByteBuffer vector, int k) {}

  public Neighbours(List<String> ids, List<Map<String, String>> labels, byte[][] vectors) {
    this.ids = ids;
    this.labels = labels;
    this.vectors = vectors;
    this.norms = new double[vectors.length];
    this.dimension = vectors.length == 0 ? 0 : vectors[0].length;
    this.flat = new short[vectors.length * dimension];
    for (int i = 0; i < vectors.length; i++) {
      if (vectors[i].length != dimension) {
        throw new IllegalArgumentException(
            "neighbour vectors differ in length: " + vectors[i].length + " and " + dimension);
      }
      norms[i] = norm(vectors[i]);
      for (int j = 0; j < dimension; j++) {
        flat[i * dimension + j] = vectors[i][j];
      }
    }
  }

  public List<String> ids() {
    return ids;
  }

  public List<Map<String, String>> labels() {
    return labels;
  }

  public byte[][] vectors() {
    return vectors;
  }

  /**
   * Byte units per vector unit: the components of a unit vector of 384 dimensions stay well inside
   * ±0.5.
   */
  static final float SCALE = 254f;

  /** One near item. */
  public record Near(String id, double similarity, Map<String, String> labels) {}

  public static byte[] quantise(float[] v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) Math.max(-127, Math.min(127, Math.round(v[i] * SCALE)));
    }
    return b;
  }

  /**
   * The k items most similar (cosine) to a vector, most similar first (unmodifiable; the same list
   * for the same quantised vector while it is remembered).
   */
  public List<Near> nearest(float[] v, int k) {
    byte[] qb = quantise(v);
    Query query = new Query(java.nio.ByteBuffer.wrap(qb), k);
    List<Near> out;
    synchronized (recent) {
      out = recent.get(query);
    }
    if (out == null) {
      out = List.copyOf(scan(qb, k)); // outside the lock: two threads may both scan (same answer)
      synchronized (recent) {
        recent.put(query, out);
      }
    }
    return out;
  }

  private List<Near> scan(byte[] qb, int k) {
    double qn = norm(qb);
    short[] q = new short[qb.length];
    for (int j = 0; j < q.length && j < dimension; j++) {
      q[j] = qb[j];
    }
    int[] best = new int[k];
    double[] sim = new double[k];
    java.util.Arrays.fill(best, -1);
    java.util.Arrays.fill(sim, Double.NEGATIVE_INFINITY);
    if (q.length != dimension && vectors.length > 0) {
      throw new IllegalArgumentException(
          "a vector of " + q.length + " dimensions, neighbours have " + dimension);
    }
    for (int i = 0; i < vectors.length; i++) {
      int base = i * dimension;
      int dot = 0; // |components| <= 127: 384 products of at most 16,129 stay far inside an int
      for (int j = 0; j < dimension; j++) {
        dot += flat[base + j] * q[j];
      }
      double s = dot / (norms[i] * qn + 1e-9);
      for (int r = 0; r < k; r++) {
        if (s > sim[r]) {
          System.arraycopy(sim, r, sim, r + 1, k - r - 1);
          System.arraycopy(best, r, best, r + 1, k - r - 1);
          sim[r] = s;
          best[r] = i;
          break;
        }
      }
    }
    List<Near> out = new ArrayList<>();
    for (int r = 0; r < k && best[r] >= 0; r++) {
      out.add(new Near(ids.get(best[r]), sim[r], labels.get(best[r])));
    }
    return out;
  }

  private static double norm(byte[] x) {
    long s = 0;
    for (byte b : x) {
      s += b * b;
    }
    return Math.sqrt(s);
  }
}
