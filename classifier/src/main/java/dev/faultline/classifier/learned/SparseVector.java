package dev.faultline.classifier.learned;

/**
 * A feature vector: ascending indices and their values.
 *
 * @param index feature indices, ascending, distinct
 * @param value the value of each index
 */
public record SparseVector(int[] index, double[] value) {

  /** Dot product with one row of a weight matrix. */
  public double dot(float[] weights) {
    double s = 0;
    for (int k = 0; k < index.length; k++) {
      s += weights[index[k]] * value[k];
    }
    return s;
  }
}
