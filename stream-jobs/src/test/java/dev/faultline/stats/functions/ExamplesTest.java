package dev.faultline.stats.functions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExamplesTest {
  /** The earlier build's {@code applySmallest}: a linear search, an append and a full sort. */
  private static String[] fullSort(String[] examples, int delta, String issueId, int max) {
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

  /**
   * Random additions and retractions (duplicates, ids not kept, full sets, the smallest and largest
   * ids) from the same start: the binary-search version keeps exactly the sets the full sort kept,
   * step by step, and returns its input whenever the set does not change.
   */
  @Test
  void keepsTheSetsTheFullSortKeptOnRandomSequences() {
    Random r = new Random(41);
    for (int trial = 0; trial < 2_000; trial++) {
      int max = 1 + r.nextInt(6);
      int ids = 1 + r.nextInt(3 * max);
      String[] fast = new String[0];
      String[] slow = new String[0];
      for (int step = 0; step < 40; step++) {
        String id = "o/r#" + r.nextInt(ids);
        int delta = r.nextInt(5) - 2; // -2 … 2, zero included
        String[] before = fast;
        fast = Examples.applySmallest(fast, delta, id, max);
        slow = fullSort(slow, delta, id, max);
        assertArrayEquals(slow, fast, "trial " + trial + " step " + step);
        if (Arrays.equals(before, fast)) {
          assertSame(before, fast, "an unchanged set is the input itself");
        }
      }
    }
  }
}
