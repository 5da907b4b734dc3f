package dev.faultline.jobs.stats.functions;

import dev.faultline.jobs.stats.domain.Categories;
import dev.faultline.jobs.stats.domain.Dimension;
import dev.faultline.jobs.stats.domain.Explanations;
import dev.faultline.jobs.stats.records.ComboObservation;
import dev.faultline.jobs.stats.records.StatAlert;
import java.time.Duration;
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
 * new and nothing is news). Each pair alerts at most once, ever: the set of pairs seen is bounded by the taxonomy
 * (a few hundred per framework) and kept under a long TTL.
 */
public final class NewCombinationDetector extends KeyedProcessFunction<String, ComboObservation, StatAlert> {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private final long warmup;
  private final Duration stateTtl;
  private transient ValueState<Long> firstSeen;
  private transient MapState<String, Long> seen;

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
  }

  @Override
  public void processElement(ComboObservation o, Context ctx, Collector<StatAlert> out) throws Exception {
    Long first = firstSeen.value();
    if (first == null || o.time < first) {
      firstSeen.update(o.time);
      first = o.time;
    }
    if (!Categories.informative(o.category) || !Categories.informative(o.stage)) {
      return;
    }
    String pair = o.dimension + "|" + o.category + "|" + o.stage;
    if (seen.contains(pair)) {
      return;
    }
    seen.put(pair, o.time);
    if (o.time - first < warmup) {
      return;
    }
    Dimension dim = Dimension.valueOf(o.dimension);
    long day = Math.floorDiv(o.time, DAY) * DAY;
    long historyDays = (o.time - first) / DAY;
    StatAlert a = new StatAlert();
    a.id = o.framework + "/" + dim.key() + "/" + o.category + "/" + o.stage + "/NEW_COMBINATION";
    a.framework = o.framework;
    a.dimension = o.dimension;
    a.category = o.category;
    a.stage = o.stage;
    a.kind = "NEW_COMBINATION";
    a.windowStart = day;
    a.windowEnd = day + DAY;
    a.count = 1;
    a.baseline = 0;
    a.score = historyDays;
    a.raisedAt = o.time;
    a.exampleIssueIds = new String[] {o.issueId};
    a.explanation = Explanations.newCombination(o.framework, dim, o.category, o.stage, historyDays, o.issueId);
    out.collect(a);
  }
}
