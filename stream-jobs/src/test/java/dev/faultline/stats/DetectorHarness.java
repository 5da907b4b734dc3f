package dev.faultline.stats;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.functions.EmergenceDetector;
import dev.faultline.stats.keys.AlertKeys;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.AlertMove;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/** Runs the {@link EmergenceDetector} in Flink's operator test harness over a list of counts. */
final class DetectorHarness implements AutoCloseable {
  final KeyedOneInputStreamOperatorTestHarness<String, AlertCount, StatAlert> harness;
  private long newest = Long.MIN_VALUE;
  private long watermark = Long.MIN_VALUE;

  DetectorHarness(AlertModel model, Duration retention) throws Exception {
    harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new EmergenceDetector(model, retention)),
            (AlertCount c) -> c.framework,
            Types.STRING);
    harness.open();
  }

  /**
   * Delivers {@code arrival} in its order; the watermark follows the newest time seen minus {@code
   * lag} (a live stream: lag 0; a backfill that delivers out of order: records behind the watermark
   * are late). The watermark never goes back, also across calls.
   */
  DetectorHarness deliver(List<AlertCount> arrival, long lag) throws Exception {
    for (AlertCount c : arrival) {
      harness.processElement(c, c.time);
      newest = Math.max(newest, c.time);
      if (newest - lag - 1 > watermark) {
        watermark = newest - lag - 1;
        harness.processWatermark(new Watermark(watermark));
      }
    }
    return this;
  }

  DetectorHarness finish() throws Exception {
    harness.processWatermark(new Watermark(Long.MAX_VALUE));
    return this;
  }

  List<StatAlert> emitted() {
    return new ArrayList<>(harness.extractOutputValues());
  }

  /** The last record of each id, without the withdrawn ones. */
  Map<String, StatAlert> inForce() {
    Map<String, StatAlert> last = new TreeMap<>();
    for (StatAlert a : emitted()) {
      last.put(a.id, a);
    }
    last.values().removeIf(a -> a.withdrawn);
    return last;
  }

  /** The member of a grouped alert that moved this dimension/category as this kind, if any. */
  static java.util.Optional<AlertMove> member(
      StatAlert a, AlertKind kind, Dimension dimension, String category) {
    return java.util.Arrays.stream(a.moved)
        .filter(m -> m.kind == kind && m.dimension == dimension && m.category.equals(category))
        .findFirst();
  }

  /**
   * The alert in force, if any, that compares around {@code release} and holds a surge of the
   * symptom {@code symptom}; null when there is none.
   */
  static StatAlert releaseSurge(Map<String, StatAlert> inForce, String release, String symptom) {
    return inForce.values().stream()
        .filter(
            x ->
                release.equals(x.release)
                    && member(x, AlertKind.SURGE, Dimension.SYMPTOM, symptom).isPresent())
        .findFirst()
        .orElse(null);
  }

  /**
   * What must not depend on arrival order: id, count, expected, p-values, and the members of a
   * group with theirs (examples may differ past 5 a day).
   */
  static Map<String, String> summary(Map<String, StatAlert> alerts) {
    Map<String, String> m = new TreeMap<>();
    alerts.forEach(
        (id, a) ->
            m.put(
                id,
                a.count
                    + " "
                    + Math.round(a.baseline * 1e6)
                    + " "
                    + (float) a.pValue
                    + " "
                    + (float) a.adjustedPValue
                    + java.util.Arrays.stream(a.moved)
                        .map(
                            x ->
                                " | "
                                    + x.dimension
                                    + " "
                                    + x.category
                                    + " "
                                    + x.stage
                                    + " "
                                    + x.kind
                                    + " "
                                    + x.count
                                    + " "
                                    + Math.round(x.expected * 1e6)
                                    + " "
                                    + (float) x.adjustedPValue)
                        .collect(java.util.stream.Collectors.joining())));
    return m;
  }

  @Override
  public void close() throws Exception {
    harness.close();
  }

  /**
   * The counts the job's issue-contribution step sends for one new issue (symptom, stage and their
   * pair).
   */
  static List<AlertCount> issue(
      String framework, String id, long time, String symptom, String stage, int delta) {
    List<AlertCount> out = new ArrayList<>();
    out.add(count(framework, AlertKeys.category(Dimension.SYMPTOM, symptom), time, delta, id));
    out.add(count(framework, AlertKeys.category(Dimension.STAGE, stage), time, delta, id));
    if (delta > 0) {
      out.add(count(framework, AlertKeys.pair(Dimension.SYMPTOM, symptom, stage), time, delta, id));
    }
    return out;
  }

  static AlertCount count(String framework, String key, long time, int delta, String id) {
    AlertCount c = new AlertCount();
    c.framework = framework;
    c.key = key;
    c.time = time;
    c.delta = delta;
    c.issueId = id;
    return c;
  }

  static AlertCount release(String framework, String version, long time) {
    AlertCount c = new AlertCount();
    c.framework = framework;
    c.release = version;
    c.time = time;
    c.delta = 1;
    return c;
  }
}
