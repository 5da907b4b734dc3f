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
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by framework × dimension × category: sums daily buckets into the rolling windows, takes the correction path,
 * and runs the surge detector.
 *
 * <p>Input 1 is the daily window's results (absolute, re-sent on every allowed-late firing); input 2 the deltas the
 * daily window dropped as too late (its late-data side output). A day's count is the window's last result plus the
 * sum of its too-late deltas: additions that commute, so the counts do not depend on which input arrives first.
 *
 * <p>Emission: a rolling window is emitted when the watermark passes its end (event-time timer), and again whenever
 * a later change touches a day inside an already emitted window (updated results). The surge detector runs once per
 * window end of the shortest window, on the counts known then; one alert per episode (consecutive surging window
 * ends), the episode held in state.
 *
 * <p>State: one {@link DayState} per day with data, under a TTL refreshed on write; the open episode, under the same
 * TTL. Timers: one per window end for the {@code longest window / slide} ends after each day with data; all fire as
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
  private transient MapState<Long, DayState> days;
  private transient ValueState<Long> episode;

  public RollingCounts(StatsConfig config) {
    this.slide = config.slide().toMillis();
    this.windows = config.windows().stream().mapToLong(Duration::toMillis).toArray();
    this.windowLabels = config.windows().stream().map(Explanations::windowLabel).toArray(String[]::new);
    this.maxSlides = config.maxWindowSlides();
    this.surgeWindow = config.surgeWindow().toMillis();
    this.baseline = config.surgeBaseline().toMillis();
    this.detector = config.surgeDetector();
    this.stateTtl = config.countStateTtl();
  }

  @Override
  public void open(OpenContext openContext) {
    StateTtlConfig ttl = StateTtlConfig.newBuilder(stateTtl).setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite).build();
    MapStateDescriptor<Long, DayState> d = new MapStateDescriptor<>("days", Types.LONG, TypeInformation.of(DayState.class));
    d.enableTimeToLive(ttl);
    days = getRuntimeContext().getMapState(d);
    ValueStateDescriptor<Long> e = new ValueStateDescriptor<>("surge-episode", Types.LONG);
    e.enableTimeToLive(ttl);
    episode = getRuntimeContext().getState(e);
  }

  @Override
  public void processElement1(DailyCount daily, Context ctx, Collector<CategoryStat> out) throws Exception {
    DayState s = dayFor(daily.day, ctx);
    s.windowCount = daily.count;
    s.windowExamples = daily.examples == null ? new String[0] : daily.examples;
    days.put(daily.day, s);
    emitClosedWindowsContaining(daily.day, ctx.getCurrentKey(), ctx.timerService().currentWatermark(), out);
  }

  @Override
  public void processElement2(ContributionDelta late, Context ctx, Collector<CategoryStat> out) throws Exception {
    long day = bucketOf(late.time);
    DayState s = dayFor(day, ctx);
    s.lateCount += late.delta;
    s.lateExamples = Examples.apply(s.lateExamples, late.delta, late.issueId);
    days.put(day, s);
    emitClosedWindowsContaining(day, ctx.getCurrentKey(), ctx.timerService().currentWatermark(), out);
  }

  private DayState dayFor(long day, Context ctx) throws Exception {
    DayState s = days.get(day);
    if (s == null) {
      s = new DayState();
      // The window ends this day contributes to: each is emitted when the watermark passes it.
      for (int k = 1; k <= maxSlides; k++) {
        ctx.timerService().registerEventTimeTimer(day + k * slide - 1);
      }
    }
    return s;
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<CategoryStat> out) throws Exception {
    long end = timestamp + 1;
    String[] key = StatKeys.split(ctx.getCurrentKey());
    long from = end - Math.max(windows[windows.length - 1], surgeWindow + baseline);
    Range r = load(from, end);
    for (int w = 0; w < windows.length; w++) {
      if (r.any(end - windows[w], end)) {
        out.collect(CategoryStat.rolling(key[0], key[1], key[2], windowLabels[w], end - windows[w], end, r.sum(end - windows[w], end)));
      }
    }
    detectSurge(key, end, r, ctx);
  }

  private void detectSurge(String[] key, long end, Range r, OnTimerContext ctx) throws Exception {
    if (!Categories.informative(key[2])) {
      return;
    }
    long start = end - surgeWindow;
    int windowDays = (int) (surgeWindow / slide);
    int baselineDays = (int) (baseline / slide);
    SurgeDetector.Verdict v = detector.test(r.sum(start, end), windowDays, r.sum(start - baseline, start), baselineDays);
    if (!v.surge()) {
      episode.clear();
      return;
    }
    if (episode.value() != null) {
      return; // the same episode: alerted already
    }
    episode.update(start);
    Dimension dim = Dimension.valueOf(key[1]);
    StatAlert a = new StatAlert();
    a.id = key[0] + "/" + dim.key() + "/" + key[2] + "/SURGE/" + Explanations.dateLabel(start);
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
    a.exampleIssueIds = r.examples(start, end);
    a.explanation =
        Explanations.surge(key[0], dim, key[2], v.count(), Duration.ofMillis(surgeWindow), end, v.expected(), Duration.ofMillis(baseline), v.pValue());
    ctx.output(ALERTS, a);
  }

  /** Re-emits the windows containing {@code day} that the watermark has already passed (updated results). */
  private void emitClosedWindowsContaining(long day, String statKey, long watermark, Collector<CategoryStat> out) throws Exception {
    if (day + slide - 1 > watermark) {
      return; // no window containing the day has closed: the timers will emit them
    }
    String[] key = StatKeys.split(statKey);
    Range r = load(day - (maxSlides - 1) * slide, day + maxSlides * slide);
    for (int w = 0; w < windows.length; w++) {
      for (long end = day + slide; end <= day + windows[w]; end += slide) {
        if (end - 1 <= watermark) {
          out.collect(CategoryStat.rolling(key[0], key[1], key[2], windowLabels[w], end - windows[w], end, r.sum(end - windows[w], end)));
        }
      }
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
