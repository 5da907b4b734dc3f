package dev.faultline.stats.functions;

import dev.faultline.stats.domain.Explanations;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.DayState;
import dev.faultline.stats.records.DayTable;
import dev.faultline.stats.records.StatKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by framework × dimension × category: sums daily buckets into the rolling windows and takes
 * the correction path. (Alerts are the framework-wide {@link EmergenceDetector}'s: it tests every
 * category of a framework together.)
 *
 * <p>Input 1 is the daily window's changes (one per firing: at the bucket's end and per
 * allowed-late delta); input 2 the deltas the daily window dropped as too late (its late-data side
 * output). A day's count is the sum of both: additions that commute, so the counts do not depend on
 * which input arrives first, and survive a restore.
 *
 * <p>A too-late delta can overtake the daily window's last result for its day (side output and main
 * output are separate channels). It is therefore held as pending until the watermark reaches the
 * day's cleanup time (end of the day + allowed lateness), when every result of that day's window
 * has arrived; then it is applied and the closed windows are re-emitted. No transient (e.g.
 * negative) count is ever emitted.
 *
 * <p>Emission: a rolling window is emitted when the watermark passes its end (event-time timer),
 * and again at the next watermark after later changes touched a day inside it (updated results,
 * coalesced per watermark).
 *
 * <p>State: one {@link DayTable} per key: a {@link DayState} per day with data and the days
 * awaiting re-emission, each day forgotten a TTL after its last write (processing time), the whole
 * table a TTL after the key's last write (Flink's state TTL). One value per key rather than a map
 * state: Flink's TTL cleanup copies a whole map state on the heap backend at every access (see
 * {@link DayTable}). Timers: a chain over the window ends of the {@code longest window / slide}
 * ends after each day with data: a change registers the first open end, and each end's timer the
 * next while a day with data is inside its longest window (one registration per end, not one per
 * end and changed day); all fire as the watermark passes, none is left behind.
 */
public final class RollingCounts
    extends KeyedCoProcessFunction<StatKey, DailyCount, ContributionDelta, CategoryStat> {
  private final long slide;
  private final long[] windows;
  private final String[] windowLabels;
  private final int maxSlides;
  private final Duration stateTtl;
  private final long allowedLateness;
  private transient ValueState<DayTable> table;

  /**
   * Per key, the last day whose window-end timers this instance registered: its timers that are
   * still ahead of the watermark are all in place, so a further change to that day registers none
   * again (a timer is never deleted; a restore starts a new instance with this map empty).
   */
  private transient java.util.Map<StatKey, Long> timersOf;

  /**
   * @param slide how far the windows move at a time
   * @param windows the rolling window lengths
   * @param maxSlides the most slides one day's count is emitted for
   * @param stateTtl how long daily counts are kept after their last update
   * @param allowedLateness how late a delta may arrive and still move the counts
   */
  public RollingCounts(
      Duration slide,
      List<Duration> windows,
      int maxSlides,
      Duration stateTtl,
      Duration allowedLateness) {
    this.slide = slide.toMillis();
    this.windows = windows.stream().mapToLong(Duration::toMillis).toArray();
    this.windowLabels = windows.stream().map(Explanations::windowLabel).toArray(String[]::new);
    this.maxSlides = maxSlides;
    this.stateTtl = stateTtl;
    this.allowedLateness = allowedLateness.toMillis();
  }

  @Override
  public void open(OpenContext openContext) {
    StateTtlConfig ttl =
        StateTtlConfig.newBuilder(stateTtl)
            .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
            .build();
    ValueStateDescriptor<DayTable> d =
        new ValueStateDescriptor<>("day-table", TypeInformation.of(DayTable.class));
    d.enableTimeToLive(ttl);
    table = getRuntimeContext().getState(d);
    timersOf = new java.util.HashMap<>();
  }

  /** This key's days (a new, empty table when it has none). */
  private DayTable table() throws Exception {
    DayTable t = table.value();
    return t == null ? new DayTable() : t;
  }

  private long ttl() {
    return stateTtl.toMillis();
  }

  @Override
  public void processElement1(DailyCount daily, Context ctx, Collector<CategoryStat> out)
      throws Exception {
    DayTable t = table();
    long now = ctx.timerService().currentProcessingTime();
    DayState s = dayFor(t, daily.day, now);
    s.windowCount += daily.count;
    s.windowExpected += daily.expected;
    s.windowVariance += daily.variance;
    s.windowExamples = daily.examples == null ? s.windowExamples : daily.examples;
    touched(t, daily.day, ctx.getCurrentKey(), ctx.timerService());
    t.put(daily.day, s, now, ttl());
    table.update(t);
    flushIfFinal(ctx, out);
  }

  @Override
  public void processElement2(ContributionDelta late, Context ctx, Collector<CategoryStat> out)
      throws Exception {
    long day = bucketOf(late.time);
    DayTable t = table();
    long now = ctx.timerService().currentProcessingTime();
    DayState s = dayFor(t, day, now);
    s.lateExamples = Examples.apply(s.lateExamples, late.delta, late.issueId);
    long ready = readyAt(day);
    if (ctx.timerService().currentWatermark() >= ready) {
      s.lateCount += late.delta;
      s.lateExpected += late.expected;
      s.lateVariance += late.variance;
      touched(t, day, ctx.getCurrentKey(), ctx.timerService());
      t.put(day, s, now, ttl());
      table.update(t);
      flushIfFinal(ctx, out);
    } else {
      s.pendingLate += late.delta;
      s.pendingLateExpected += late.expected;
      s.pendingLateVariance += late.variance;
      t.put(day, s, now, ttl());
      table.update(t);
      ctx.timerService().registerEventTimeTimer(ready);
    }
  }

  /**
   * When every result of the daily window of {@code day} has passed this operator: the window's
   * cleanup time.
   */
  private long readyAt(long day) {
    return day + slide - 1 + allowedLateness;
  }

  private DayState dayFor(DayTable t, long day, long now) {
    DayState s = t.get(day, now, ttl());
    return s == null ? new DayState() : s;
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<CategoryStat> out)
      throws Exception {
    DayTable t = table.value();
    if (t == null) {
      return; // the key's days expired
    }
    long now = ctx.timerService().currentProcessingTime();
    applyPending(t, timestamp, ctx, now);
    flushDirty(t, ctx, ctx.timerService().currentWatermark(), out, now);
    long end = timestamp + 1;
    if (Math.floorMod(end, slide) != 0) {
      return; // only a pending-delta timer
    }
    StatKey key = ctx.getCurrentKey();
    long from = end - windows[windows.length - 1];
    Range r = load(t, from, end, now);
    for (int w = 0; w < windows.length; w++) {
      if (r.any(end - windows[w], end)) {
        out.collect(stat(key, w, end, r.totals(end - windows[w], end)));
      }
    }
    // the next window end, while a day with data is inside its longest window
    if (r.any(end + slide - maxSlides * slide, end) || t.get(end, now, ttl()) != null) {
      ctx.timerService().registerEventTimeTimer(end + slide - 1);
    } else {
      timersOf.remove(key); // the chain ends: the key's next change starts one again
    }
  }

  /**
   * Applies the too-late deltas of the day whose cleanup time is {@code timestamp}, and re-emits
   * its closed windows.
   */
  private void applyPending(DayTable t, long timestamp, OnTimerContext ctx, long now)
      throws Exception {
    long day = timestamp + 1 - slide - allowedLateness;
    if (Math.floorMod(day, slide) != 0) {
      return;
    }
    DayState s = t.get(day, now, ttl());
    if (s == null
        || (s.pendingLate == 0 && s.pendingLateExpected == 0 && s.pendingLateVariance == 0)) {
      return;
    }
    s.lateCount += s.pendingLate;
    s.pendingLate = 0;
    s.lateExpected += s.pendingLateExpected;
    s.pendingLateExpected = 0;
    s.lateVariance += s.pendingLateVariance;
    s.pendingLateVariance = 0;
    touched(t, day, ctx.getCurrentKey(), ctx.timerService()); // the caller flushes
    t.put(day, s, now, ttl());
    table.update(t);
  }

  /** A window's count, expected count and variance. */
  private record Totals(long count, double expected, double variance) {}

  /** The rolling statistic of window {@code w} ending at {@code end}. */
  private CategoryStat stat(StatKey key, int w, long end, Totals t) {
    return CategoryStat.rolling(
        key.framework,
        key.dimension,
        key.category,
        windowLabels[w],
        end - windows[w],
        end,
        t.count(),
        t.expected(),
        t.variance());
  }

  /**
   * After a change to {@code day}: registers a timer at the first end of a window containing it
   * that is still open (that timer registers the next end, and so on while a day with data is
   * inside the longest window: {@link #onTimer}), and marks the day dirty when windows containing
   * it have closed, for one re-emission at the next watermark (updated results, coalesced: each
   * allowed-late delta fires the daily window again, and re-emitting every window per firing
   * multiplied the output). Timers are registered on every change, not only on a day's first: after
   * a restore the watermark starts again from the beginning (it is not checkpointed), and a window
   * whose timer fired before the checkpoint must be emitted again when the watermark passes.
   * (Registering only when the watermark went backwards is not enough: timers also fire between
   * changes.) Within one instance the watermark only rises, so the timers of a day registered
   * before and not yet fired are still there: the day's second change in a row registers nothing
   * ({@link #timersOf}).
   */
  private void touched(DayTable t, long day, StatKey key, TimerService timers) {
    long watermark = timers.currentWatermark();
    Long registered = timersOf.put(key, day);
    if (registered == null || registered != day) {
      // the first still-open end of a window holding the day; each end's timer registers the next
      long first = day + slide;
      if (watermark == Long.MAX_VALUE) {
        first = Long.MAX_VALUE; // no window end is open
      } else if (first - 1 <= watermark) {
        first = bucketOf(watermark + 1) + slide;
      }
      if (first <= day + (long) maxSlides * slide) {
        timers.registerEventTimeTimer(first - 1);
      }
    }
    if (day + slide - 1 <= watermark) {
      t.markDirty(day);
      if (watermark < Long.MAX_VALUE) {
        timers.registerEventTimeTimer(watermark + 1);
      }
    }
  }

  /** After the final watermark no timer fires again: flush now. */
  private void flushIfFinal(Context ctx, Collector<CategoryStat> out) throws Exception {
    if (ctx.timerService().currentWatermark() == Long.MAX_VALUE) {
      flushDirty(table(), ctx, Long.MAX_VALUE, out, ctx.timerService().currentProcessingTime());
    }
  }

  /** Re-emits, once each, the closed windows that contain a dirty day. */
  private void flushDirty(
      DayTable t, Context ctx, long watermark, Collector<CategoryStat> out, long now)
      throws Exception {
    if (t.dirty.length == 0) {
      return;
    }
    long[] dirtyDays = t.takeDirty();
    table.update(t);
    StatKey key = ctx.getCurrentKey();
    List<TreeSet<Long>> endsOf = new ArrayList<>();
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (int w = 0; w < windows.length; w++) {
      TreeSet<Long> ends = new TreeSet<>();
      for (long day : dirtyDays) {
        for (long end = day + slide;
            end <= day + windows[w] && end - 1 <= watermark;
            end += slide) {
          ends.add(end);
        }
      }
      endsOf.add(ends);
      if (!ends.isEmpty()) {
        from = Math.min(from, ends.first() - windows[w]);
        to = Math.max(to, ends.last());
      }
    }
    if (from >= to) {
      return;
    }
    Range r = load(t, from, to, now); // the days of every window re-emitted, read once
    for (int w = 0; w < windows.length; w++) {
      for (long end : endsOf.get(w)) {
        out.collect(stat(key, w, end, r.totals(end - windows[w], end)));
      }
    }
  }

  private long bucketOf(long time) {
    return Math.floorDiv(time, slide) * slide;
  }

  /** Day states of [from, to), loaded once for several window sums. */
  private Range load(DayTable t, long from, long to, long now) {
    int n = (int) ((to - from) / slide);
    DayState[] loaded = new DayState[n];
    for (int i = 0; i < n; i++) {
      loaded[i] = t.get(from + i * slide, now, ttl());
    }
    return new Range(from, slide, loaded);
  }

  private record Range(long from, long slide, DayState[] days) {
    private int index(long t) {
      return (int) ((t - from) / slide);
    }

    Totals totals(long start, long end) {
      long count = 0;
      double expected = 0;
      double variance = 0;
      for (int i = Math.max(0, index(start)); i < Math.min(days.length, index(end)); i++) {
        DayState s = days[i];
        if (s != null) {
          count += s.count();
          expected += s.expected();
          variance += s.variance();
        }
      }
      return new Totals(count, expected, variance);
    }

    boolean any(long start, long end) {
      for (int i = Math.max(0, index(start)); i < Math.min(days.length, index(end)); i++) {
        if (days[i] != null) {
          return true;
        }
      }
      return false;
    }
  }
}
