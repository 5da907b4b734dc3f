package dev.faultline.stats.records;

import dev.faultline.stats.keys.AlertKeys;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * +1 or −1 for one framework's alert detector: an issue in a category ({@code key} = {@code
 * DIMENSION|category}), an issue pairing a category with a stage ({@code
 * DIMENSION|category|stage}), or an issue reporting a release ({@code release} set, {@code key}
 * null), at an event time. Serialised by {@link AlertCountSerializer} (named by {@code @TypeInfo}),
 * not Flink's POJO serializer.
 */
@TypeInfo(AlertCountSerializer.Factory.class)
public class AlertCount {
  public String framework;
  public String key;
  public String release;
  public long time;
  public int delta;
  public String issueId;

  public AlertCount() {}

  public static AlertCount of(ContributionDelta d) {
    return make(
        d.framework, AlertKeys.category(d.dimension, d.category), null, d.time, d.delta, d.issueId);
  }

  public static AlertCount of(ComboObservation c) {
    return make(
        c.framework, AlertKeys.pair(c.dimension, c.category, c.stage), null, c.time, +1, c.issueId);
  }

  /**
   * Only one dimension's release deltas are needed: each issue reports its release once per
   * dimension.
   */
  public static AlertCount of(ReleaseDelta r) {
    return make(r.framework, null, r.release, r.time, r.delta, null);
  }

  private static AlertCount make(
      String framework, String key, String release, long time, int delta, String issueId) {
    AlertCount c = new AlertCount();
    c.framework = framework;
    c.key = key;
    c.release = release;
    c.time = time;
    c.delta = delta;
    c.issueId = issueId;
    return c;
  }

  @Override
  public String toString() {
    return "AlertCount{"
        + framework
        + " "
        + (key != null ? key : "release " + release)
        + " @"
        + time
        + " "
        + (delta > 0 ? "+" : "")
        + delta
        + "}";
  }
}
