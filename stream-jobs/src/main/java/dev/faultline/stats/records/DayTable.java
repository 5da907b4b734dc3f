package dev.faultline.stats.records;

import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * The rolling counter's state of one key: its {@link DayState}s by day, in one value. A Flink POJO
 * of arrays (days ascending, each with the processing time of its last write), so a key's days are
 * one state read and one write, and a window's days are a slice of the arrays.
 *
 * <p>It replaced a {@code MapState<Long, DayState>} under Flink's state TTL: on the heap backend,
 * the TTL's incremental cleanup copies the whole map of every key it visits (each {@code DayState}
 * through its serializer) on every state access, which was most of the statistics job's CPU. A day
 * expires {@code ttl} after its last write, as under Flink's TTL ({@code OnCreateAndWrite}, expired
 * entries never returned): {@link #get} hides it and {@link #put} drops it.
 *
 * <p>Serialised by {@link DayTableSerializer} (named by {@code @TypeInfo}), not Flink's POJO
 * serializer; state an earlier build's POJO serializer wrote restores (see there).
 */
@TypeInfo(DayTableSerializer.Factory.class)
public class DayTable {
  /** The days with data, ascending (bucket starts, epoch ms). */
  public long[] days = new long[0];

  /** Processing time of each day's last write. */
  public long[] writtenAt = new long[0];

  /** Each day's state. */
  public DayState[] states = new DayState[0];

  /** Days changed after windows containing them closed, to re-emit at the next watermark. */
  public long[] dirty = new long[0];

  /**
   * A lower bound of {@link #writtenAt} (Long.MIN_VALUE: not known), so that a write does not scan
   * every day for expired ones while none can have expired. Not state: a table read from a
   * checkpoint or copied starts without it. Kept by {@link #put} and {@link #prune}: the arrays of
   * a table in use change only through them (a serializer or a test that fills them builds a new
   * table, whose bound is unknown).
   */
  private transient long earliestWrite = Long.MIN_VALUE;

  public DayTable() {}

  /** The state of {@code day}, or null when it has none or it expired at {@code now}. */
  public DayState get(long day, long now, long ttl) {
    int i = Arrays.binarySearch(days, day);
    return i < 0 || expired(i, now, ttl) ? null : states[i];
  }

  /** Sets the state of {@code day}, written at {@code now}, and drops the days expired by then. */
  public void put(long day, DayState state, long now, long ttl) {
    prune(now, ttl);
    int i = Arrays.binarySearch(days, day);
    if (i >= 0) {
      states[i] = state;
      writtenAt[i] = now;
      earliestWrite = Math.min(earliestWrite, now);
      return;
    }
    int at = -i - 1;
    earliestWrite = Math.min(earliestWrite, now);
    days = insert(days, at, day);
    writtenAt = insert(writtenAt, at, now);
    DayState[] grown = new DayState[states.length + 1];
    System.arraycopy(states, 0, grown, 0, at);
    grown[at] = state;
    System.arraycopy(states, at, grown, at + 1, states.length - at);
    states = grown;
  }

  /** Marks {@code day} for re-emission (once however often). */
  public void markDirty(long day) {
    int i = Arrays.binarySearch(dirty, day);
    if (i < 0) {
      dirty = insert(dirty, -i - 1, day);
    }
  }

  /** The dirty days, ascending, forgetting them. */
  public long[] takeDirty() {
    long[] taken = dirty;
    dirty = new long[0];
    return taken;
  }

  /** Whether no day is kept (after dropping those expired at {@code now}). */
  public boolean isEmpty(long now, long ttl) {
    prune(now, ttl);
    return days.length == 0 && dirty.length == 0;
  }

  private boolean expired(int i, long now, long ttl) {
    return writtenAt[i] <= now - ttl;
  }

  private void prune(long now, long ttl) {
    if (earliestWrite != Long.MIN_VALUE && earliestWrite > now - ttl) {
      return; // no day written before the bound, none expired
    }
    long earliest = Long.MAX_VALUE;
    int kept = 0;
    for (int i = 0; i < days.length; i++) {
      if (!expired(i, now, ttl)) {
        days[kept] = days[i];
        writtenAt[kept] = writtenAt[i];
        states[kept] = states[i];
        earliest = Math.min(earliest, writtenAt[i]);
        kept++;
      }
    }
    earliestWrite = earliest;
    if (kept < days.length) {
      days = Arrays.copyOf(days, kept);
      writtenAt = Arrays.copyOf(writtenAt, kept);
      states = Arrays.copyOf(states, kept);
    }
  }

  private static long[] insert(long[] a, int at, long v) {
    long[] grown = new long[a.length + 1];
    System.arraycopy(a, 0, grown, 0, at);
    grown[at] = v;
    System.arraycopy(a, at, grown, at + 1, a.length - at);
    return grown;
  }
}
