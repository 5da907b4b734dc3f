package dev.faultline.jobs.stats.detect;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Benjamini-Hochberg adjusted p-values: reject every hypothesis whose adjusted p-value is at most q
 * and the expected share of false discoveries among the rejections is at most q (for independent or
 * positively dependent tests, as counts of one framework's categories are). When every hypothesis
 * is null, that is also the chance of any false alarm at all in the family.
 */
public final class BenjaminiHochberg {
  private BenjaminiHochberg() {}

  /**
   * Adjusted p-values, in the order of {@code p}: {@code min over j ≥ rank of m p(j) / j}, at most
   * 1.
   */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      if (!(p[i] >= 0 && p[i] <= 1)) {
        throw new IllegalArgumentException("p-value " + i + " is not a probability: " + p[i]);
      }
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
    double[] adjusted = new double[m];
    double running = 1.0;
    for (int rank = m; rank >= 1; rank--) {
      int i = order[rank - 1];
      running = Math.min(running, p[i] * m / rank);
      adjusted[i] = running;
    }
    return adjusted;
  }
}
