package dev.faultline.stats.records;

import java.util.Arrays;

/**
 * The alert detector's daily counts of one key (a category or a category × stage pair of one
 * framework): one int per day from {@link #firstDay}, in one array. A Flink POJO, the value of a
 * {@code MapState} keyed by the key, so a record changes one key's series and a test reads each
 * key's run and baseline as a slice of its array.
 *
 * <p>It replaced a {@code MapState<Long, Map<String, Integer>>} (day to key to count): every
 * re-test rebuilt the framework's daily table by walking a hash map per day of its look-back (half
 * of the detector's CPU samples), and the checkpoint wrote every key's name once per day.
 */
public class DailySeries {
  /** The epoch day of {@code counts[0]}. */
  public long firstDay;

  /** The count of each day from {@link #firstDay}; days past its end count 0. */
  public int[] counts = new int[0];

  public DailySeries() {}

  /** The count of {@code day}; 0 outside the series. */
  public int count(long day) {
    long i = day - firstDay;
    return i < 0 || i >= counts.length ? 0 : counts[(int) i];
  }

  /** Adds {@code delta} to {@code day}'s count and returns the day's count after it. */
  public int add(long day, int delta) {
    cover(day);
    int i = (int) (day - firstDay);
    counts[i] += delta;
    return counts[i];
  }

  /** Forgets the days before {@code day}. */
  public void dropBefore(long day) {
    if (day <= firstDay) {
      return;
    }
    int drop = (int) Math.min(counts.length, day - firstDay);
    System.arraycopy(counts, drop, counts, 0, counts.length - drop);
    Arrays.fill(counts, counts.length - drop, counts.length, 0);
    firstDay = day;
  }

  /** Whether every day counts 0. */
  public boolean isEmpty() {
    for (int c : counts) {
      if (c != 0) {
        return false;
      }
    }
    return true;
  }

  /** Grows the array (with room ahead for the days to come) so that it holds {@code day}. */
  private void cover(long day) {
    int length = counts.length;
    counts = DayArrays.cover(counts, length, firstDay, day, int[]::new);
    firstDay = DayArrays.firstDay(length, firstDay, day);
  }
}
