package dev.faultline.stats.functions;

import dev.faultline.stats.records.ContributionDelta;
import java.util.Arrays;

/**
 * Net count of one key in one daily bucket, its expected count and variance, and a few issues that
 * entered it (retracted ones removed).
 */
public class DailyAccumulator {
  public static final int MAX_EXAMPLES = 5;

  public long count;
  public double expected;
  public double variance;
  public String[] examples = new String[0];

  public DailyAccumulator() {}

  /** Adds one delta of {@code issueId}. */
  public void add(int delta, String issueId) {
    count += delta;
    examples = Examples.apply(examples, delta, issueId);
  }

  /** Adds one delta of the count, the expected count and its variance. */
  public void add(ContributionDelta d) {
    add(d.delta, d.issueId);
    expected += d.expected;
    variance += d.variance;
  }

  @Override
  public String toString() {
    return count + " " + Arrays.toString(examples);
  }
}
