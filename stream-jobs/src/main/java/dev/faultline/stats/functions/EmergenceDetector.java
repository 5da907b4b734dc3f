package dev.faultline.stats.functions;

import dev.faultline.stats.alerts.EpisodeModel;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.detect.DailyTable;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.DailyExamples;
import dev.faultline.stats.records.DailySeries;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by framework: the emerging-category alerts ({@link AlertModel}: SURGE, SURGE after a
 * release, NEW_COMBINATION), the Flink state plumbing around the pure {@link EpisodeModel} (which
 * tests a day end and turns alerting ends into episodes and revisions). Keeps the framework's daily
 * counts per category, per category × stage pair and per reported release, and tests the whole
 * family of the framework at each day end whose window holds data, when the watermark passes it.
 *
 * <p><b>Revisions.</b> A test reads the counts of the {@link AlertModel#lookbackDays()} before its
 * end. A change to a day whose later ends were already tested (late data, a re-classification, a
 * backfill) marks those ends for one re-test at the next watermark (coalesced). An episode is a run
 * of alerting ends of one key with less than a window between consecutive ones; its alert carries
 * the figures of its first end, under an id naming that end's window. After every (re-)test the
 * episodes around the re-tested ends are recomputed and compared with the alerts in force: new or
 * changed ones are emitted, ones that no longer exist are emitted with {@code withdrawn = true}.
 * The alerts in force are therefore a function of the counts alone, whatever the arrival order; in
 * order, each episode is emitted once. Release comparisons are one test each, under an id naming
 * the release.
 *
 * <p><b>State.</b> Daily counts (per key, a {@link DailySeries}: a re-test reads slices of arrays)
 * and example issues (per key, a {@link DailyExamples}), releases' daily report counts, the
 * framework's first day, the pending re-test range, the alerting ends and the alerts in force; all
 * of it older than the retention (in event time, before the newest day end tested) is dropped.
 * Timers: one per day end within the longest window after a day with data (and at each release's
 * comparison end); all fire as the watermark passes.
 */
public final class EmergenceDetector extends KeyedProcessFunction<String, AlertCount, StatAlert> {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final int MAX_EXAMPLES = DailyAccumulator.MAX_EXAMPLES;

  /**
   * Issue ids kept per key and day (the smallest): the examples, and what grouping compares to tell
   * whether two alerts are about the same issues.
   */
  static final int KEPT_PER_DAY = 20;

  /**
   * Name of the daily-count state (key to its {@link DailySeries}); an earlier build kept {@code
   * alert-day-counts} (day to key to count).
   */
  public static final String DAY_COUNTS = "alert-day-series";

  /**
   * Name of the example-id state (key to its {@link DailyExamples}); an earlier build kept {@code
   * alert-day-examples} (day to key to the ids joined by spaces).
   */
  public static final String DAY_EXAMPLES = "alert-day-example-ids";

  private final AlertModel model;
  private final EpisodeModel episodes;
  private final long retentionDays;
  private transient MapState<String, DailySeries> counts;
  private transient MapState<String, DailyExamples> examples;
  private transient MapState<String, Integer> releases;
  private transient ValueState<Long> firstDay;
  private transient ValueState<Long> cleanedTo;
  private transient ValueState<Long> pendingFrom;
  private transient ValueState<Long> pendingTo;
  private transient MapState<Long, Map<String, StatAlert>> alerting;
  private transient MapState<String, StatAlert> inForce;
  private transient MapState<String, StatAlert> groupsInForce;

  /**
   * Per framework, the last day whose CUSUM-run timers this instance registered: those still ahead
   * of the watermark are in place (a timer is never deleted, the watermark only rises within an
   * instance, a restore starts with this map empty), so the day's next record registers none.
   */
  private transient Map<String, Long> timersOf;

  /**
   * Per framework, the retest timer ({@code watermark + 1}) this instance last registered: while
   * the watermark has not moved it is still in place (it fires only once the watermark passes it),
   * so the next record of a pending re-test registers none.
   */
  private transient Map<String, Long> retestTimerOf;

  /**
   * Per framework, its release marks as last built from {@code release-reports}, dropped when a
   * record can move a release's first day or the clean-up forgets reports (a restore starts with
   * this map empty): a re-test reads them without parsing every report key.
   */
  private transient Map<String, ReleaseMarks> releaseMarksOf;

  /**
   * @param retention how much event-time history is kept before the newest tested day end (at least
   *     the model's look-back); records for older days are ignored
   */
  public EmergenceDetector(AlertModel model, Duration retention) {
    this.model = model;
    this.episodes = new EpisodeModel(model, MAX_EXAMPLES);
    this.retentionDays = Math.max(retention.toDays(), model.lookbackDays() + model.windowDays());
  }

  @Override
  public void open(OpenContext openContext) {
    // No state TTL here: Flink's TTL copies a map value on every access, and history is bounded in
    // event time instead
    // (see cleanUp), which also keeps what a re-test reads independent of when records arrived.
    TypeInformation<StatAlert> alert = TypeInformation.of(StatAlert.class);
    counts =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>(
                    DAY_COUNTS, Types.STRING, TypeInformation.of(DailySeries.class)));
    examples =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>(
                    DAY_EXAMPLES, Types.STRING, TypeInformation.of(DailyExamples.class)));
    releases =
        getRuntimeContext()
            .getMapState(new MapStateDescriptor<>("release-reports", Types.STRING, Types.INT));
    firstDay =
        getRuntimeContext().getState(new ValueStateDescriptor<>("framework-first-day", Types.LONG));
    cleanedTo =
        getRuntimeContext().getState(new ValueStateDescriptor<>("history-cleaned-to", Types.LONG));
    pendingFrom =
        getRuntimeContext().getState(new ValueStateDescriptor<>("retest-from", Types.LONG));
    pendingTo = getRuntimeContext().getState(new ValueStateDescriptor<>("retest-to", Types.LONG));
    alerting =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>(
                    "alerting-ends", Types.LONG, Types.MAP(Types.STRING, alert)));
    inForce =
        getRuntimeContext()
            .getMapState(new MapStateDescriptor<>("alerts-in-force", Types.STRING, alert));
    groupsInForce =
        getRuntimeContext()
            .getMapState(new MapStateDescriptor<>("alert-groups-in-force", Types.STRING, alert));
    timersOf = new HashMap<>();
    retestTimerOf = new HashMap<>();
    releaseMarksOf = new HashMap<>();
  }

  /**
   * Forgets the days, alerting ends, release reports and alerts in force older than the retention
   * before {@code endDay}: records for those days no longer count (as with the counts' state TTL,
   * but in event time).
   */
  private void cleanUp(String framework, long endDay) throws Exception {
    long horizon = endDay - retentionDays;
    Long done = cleanedTo.value();
    Long first = firstDay.value();
    long from = done != null ? done : first != null ? first : horizon;
    if (horizon <= from) {
      return;
    }
    for (long d = from; d < horizon; d++) {
      alerting.remove(d);
    }
    dropCountsBefore(horizon);
    dropExamplesBefore(horizon);
    cleanedTo.update(horizon);
    releaseMarksOf.remove(framework);
    List<String> old = new ArrayList<>();
    for (Map.Entry<String, StatAlert> e : inForce.entries()) {
      if (e.getValue().windowEnd / DAY < horizon) {
        old.add(e.getKey());
      }
    }
    for (Map.Entry<String, Integer> e : releases.entries()) {
      if (Long.parseLong(e.getKey().substring(e.getKey().lastIndexOf('@') + 1)) < horizon) {
        old.add(e.getKey());
      }
    }
    for (Map.Entry<String, StatAlert> e : groupsInForce.entries()) {
      if (Arrays.stream(e.getValue().moved).allMatch(m -> m.windowEnd / DAY < horizon)) {
        old.add(e.getKey());
      }
    }
    for (String k : old) {
      inForce.remove(k);
      releases.remove(k);
      groupsInForce.remove(k);
    }
  }

  /** Forgets every key's counts of the days before {@code horizon}, and the keys left empty. */
  private void dropCountsBefore(long horizon) throws Exception {
    Map<String, DailySeries> kept = new HashMap<>();
    List<String> empty = new ArrayList<>();
    for (Map.Entry<String, DailySeries> e : counts.entries()) {
      DailySeries s = e.getValue();
      if (s.firstDay < horizon) {
        s.dropBefore(horizon);
        if (s.isEmpty()) {
          empty.add(e.getKey());
        } else {
          kept.put(e.getKey(), s);
        }
      }
    }
    for (String k : empty) {
      counts.remove(k);
    }
    counts.putAll(kept);
  }

  /**
   * Forgets every key's example ids of the days before {@code horizon}, and the keys left empty.
   */
  private void dropExamplesBefore(long horizon) throws Exception {
    Map<String, DailyExamples> kept = new HashMap<>();
    List<String> empty = new ArrayList<>();
    for (Map.Entry<String, DailyExamples> e : examples.entries()) {
      DailyExamples x = e.getValue();
      if (x.firstDay < horizon) {
        x.dropBefore(horizon);
        if (x.isEmpty()) {
          empty.add(e.getKey());
        } else {
          kept.put(e.getKey(), x);
        }
      }
    }
    for (String k : empty) {
      examples.remove(k);
    }
    examples.putAll(kept);
  }

  @Override
  public void processElement(AlertCount c, Context ctx, Collector<StatAlert> out) throws Exception {
    long day = Math.floorDiv(c.time, DAY);
    Long cleaned = cleanedTo.value();
    if (cleaned != null && day < cleaned) {
      return; // older than the history kept
    }
    if (c.release != null) {
      addRelease(ctx.getCurrentKey(), c.release, day, c.delta);
    } else {
      addCount(day, c);
    }
    long watermark = ctx.timerService().currentWatermark();
    Long first = firstDay.value();
    if (first == null || day < first) {
      firstDay.update(day);
      if (first != null) {
        // every end whose history the old first day clipped, or that was still in the warm-up,
        // tests anew
        markPending(day + 1, first + model.lookbackDays() + model.warmupDays());
      }
    }
    Long registered = timersOf.put(ctx.getCurrentKey(), day);
    if (registered == null || registered != day) {
      for (int k = 1; k <= model.runDays(); k++) {
        register(ctx, day + k, watermark); // every end whose CUSUM run may hold this day
      }
    }
    if (c.release != null) {
      register(ctx, day + model.releaseAfterDays(), watermark);
    }
    if ((day + 1) * DAY - 1 <= watermark) {
      markPending(day + 1, day + model.lookbackDays());
    }
    if (pendingFrom.value() != null) {
      if (watermark == Long.MAX_VALUE) {
        // after the final watermark no timer fires again
        retest(ctx.getCurrentKey(), new TreeSet<>(), watermark, out);
      } else {
        Long noted = retestTimerOf.put(ctx.getCurrentKey(), watermark + 1);
        if (noted == null || noted != watermark + 1) {
          ctx.timerService().registerEventTimeTimer(watermark + 1);
        }
      }
    }
  }

  private void addRelease(String framework, String release, long day, int delta) throws Exception {
    String releaseDay = release + "@" + day;
    Integer before = releases.get(releaseDay);
    int now = (before == null ? 0 : before) + delta;
    if (now == 0) {
      releases.remove(releaseDay);
    } else {
      releases.put(releaseDay, now);
    }
    boolean positive = now > 0;
    if ((before != null && before > 0) != positive) {
      ReleaseMarks marks = releaseMarksOf.get(framework);
      if (marks != null && marks.movedBy(release, day, positive)) {
        releaseMarksOf.remove(framework);
      }
    }
  }

  private void addCount(long day, AlertCount c) throws Exception {
    // Changed in place, then put: on the heap backend a get already returns a private copy while a
    // snapshot holds the state (copy on write), and on RocksDB a get deserialises a copy.
    DailySeries s = counts.get(c.key);
    s = s == null ? new DailySeries() : s;
    if (s.add(day, c.delta) == 0 && s.isEmpty()) {
      counts.remove(c.key);
    } else {
      counts.put(c.key, s);
    }
    if (c.issueId != null) {
      addExample(day, c);
    }
  }

  private void addExample(long day, AlertCount c) throws Exception {
    DailyExamples x = examples.get(c.key);
    x = x == null ? new DailyExamples() : x;
    String[] ids = x.at(day);
    String[] after = Examples.applySmallest(ids, c.delta, c.issueId, KEPT_PER_DAY);
    if (after == ids) {
      return; // unchanged (a duplicate, a full day's larger id, a retraction of an id not kept)
    }
    x.set(day, after);
    if (after.length == 0 && x.isEmpty()) {
      examples.remove(c.key);
    } else {
      examples.put(c.key, x);
    }
  }

  private void register(Context ctx, long endDay, long watermark) {
    if (endDay * DAY - 1 > watermark) {
      ctx.timerService().registerEventTimeTimer(endDay * DAY - 1);
    }
  }

  private void markPending(long fromEnd, long toEnd) throws Exception {
    Long f = pendingFrom.value();
    Long t = pendingTo.value();
    pendingFrom.update(f == null ? fromEnd : Math.min(f, fromEnd));
    pendingTo.update(t == null ? toEnd : Math.max(t, toEnd));
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<StatAlert> out)
      throws Exception {
    TreeSet<Long> ends = new TreeSet<>();
    if (Math.floorMod(timestamp + 1, DAY) == 0) {
      ends.add((timestamp + 1) / DAY);
      cleanUp(ctx.getCurrentKey(), (timestamp + 1) / DAY);
    }
    retest(ctx.getCurrentKey(), ends, ctx.timerService().currentWatermark(), out);
  }

  /**
   * Tests {@code ends} and the pending ends the watermark has passed, then brings the alerts in
   * force up to date.
   */
  private void retest(
      String framework, TreeSet<Long> ends, long watermark, Collector<StatAlert> out)
      throws Exception {
    long lastClosed =
        watermark == Long.MAX_VALUE ? Long.MAX_VALUE / DAY : Math.floorDiv(watermark + 1, DAY);
    Long pf = pendingFrom.value();
    if (pf != null) {
      long pt = Math.min(pendingTo.value(), lastClosed);
      for (long e = pf; e <= pt; e++) {
        ends.add(e);
      }
      pendingFrom.clear();
      pendingTo.clear();
    }
    Long first = firstDay.value();
    if (ends.isEmpty() || first == null) {
      return;
    }
    Long cleaned = cleanedTo.value();
    if (cleaned != null) {
      first = Math.max(first, cleaned);
    }
    long lo = ends.first();
    long hi = ends.last();
    long from = Math.max(first, lo - model.lookbackDays());
    DailyTable table = table(from, hi);
    Map<Long, List<AlertModel.ReleaseMark>> releaseEnds = releaseMarksByEnd(framework);
    Set<String> touched = new HashSet<>();
    List<StatAlert> releaseAlerts = new ArrayList<>();
    Set<Long> releaseTested = new HashSet<>();
    Map<String, DailyExamples> read = new HashMap<>();
    EpisodeModel.ExampleDays exampleDays = (key, day) -> examplesOf(read, key).at(day);
    for (long end : ends) {
      if (end * DAY - 1 > watermark) {
        continue;
      }
      releaseTested.add(end);
      EpisodeModel.Tested tested =
          episodes.test(
              framework, table, end, first, releaseEnds.getOrDefault(end, List.of()), exampleDays);
      releaseAlerts.addAll(tested.releaseAlerts());
      Map<String, StatAlert> before = alerting.get(end);
      touched.addAll(EpisodeModel.changed(before == null ? Map.of() : before, tested.alerting()));
      if (tested.alerting().isEmpty()) {
        alerting.remove(end);
      } else {
        alerting.put(end, tested.alerting());
      }
    }
    Map<String, StatAlert> force = new LinkedHashMap<>();
    for (Map.Entry<String, StatAlert> e : inForce.entries()) {
      force.put(e.getKey(), e.getValue());
    }
    EpisodeModel.Revision revision =
        episodes.reconcile(touched, lo, hi, alerting::get, releaseAlerts, releaseTested, force);
    if (revision.withdrawn().isEmpty() && revision.emitted().isEmpty()) {
      return;
    }
    for (StatAlert w : revision.withdrawn()) {
      inForce.remove(w.id);
    }
    for (StatAlert a : revision.emitted()) {
      inForce.put(a.id, a);
    }
    emitGroups(out);
  }

  /**
   * One alert per event: regroups the episodes in force and emits the groups that are new or
   * changed, and withdraws the ones that no longer exist.
   */
  private void emitGroups(Collector<StatAlert> out) throws Exception {
    List<StatAlert> episodesInForce = new ArrayList<>();
    for (StatAlert a : inForce.values()) {
      episodesInForce.add(a);
    }
    Map<String, StatAlert> now = EpisodeModel.groups(episodesInForce);
    List<String> gone = new ArrayList<>();
    for (String id : groupsInForce.keys()) {
      if (!now.containsKey(id)) {
        gone.add(id);
      }
    }
    for (String id : gone) {
      out.collect(EpisodeModel.withdrawal(groupsInForce.get(id)));
      groupsInForce.remove(id);
    }
    for (StatAlert g : now.values()) {
      if (!g.sameAs(groupsInForce.get(g.id))) {
        groupsInForce.put(g.id, g);
        out.collect(g.copy());
      }
    }
  }

  /** The key's example ids, read from the state once per re-test. */
  private DailyExamples examplesOf(Map<String, DailyExamples> read, String key) throws Exception {
    DailyExamples x = read.get(key);
    if (x == null) {
      x = examples.get(key);
      x = x == null ? new DailyExamples() : x;
      read.put(key, x);
    }
    return x;
  }

  /** The framework's daily counts of the days [from, hi). */
  private DailyTable table(long from, long hi) throws Exception {
    DailyTable.Builder b = DailyTable.builder(from, (int) Math.max(0, hi - from));
    for (Map.Entry<String, DailySeries> e : counts.entries()) {
      b.addSeries(e.getKey(), e.getValue().firstDay, e.getValue().counts);
    }
    return b.build();
  }

  /**
   * The first day each reported release was seen (days with a positive net count of reports), by
   * comparison end: those last built while no record moved them, else built anew.
   */
  private Map<Long, List<AlertModel.ReleaseMark>> releaseMarksByEnd(String framework)
      throws Exception {
    ReleaseMarks marks = releaseMarksOf.get(framework);
    if (marks == null) {
      marks = ReleaseMarks.of(releases.entries(), model.releaseAfterDays());
      releaseMarksOf.put(framework, marks);
    }
    return marks.byEnd();
  }
}
