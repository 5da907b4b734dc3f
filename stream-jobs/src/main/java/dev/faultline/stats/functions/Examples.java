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
   * {@code examples} (sorted) with {@code issueId} added or removed, keeping the {@code max}
   * smallest ids when full: the set kept depends on the ids, not on the order they came in.
   */
  static String[] applySmallest(String[] examples, int delta, String issueId, int max) {
    boolean present = Arrays.asList(examples).contains(issueId);
    if (delta < 0 && present) {
      return Arrays.stream(examples).filter(e -> !e.equals(issueId)).toArray(String[]::new);
    }
    if (delta <= 0 || present) {
      return examples;
    }
    String[] out = Arrays.copyOf(examples, examples.length + 1);
    out[examples.length] = issueId;
    Arrays.sort(out);
    return out.length > max ? Arrays.copyOf(out, max) : out;
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
