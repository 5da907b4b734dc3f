package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A change of the net count of one statistics key on one UTC day, from one firing of the daily
 * event-time window.
 *
 * <p>Serialised by {@link DailyCountSerializer} (named by {@code @TypeInfo}), not Flink's POJO
 * serializer.
 */
@TypeInfo(DailyCountSerializer.Factory.class)
public class DailyCount {
  public String framework;
  public Dimension dimension;
  public String category;

  /** Start of the day, epoch millis. */
  public long day;

  /** Change since the window's previous firing (its whole sum on the first firing). */
  public long count;

  /** Change of the expected count since the window's previous firing. */
  public double expected;

  /** Change of the expected count's variance since the window's previous firing. */
  public double variance;

  /** A few issues that entered the category that day. */
  public String[] examples;

  public DailyCount() {}

  public DailyCount(
      String framework,
      Dimension dimension,
      String category,
      long day,
      long count,
      String[] examples) {
    this.framework = framework;
    this.dimension = dimension;
    this.category = category;
    this.day = day;
    this.count = count;
    this.examples = examples;
  }

  /** The key of the counts: framework, dimension and category. */
  public StatKey key() {
    return StatKey.of(framework, dimension, category);
  }
}
