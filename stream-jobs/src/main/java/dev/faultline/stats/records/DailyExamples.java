package dev.faultline.stats.records;

import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * The alert detector's example issue ids of one key (a category or a category × stage pair of one
 * framework): per day from {@link #firstDay}, a small sorted array of ids (null when the day has
 * none). The value of a {@code MapState} keyed by the key, like {@link DailySeries} for the counts:
 * a record changes one day's array of one key, and an alert reads its window's days by index.
 *
 * <p>It replaced a {@code MapState<Long, Map<String, String>>} (day to key to the ids joined by
 * spaces): every record split and re-joined its day's string (about an eighth of the detector's
 * CPU) and the checkpoint wrote every key's name once per day.
 *
 * <p>Serialised by {@link DailyExamplesSerializer} (named by {@code @TypeInfo}), not Flink's POJO
 * serializer: the checkpoint gets each value's ids as one block of bytes instead of character by
 * character.
 */
@TypeInfo(DailyExamplesSerializer.Factory.class)
public class DailyExamples {
  /** The epoch day of {@code ids[0]}. */
  public long firstDay;

  /** The ids of each day from {@link #firstDay}, or null; days past its end have none. */
  public String[][] ids = new String[0][];

  public DailyExamples() {}

  /** The ids of {@code day}: never null, empty when the day has none. */
  public String[] at(long day) {
    long i = day - firstDay;
    String[] a = i < 0 || i >= ids.length ? null : ids[(int) i];
    return a == null ? new String[0] : a;
  }

  /** Sets the ids of {@code day} (an empty array forgets the day's). */
  public void set(long day, String[] dayIds) {
    if (dayIds.length == 0) {
      long i = day - firstDay;
      if (i >= 0 && i < ids.length) {
        ids[(int) i] = null;
      }
      return;
    }
    cover(day);
    ids[(int) (day - firstDay)] = dayIds;
  }

  /** Forgets the days before {@code day}. */
  public void dropBefore(long day) {
    if (day <= firstDay) {
      return;
    }
    int drop = (int) Math.min(ids.length, day - firstDay);
    System.arraycopy(ids, drop, ids, 0, ids.length - drop);
    Arrays.fill(ids, ids.length - drop, ids.length, null);
    firstDay = day;
  }

  /** Whether no day has an id. */
  public boolean isEmpty() {
    for (String[] a : ids) {
      if (a != null && a.length > 0) {
        return false;
      }
    }
    return true;
  }

  /** Grows the array (with room ahead for the days to come) so that it holds {@code day}. */
  private void cover(long day) {
    if (ids.length == 0) {
      firstDay = day;
      ids = new String[16][];
      return;
    }
    if (day < firstDay) {
      int shift = (int) (firstDay - day);
      String[][] grown = new String[ids.length + shift][];
      System.arraycopy(ids, 0, grown, shift, ids.length);
      ids = grown;
      firstDay = day;
    } else if (day - firstDay >= ids.length) {
      int needed = (int) (day - firstDay + 1);
      ids = Arrays.copyOf(ids, Math.max(needed, ids.length + ids.length / 2));
    }
  }
}
