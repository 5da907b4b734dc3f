package dev.faultline.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Minimum, median and maximum of a figure over the repeats of one run, and how many repeats
 * measured it.
 */
public record Spread(double min, double median, double max, int n) {

  /** The spread of {@code values}; empty input has no spread. */
  public static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values: a spread needs at least one repeat");
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    double median = sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    return new Spread(sorted[0], median, sorted[sorted.length - 1], sorted.length);
  }
}
