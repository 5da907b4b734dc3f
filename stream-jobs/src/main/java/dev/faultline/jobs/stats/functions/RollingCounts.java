package dev.faultline.jobs.stats.functions;

import dev.faultline.jobs.stats.StatsConfig;
import dev.faultline.jobs.stats.domain.Categories;
import dev.faultline.jobs.stats.domain.Dimension;
import dev.faultline.jobs.stats.domain.Explanations;
import dev.faultline.jobs.stats.domain.SurgeDetector;
import dev.faultline.jobs.stats.records.CategoryStat;
import dev.faultline.jobs.stats.records.ContributionDelta;
import dev.faultline.jobs.stats.records.DailyCount;
import dev.faultline.jobs.stats.records.DayState;
import dev.faultline.jobs.stats.records.StatAlert;
import dev.faultline.jobs.stats.records.StatKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by framework × dimension × category: sums daily buckets into the rolling windows, takes the correction path,
 * and runs the surge detector.
 *
 * <p>Input 1 is the daily window's changes (one per firing: at the bucket's end and per allowed-late delta); input 2
 * the deltas the daily window dropped as too late (its late-data side output). A day's count is the sum of both:
 * additions that commute, so the counts do not depend on which input arrives first, and survive a restore.
 *
 * <p>A too-late delta can overtake the daily window's last result for its day (side output and main output are
 * separate channels). It is therefore held as pending until the watermark reaches the day's cleanup time (end of the
 * day + allowed lateness), when every result of that day's window has arrived; then it is applied and the closed
 * windows are re-emitted. No transient (e.g. negative) count is ever emitted.
 *
 * <p>Emission: a rolling window is emitted when the watermark passes its end (event-time timer), and again at the
 * next watermark after later changes touched a day inside it (updated results, coalesced per watermark). The surge detector runs once per
 * window end of the shortest window and again when later data re-emits that window; one alert per episode (a run
 * of consecutive surging window ends, kept in state).
 *
 * <p>State: one {@link DayState} per day with data, the surging window ends and the days awaiting re-emission, all
 * under a TTL refreshed on write. Timers: one per window end for the {@code longest window / slide} ends after each day with data; all fire as
 * the watermark passes, none is left behind.
 */
public final class RollingCounts extends KeyedCoProcessFunction<String, DailyCount, ContributionDelta, CategoryStat> {
  public static final OutputTag<StatAlert> ALERTS = new OutputTag<>("surge-alerts", TypeInformation.of(StatAlert.class));

  private final long slide;
  private final long[] windows;
  private final String[] windowLabels;
  private final int maxSlides;
  private final long surgeWindow;
  private final long baseline;
  private final SurgeDetector detector;
  private final Duration stateTtl;
  private final long allowedLateness;
  private transient MapState<Long, DayState> days;
  private transient MapState<Long, Boolean> surging;
  /** Window end to the id of the alert in force for its episode (the end that raised it, or a surging neighbour). */
  private transient MapState<Long, String> raised;
  private transient MapState<Long, Boolean> dirty;

  public RollingCounts(StatsConfig config) {
    this.slide = config.slide().toMillis();
    this.windows = config.windows().stream().mapToLong(Duration::toMillis).toArray();
    this.windowLabels = config.windows().stream().map(Explanations::windowLabel).toArray(String[]::new);
    this.maxSlides = config.maxWindowSlides();
    this.surgeWindow = config.surgeWindow().toMillis();
    this.baseline = config.surgeBaseline().toMillis();
    this.detector = config.surgeDetector();
    this.stateTtl = config.countStateTtl();
    this.allowedLateness = config.allowedLateness().toMillis();
  }

  @Override
  public void open(OpenContext openContext) {
    StateTtlConfig ttl = StateTtlConfig.newBuilder(stateTtl).setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite).build();
    MapStateDescriptor<Long, DayState> d = new MapStateDescriptor<>("days", Types.LONG, TypeInformation.of(DayState.class));
    d.enableTimeToLive(ttl);
    days = getRuntimeContext().getMapState(d);
    MapStateDescriptor<Long, Boolean> e = new MapStateDescriptor<>("surging-window-ends", Types.LONG, Types.BOOLEAN);
    e.enableTimeToLive(ttl);
    surging = getRuntimeContext().getMapState(e);
    MapStateDescriptor<Long, String> ra = new MapStateDescriptor<>("surge-alerts-raised", Types.LONG, Types.STRING);
    ra.enableTimeToLive(ttl);
    raised = getRuntimeContext().getMapState(ra);
    MapStateDescriptor<Long, Boolean> dd = new MapStateDescriptor<>("dirty-days", Types.LONG, Types.BOOLEAN);
    dd.enableTimeToLive(ttl);
    dirty = getRuntimeContext().getMapState(dd);
  }

  @Override
  public void processElement1(DailyCount daily, Context ctx, Collector<CategoryStat> out) throws Exception {
    DayState s = dayFor(daily.day);
    s.windowCount += daily.count;
    s.windowExamples = daily.examples == null ? s.windowExamples : daily.examples;
    touched(daily.day, s, ctx.timerService());
    days.put(daily.day, s);
    flushIfFinal(ctx, out);
  }

  @Override
  public void processElement2(ContributionDelta late, Context ctx, Collector<CategoryStat> out) throws Exception {
    long day = bucketOf(late.time);
    DayState s = dayFor(day);
    s.lateExamples = Examples.apply(s.lateExamples, late.delta, late.issueId);
    long ready = readyAt(day);
    if (ctx.timerService().currentWatermark() >= ready) {
      s.lateCount += late.delta;
      touched(day, s, ctx.timerService());
      days.put(day, s);
      flushIfFinal(ctx, out);
    } else {
      s.pendingLate += late.delta;
      days.put(day, s);
      ctx.timerService().registerEventTimeTimer(ready);
    }
  }

  /** When every result of the daily window of {@code day} has passed this operator: the window's cleanup time. */
  private long readyAt(long day) {
    return day + slide - 1 + allowedLateness;
  }

  private DayState dayFor(long day) throws Exception {
    DayState s = days.get(day);
    return s == null ? new DayState() : s;
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<CategoryStat> out) throws Exception {
    applyPending(timestamp, ctx);
    flushDirty(ctx, ctx.timerService().currentWatermark(), out);
    long end = timestamp + 1;
    if (Math.floorMod(end, slide) != 0) {
      return; // only a pending-delta timer
    }
    String[] key = StatKeys.split(ctx.getCurrentKey());
    long from = end - Math.max(windows[windows.length - 1], surgeWindow + baseline);
    Range r = load(from, end);
    for (int w = 0; w < windows.length; w++) {
      if (r.any(end - windows[w], end)) {
        out.collect(CategoryStat.rolling(key[0], key[1], key[2], windowLabels[w], end - windows[w], end, r.sum(end - windows[w], end)));
      }
    }
    detectSurge(key, end, r::sum, r.examples(end - surgeWindow, end), ctx);
  }

  /** Applies the too-late deltas of the day whose cleanup time is {@code timestamp}, and re-emits its closed windows. */
  private void applyPending(long timestamp, OnTimerContext ctx) throws Exception {
    long day = timestamp + 1 - slide - allowedLateness;
    if (Math.floorMod(day, slide) != 0) {
      return;
    }
    DayState s = days.get(day);
    if (s == null || s.pendingLate == 0) {
      return;
    }
    s.lateCount += s.pendingLate;
    s.pendingLate = 0;
    touched(day, s, ctx.timerService()); // the caller flushes
    days.put(day, s);
  }

  /** Sum of the day counts in [start, end). */
  private interface Sums {
    long sum(long start, long end) throws Exception;
  }

  /**
   * Tests the surge window ending at {@code end}; runs at the window's end and again whenever later data re-emits it
   * (a shuffled backfill may pass a window's end long before its data arrive). An episode is a run of consecutive
   * surging window ends: an alert is raised for a surging end only when neither it nor a neighbouring end was
   * surging already, so each episode alerts once even when its windows are tested out of order. When later records
   * (corrections, re-classifications) end an episode, its alert is emitted again with {@code withdrawn = true}; while
   * a neighbouring end still surges, the episode and its alert go on.
   */
  private void detectSurge(String[] key, long end, Sums r, String[] examples, Context ctx) throws Exception {
    if (!Categories.informative(key[2])) {
      return;
    }
    long start = end - surgeWindow;
    int windowDays = (int) (surgeWindow / slide);
    int baselineDays = (int) (baseline / slide);
    SurgeDetector.Verdict v = detector.test(r.sum(start, end), windowDays, r.sum(start - baseline, start), baselineDays);
    if (!v.surge()) {
      surging.remove(end);
      String id = raised.get(end);
      if (id != null) {
        raised.remove(end);
        if (surging.contains(end - slide)) {
          raised.put(end - slide, id);
        } else if (surging.contains(end + slide)) {
          raised.put(end + slide, id);
        } else {
          StatAlert w = surgeAlert(key, id, start, end, v, examples);
          w.withdrawn = true;
          w.explanation = "Withdrawn: later records lowered it. " + w.explanation;
          ctx.output(ALERTS, w);
        }
      }
      return;
    }
    boolean sameEpisode = surging.contains(end) || surging.contains(end - slide) || surging.contains(end + slide);
    surging.put(end, Boolean.TRUE);
    if (sameEpisode) {
      return;
    }
    Dimension dim = Dimension.valueOf(key[1]);
    String id = key[0] + "/" + dim.key() + "/" + key[2] + "/SURGE/" + Explanations.dateLabel(start);
    raised.put(end, id);
    ctx.output(ALERTS, surgeAlert(key, id, start, end, v, examples));
  }

  private StatAlert surgeAlert(String[] key, String id, long start, long end, SurgeDetector.Verdict v, String[] examples) {
    Dimension dim = Dimension.valueOf(key[1]);
    StatAlert a = new StatAlert();
    a.id = id;
    a.framework = key[0];
    a.dimension = key[1];
    a.category = key[2];
    a.kind = "SURGE";
    a.windowStart = start;
    a.windowEnd = end;
    a.count = v.count();
    a.baseline = v.expected();
    a.score = v.score();
    a.raisedAt = end;
    a.exampleIssueIds = examples;
    a.explanation =
        Explanations.surge(key[0], dim, key[2], v.count(), Duration.ofMillis(surgeWindow), end, v.expected(), Duration.ofMillis(baseline), v.pValue());
    return a;
  }

  /**
   * After a change to {@code day}: registers a timer at the end of each window containing it that is still open, and
   * marks the day dirty when windows containing it have closed, for one re-emission at the next watermark (updated
   * results, coalesced: each allowed-late delta fires the daily window again, and re-emitting every window per firing
   * multiplied the output). Timers are registered on every change, not only on a day's first: after a restore the
   * watermark starts again from the beginning (it is not checkpointed), and a window whose timer fired before the
   * checkpoint must be emitted again when the watermark passes. (Registering only when the watermark went backwards
   * is not enough: timers also fire between changes.)
   */
  private void touched(long day, DayState s, TimerService timers) throws Exception {
    long watermark = timers.currentWatermark();
    for (int k = 1; k <= maxSlides; k++) {
      long end = day + k * slide;
      if (end - 1 > watermark) {
        timers.registerEventTimeTimer(end - 1);
      }
    }
    if (day + slide - 1 <= watermark) {
      dirty.put(day, Boolean.TRUE);
      if (watermark < Long.MAX_VALUE) {
        timers.registerEventTimeTimer(watermark + 1);
      }
    }
  }

  /** After the final watermark no timer fires again: flush now. */
  private void flushIfFinal(Context ctx, Collector<CategoryStat> out) throws Exception {
    if (ctx.timerService().currentWatermark() == Long.MAX_VALUE) {
      flushDirty(ctx, Long.MAX_VALUE, out);
    }
  }

  /** Re-emits, once each, the closed windows that contain a dirty day, and re-tests the surge windows among them. */
  private void flushDirty(Context ctx, long watermark, Collector<CategoryStat> out) throws Exception {
    if (dirty.isEmpty()) {
      return;
    }
    List<Long> dirtyDays = new ArrayList<>();
    for (Long d : dirty.keys()) {
      dirtyDays.add(d);
    }
    dirty.clear();
    String[] key = StatKeys.split(ctx.getCurrentKey());
    Map<Long, DayState> cache = new HashMap<>();
    Sums sums = (start, end) -> {
      long sum = 0;
      for (long d = start; d < end; d += slide) {
        DayState s = cache.computeIfAbsent(d, this::dayOrNull);
        sum += s == null ? 0 : s.count();
      }
      return sum;
    };
    for (int w = 0; w < windows.length; w++) {
      TreeSet<Long> ends = new TreeSet<>();
      for (long day : dirtyDays) {
        for (long end = day + slide; end <= day + windows[w] && end - 1 <= watermark; end += slide) {
          ends.add(end);
        }
      }
      for (long end : ends) {
        out.collect(CategoryStat.rolling(key[0], key[1], key[2], windowLabels[w], end - windows[w], end, sums.sum(end - windows[w], end)));
        if (windows[w] == surgeWindow) {
          List<String[]> examples = new ArrayList<>();
          for (long d = end - slide; d >= end - surgeWindow; d -= slide) {
            DayState s = cache.computeIfAbsent(d, this::dayOrNull);
            if (s != null) {
              examples.add(s.windowExamples);
              examples.add(s.lateExamples);
            }
          }
          detectSurge(key, end, sums, Examples.union(examples, DailyAccumulator.MAX_EXAMPLES), ctx);
        }
      }
    }
  }

  private DayState dayOrNull(long day) {
    try {
      return days.get(day);
    } catch (Exception e) {
      throw new IllegalStateException("Could not read the count state of day " + day, e);
    }
  }

  private long bucketOf(long time) {
    return Math.floorDiv(time, slide) * slide;
  }

  /** Day states of [from, to), loaded once for several window sums. */
  private Range load(long from, long to) throws Exception {
    int n = (int) ((to - from) / slide);
    DayState[] loaded = new DayState[n];
    for (int i = 0; i < n; i++) {
      loaded[i] = days.get(from + i * slide);
    }
    return new Range(from, slide, loaded);
  }

  private record Range(long from, long slide, DayState[] days) {
    private int index(long t) {
      return (int) ((t - from) / slide);
    }

    long sum(long start, long end) {
      long s = 0;
      for (int i = Math.max(0, index(start)); i < Math.min(days.length, index(end)); i++) {
        s += days[i] == null ? 0 : days[i].count();
      }
      return s;
    }

    boolean any(long start, long end) {
      for (int i = Math.max(0, index(start)); i < Math.min(days.length, index(end)); i++) {
        if (days[i] != null) {
          return true;
        }
      }
      return false;
    }

    String[] examples(long start, long end) {
      List<String[]> all = new ArrayList<>();
      for (int i = Math.min(days.length, index(end)) - 1; i >= Math.max(0, index(start)); i--) {
        if (days[i] != null) {
          all.add(days[i].windowExamples);
          all.add(days[i].lateExamples);
        }
      }
      return Examples.union(all, DailyAccumulator.MAX_EXAMPLES);
    }
  }
}
