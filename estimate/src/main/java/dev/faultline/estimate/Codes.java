package dev.faultline.estimate;

import java.util.List;
import java.util.Set;

/**
 * The codes of one dimension, in a fixed order (the order of each item's probability array), and
 * which of them are <em>known</em>: shares are taken among the known codes only, so that "cannot
 * tell" answers ({@code UNKNOWN}, distributed-specific {@code null}) and the not-applicable {@code
 * NONE} neither dilute nor count as a category (../shared/STATISTICS.md, "The quantity").
 *
 * @param codes every code, in the order of the probability arrays
 * @param excluded the codes left out of shares
 */
public record Codes(List<String> codes, Set<String> excluded) {

  /** The codes that are never a known category. */
  public static final Set<String> NOT_KNOWN = Set.of("UNKNOWN", "NONE", "null");

  public Codes {
    codes = List.copyOf(codes);
    excluded = Set.copyOf(excluded);
    if (codes.isEmpty()) {
      throw new IllegalArgumentException("a dimension needs at least one code");
    }
    if (codes.stream().distinct().count() != codes.size()) {
      throw new IllegalArgumentException("codes repeat: " + codes);
    }
    Set<String> out = excluded;
    if (codes.stream().allMatch(out::contains)) {
      throw new IllegalArgumentException("no known code among " + codes);
    }
  }

  /** The codes, with {@link #NOT_KNOWN} left out of shares. */
  public static Codes of(List<String> codes) {
    return new Codes(codes, NOT_KNOWN);
  }

  /** Number of codes. */
  public int size() {
    return codes.size();
  }

  /** Whether code {@code k} counts in shares. */
  public boolean known(int k) {
    return !excluded.contains(codes.get(k));
  }

  /** The index of a code; a clear error for a code of another dimension. */
  public int index(String code) {
    int k = codes.indexOf(code);
    if (k < 0) {
      throw new IllegalArgumentException("unknown code '" + code + "' (codes: " + codes + ")");
    }
    return k;
  }

  /**
   * Checks per-item distributions over these codes: one row per item, one finite non-negative
   * probability per code, each row summing to 1 within {@link #SUM_TOLERANCE}. The error names the
   * first bad item (0-based) and code.
   */
  public void check(double[][] p) {
    if (p == null) {
      throw new IllegalArgumentException("no probabilities");
    }
    for (int i = 0; i < p.length; i++) {
      double[] row = p[i];
      if (row == null || row.length != codes.size()) {
        throw new IllegalArgumentException(
            "item "
                + i
                + ": "
                + (row == null ? "no" : row.length)
                + " probabilities for "
                + codes.size()
                + " codes "
                + codes);
      }
      double sum = 0;
      for (int k = 0; k < row.length; k++) {
        if (!Double.isFinite(row[k]) || row[k] < 0 || row[k] > 1 + SUM_TOLERANCE) {
          throw new IllegalArgumentException(
              "item "
                  + i
                  + ": probability of "
                  + codes.get(k)
                  + " is "
                  + row[k]
                  + ", not in [0, 1]");
        }
        sum += row[k];
      }
      if (Math.abs(sum - 1) > SUM_TOLERANCE) {
        throw new IllegalArgumentException(
            "item " + i + ": probabilities sum to " + sum + ", not 1 (codes " + codes + ")");
      }
    }
  }

  /** How far a row's sum may be from 1 (rounding of stored probabilities). */
  public static final double SUM_TOLERANCE = 1e-3;
}
