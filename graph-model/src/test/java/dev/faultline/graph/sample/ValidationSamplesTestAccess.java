package dev.faultline.graph.sample;

import java.util.List;

/** The draw's choice of issues, for tests of its uniformity in other packages. */
public final class ValidationSamplesTestAccess {
  private ValidationSamplesTestAccess() {}

  public static List<String> choose(List<String> sortedIds, int n, long seed) {
    return ValidationSamples.choose(sortedIds, n, seed);
  }
}
