package dev.faultline.estimate.group;

import java.util.Arrays;

/**
 * Which cells of a family a caller will show, so the estimator computes intervals only for those:
 * the cells whose expected count reaches a minimum and, with a top, the largest that many of them
 * (ties at the last place included). A cell left out still gets its row, with its expected count
 * and no interval ({@link #NOTE}); a caller that keeps such a row has asked for less than it shows.
 *
 * @param minimum cells below this expected count are left out
 * @param top at most this many cells per family, the largest (null: every cell above the minimum)
 * @param knownOnly whether cells of codes that are not known (UNKNOWN, NONE) are left out before
 *     the top is taken
 */
public record Keep(double minimum, Integer top, boolean knownOnly) {
  /** Every cell: every row has its intervals. */
  public static final Keep ALL = new Keep(Double.NEGATIVE_INFINITY, null, false);

  /** The note of a row the estimator left without intervals. */
  public static final String NOTE = "not estimated: below the query's minimum or beyond its top";

  /** Which cells get intervals, given the family's expected counts and its known cells. */
  boolean[] select(double[] counts, boolean[] known) {
    boolean[] out = new boolean[counts.length];
    int eligible = 0;
    for (int k = 0; k < counts.length; k++) {
      out[k] = counts[k] >= minimum && (!knownOnly || known[k]);
      eligible += out[k] ? 1 : 0;
    }
    if (top == null || eligible <= top) {
      return out;
    }
    double[] sorted = new double[eligible];
    int j = 0;
    for (int k = 0; k < counts.length; k++) {
      if (out[k]) {
        sorted[j++] = counts[k];
      }
    }
    Arrays.sort(sorted);
    double last = top <= 0 ? Double.POSITIVE_INFINITY : sorted[eligible - top];
    for (int k = 0; k < counts.length; k++) {
      out[k] &= counts[k] >= last;
    }
    return out;
  }
}
