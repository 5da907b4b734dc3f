package dev.faultline.stats.functions;

import java.util.Arrays;

/**
 * Net count of one key in one daily bucket, and a few issues that entered it (retracted ones
 * removed).
 */
public class DailyAccumulator {
  public static final int MAX_EXAMPLES = 5;

  public long count;
  public String[] examples = new String[0];

  public DailyAccumulator() {}

  /** Adds one delta of {@code issueId}. */
  public void add(int delta, String issueId) {
    count += delta;
    examples = Examples.apply(examples, delta, issueId);
  }

  @Override
  public String toString() {
    return count + " " + Arrays.toString(examples);
  }
}
