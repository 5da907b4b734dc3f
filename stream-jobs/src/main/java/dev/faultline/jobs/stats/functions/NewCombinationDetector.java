package dev.faultline.jobs.stats.functions;

import dev.faultline.jobs.stats.domain.Categories;
import dev.faultline.jobs.stats.domain.Dimension;
import dev.faultline.jobs.stats.domain.Explanations;
import dev.faultline.jobs.stats.records.ComboObservation;
import dev.faultline.jobs.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by framework: raises a NEW_COMBINATION alert the first time a (known) category of a dimension meets a (known)
 * stage, once the framework has {@code warmup} of event-time history before the issue (before that, everything is
 * new and nothing is news). The set of pairs seen is bounded by the taxonomy (a few hundred per framework) and kept
 * under a long TTL.
 *
 * <p>"First" is in event time, decided at once and revised when records arrive out of order (a backfill): an
 * observation earlier than the pair's first moves the pair's first; one earlier than the framework's first moves the
 * framework's start. Every pair whose verdict or figures change is emitted again under its id: a corrected alert, or
 * one with {@code withdrawn = true} when the pair turns out to be within the warm-up after all. The alerts in force
 * therefore end up the same whatever the arrival order. In order, each pair is emitted once, as before.
 */
public final class NewCombinationDetector extends KeyedProcessFunction<String, ComboObservation, StatAlert> {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private final long warmup;
  private final Duration stateTtl;
  private transient ValueState<Long> firstSeen;
  /** Pair to the event time of its first observation. */
  private transient MapState<String, Long> seen;
  /** Pair to the issue of its first observation. */
  private transient MapState<String, String> firstIssue;
  /** Pairs whose alert is in force (emitted and not withdrawn). */
  private transient MapState<String, Boolean> alerted;

  public NewCombinationDetector(Duration warmup, Duration stateTtl) {
    this.warmup = warmup.toMillis();
    this.stateTtl = stateTtl;
  }

  @Override
  public void open(OpenContext openContext) {
    StateTtlConfig ttl = StateTtlConfig.newBuilder(stateTtl).setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite).build();
    ValueStateDescriptor<Long> f = new ValueStateDescriptor<>("framework-first-seen", Types.LONG);
    f.enableTimeToLive(ttl);
    firstSeen = getRuntimeContext().getState(f);
    MapStateDescriptor<String, Long> s = new MapStateDescriptor<>("pairs-seen", Types.STRING, Types.LONG);
    s.enableTimeToLive(ttl);
    seen = getRuntimeContext().getMapState(s);
    MapStateDescriptor<String, String> i = new MapStateDescriptor<>("pair-first-issue", Types.STRING, Types.STRING);
    i.enableTimeToLive(ttl);
    firstIssue = getRuntimeContext().getMapState(i);
    MapStateDescriptor<String, Boolean> a = new MapStateDescriptor<>("pairs-alerted", Types.STRING, Types.BOOLEAN);
    a.enableTimeToLive(ttl);
    alerted = getRuntimeContext().getMapState(a);
  }

  @Override
  public void processElement(ComboObservation o, Context ctx, Collector<StatAlert> out) throws Exception {
    Long before = firstSeen.value();
    boolean startMoved = before != null && o.time < before;
    if (before == null || startMoved) {
      firstSeen.update(o.time);
    }
    if (startMoved) {
      // the framework's history starts earlier: every pair's verdict and figures may change
      List<String> pairs = new ArrayList<>();
      for (Map.Entry<String, Long> e : seen.entries()) {
        pairs.add(e.getKey());
      }
      for (String pair : pairs) {
        if (!pair.equals(pairOf(o))) {
          decide(ctx.getCurrentKey(), pair, seen.get(pair), firstIssue.get(pair), before, out);
        }
      }
    }
    if (!Categories.informative(o.category) || !Categories.informative(o.stage)) {
      return;
    }
    String pair = pairOf(o);
    Long t = seen.get(pair);
    String issue = firstIssue.get(pair);
    boolean moved = t == null || o.time < t || (o.time == t && issue != null && o.issueId.compareTo(issue) < 0);
    if (moved) {
      seen.put(pair, o.time);
      firstIssue.put(pair, o.issueId);
    }
    if (moved || startMoved) {
      decide(ctx.getCurrentKey(), pair, t, issue, before == null ? o.time : before, out);
    }
  }

  private static String pairOf(ComboObservation o) {
    return o.dimension + "|" + o.category + "|" + o.stage;
  }

  /**
   * Emits the pair's alert if it is news now and was not in force with the same figures, or its withdrawal if it was
   * in force and is news no longer. {@code prevTime}, {@code prevIssue} and {@code prevFirst} are the pair's first
   * observation and the framework's start before this record (null time: a pair seen for the first time).
   */
  private void decide(String framework, String pair, Long prevTime, String prevIssue, long prevFirst,
      Collector<StatAlert> out) throws Exception {
    long first = firstSeen.value();
    long time = seen.get(pair);
    String issue = firstIssue.get(pair);
    boolean news = time - first >= warmup;
    boolean inForce = Boolean.TRUE.equals(alerted.get(pair));
    if (news && inForce && prevTime != null && prevTime == time && java.util.Objects.equals(prevIssue, issue)
        && (time - prevFirst) / DAY == (time - first) / DAY) {
      return; // the alert in force says the same
    }
    if (!news && !inForce) {
      return;
    }
    String[] parts = pair.split("\\|", 3);
    StatAlert a = alert(framework, Dimension.valueOf(parts[0]), parts[1], parts[2], time, first, issue);
    if (news) {
      alerted.put(pair, true);
    } else {
      a.withdrawn = true;
      a.explanation = "Withdrawn: " + parts[1] + " met stage " + parts[2] + " already " + (time - first) / DAY
          + " days into " + framework + "'s history, within the warm-up (" + issue + ").";
      alerted.put(pair, false);
    }
    out.collect(a);
  }

  private static StatAlert alert(
      String framework, Dimension dim, String category, String stage, long time, long first, String issueId) {
    long day = Math.floorDiv(time, DAY) * DAY;
    long historyDays = (time - first) / DAY;
    StatAlert a = new StatAlert();
    a.id = framework + "/" + dim.key() + "/" + category + "/" + stage + "/NEW_COMBINATION";
    a.framework = framework;
    a.dimension = dim.name();
    a.category = category;
    a.stage = stage;
    a.kind = "NEW_COMBINATION";
    a.windowStart = day;
    a.windowEnd = day + DAY;
    a.count = 1;
    a.baseline = 0;
    a.score = historyDays;
    a.raisedAt = time;
    a.exampleIssueIds = issueId == null ? new String[0] : new String[] {issueId};
    a.explanation = Explanations.newCombination(framework, dim, category, stage, historyDays, issueId);
    return a;
  }
}
