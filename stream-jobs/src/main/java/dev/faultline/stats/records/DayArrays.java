package dev.faultline.stats.records;

import java.util.function.IntFunction;

/**
 * The growth rule of the day-indexed arrays ({@link DailySeries}'s counts, {@link DailyExamples}'s
 * ids): index 0 is the first day; an earlier day shifts the array, a later one grows it with room
 * ahead for the days to come.
 */
final class DayArrays {
  private static final int FIRST_LENGTH = 16;

  private DayArrays() {}

  /**
   * An array that holds {@code day}: {@code array} itself when it already does, else a grown copy
   * whose index 0 is {@link #firstDay the new first day}.
   *
   * @param length {@code array}'s length (0 for a series that holds no day yet)
   */
  static <A> A cover(A array, int length, long firstDay, long day, IntFunction<A> make) {
    if (length == 0) {
      return make.apply(FIRST_LENGTH);
    }
    if (day < firstDay) {
      int shift = (int) (firstDay - day);
      A grown = make.apply(length + shift);
      System.arraycopy(array, 0, grown, shift, length);
      return grown;
    }
    if (day - firstDay >= length) {
      int needed = (int) (day - firstDay + 1);
      A grown = make.apply(Math.max(needed, length + length / 2));
      System.arraycopy(array, 0, grown, 0, length);
      return grown;
    }
    return array;
  }

  /** The first day after {@link #cover}: {@code day} when it is earlier or the array was empty. */
  static long firstDay(int length, long firstDay, long day) {
    return length == 0 || day < firstDay ? day : firstDay;
  }
}
