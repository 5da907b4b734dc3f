package dev.faultline.stats.functions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Small bounded lists of example issue ids. */
final class Examples {
  private Examples() {}

  /**
   * {@code examples} with {@code issueId} added (positive delta, room left) or removed (negative
   * delta).
   */
  static String[] apply(String[] examples, int delta, String issueId) {
    boolean present = Arrays.asList(examples).contains(issueId);
    if (delta > 0 && !present && examples.length < DailyAccumulator.MAX_EXAMPLES) {
      String[] out = Arrays.copyOf(examples, examples.length + 1);
      out[examples.length] = issueId;
      return out;
    }
    if (delta < 0 && present) {
      return Arrays.stream(examples).filter(e -> !e.equals(issueId)).toArray(String[]::new);
    }
    return examples;
  }

  /**
   * {@code examples} (sorted, distinct) with {@code issueId} added or removed, keeping the {@code
   * max} smallest ids when full: the set kept depends on the ids, not on the order they came in.
   * Found by binary search and copied around it; {@code examples} itself when the set does not
   * change (a duplicate, a retraction of an id not kept, an id larger than a full set's).
   */
  static String[] applySmallest(String[] examples, int delta, String issueId, int max) {
    int at = Arrays.binarySearch(examples, issueId);
    if (at >= 0) {
      if (delta >= 0) {
        return examples;
      }
      String[] out = new String[examples.length - 1];
      System.arraycopy(examples, 0, out, 0, at);
      System.arraycopy(examples, at + 1, out, at, examples.length - at - 1);
      return out;
    }
    int insert = -at - 1;
    if (delta <= 0 || insert >= max) {
      return examples;
    }
    String[] out = new String[Math.min(examples.length + 1, max)];
    System.arraycopy(examples, 0, out, 0, insert);
    out[insert] = issueId;
    System.arraycopy(examples, insert, out, insert + 1, out.length - insert - 1);
    return out;
  }

  /** Up to {@code max} distinct ids from the arrays, in order. */
  static String[] union(List<String[]> arrays, int max) {
    Set<String> out = new LinkedHashSet<>();
    for (String[] a : arrays) {
      for (String s : a) {
        if (out.size() >= max) {
          return out.toArray(String[]::new);
        }
        out.add(s);
      }
    }
    return new ArrayList<>(out).toArray(String[]::new);
  }
}
