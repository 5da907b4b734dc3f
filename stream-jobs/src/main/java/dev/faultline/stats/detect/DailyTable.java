package dev.faultline.stats.detect;

import dev.faultline.stats.keys.AlertKeys;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Daily counts of one framework per key over a range of days, with window sums in constant time.
 * Keys are {@link AlertKeys} strings. Days are epoch days (UTC). Built once per scan from the
 * detector's state; never modified after.
 */
public final class DailyTable {
  private final long firstDay;
  private final int days;

  /** Key to prefix sums: {@code prefix[i]} = count of days [firstDay, firstDay + i). */
  private final Map<String, long[]> prefix = new HashMap<>();

  private DailyTable(long firstDay, int days) {
    this.firstDay = firstDay;
    this.days = days;
  }

  /** Collects counts for days [firstDay, firstDay + days). */
  public static Builder builder(long firstDay, int days) {
    return new Builder(firstDay, days);
  }

  /** Adds counts day by day, then {@link #build}. */
  public static final class Builder {
    private final long firstDay;
    private final int days;
    private final Map<String, long[]> daily = new HashMap<>();

    private Builder(long firstDay, int days) {
      if (days < 0) {
        throw new IllegalArgumentException("negative number of days: " + days);
      }
      this.firstDay = firstDay;
      this.days = days;
    }

    /** Adds {@code count} to {@code key} on {@code day}; days outside the range are ignored. */
    public Builder add(String key, long day, long count) {
      long i = day - firstDay;
      if (i >= 0 && i < days && count != 0) {
        daily.computeIfAbsent(key, k -> new long[days])[(int) i] += count;
      }
      return this;
    }

    /**
     * Adds the daily counts of {@code key} from {@code seriesFirstDay} ({@code counts[i]} on day
     * {@code seriesFirstDay + i}); days outside the range are ignored, and a key without a count in
     * the range is not added.
     */
    public Builder addSeries(String key, long seriesFirstDay, int[] counts) {
      long from = Math.max(firstDay, seriesFirstDay);
      long to = Math.min(firstDay + days, seriesFirstDay + counts.length);
      long[] row = null;
      for (long day = from; day < to; day++) {
        int c = counts[(int) (day - seriesFirstDay)];
        if (c != 0) {
          row = row != null ? row : daily.computeIfAbsent(key, k -> new long[days]);
          row[(int) (day - firstDay)] += c;
        }
      }
      return this;
    }

    public DailyTable build() {
      DailyTable t = new DailyTable(firstDay, days);
      for (Map.Entry<String, long[]> e : daily.entrySet()) {
        long[] p = new long[days + 1];
        long[] d = e.getValue();
        for (int i = 0; i < days; i++) {
          p[i + 1] = p[i] + d[i];
        }
        t.prefix.put(e.getKey(), p);
      }
      return t;
    }
  }

  /** Count of {@code key} over days [from, to), clipped to the table's range. */
  public long sum(String key, long from, long to) {
    long[] p = prefix.get(key);
    if (p == null) {
      return 0;
    }
    int a = clip(from);
    int b = clip(to);
    return b <= a ? 0 : p[b] - p[a];
  }

  private int clip(long day) {
    return (int) Math.max(0, Math.min(days, day - firstDay));
  }

  public Set<String> keys() {
    return prefix.keySet();
  }

  public long firstDay() {
    return firstDay;
  }

  public long endDay() {
    return firstDay + days;
  }
}
