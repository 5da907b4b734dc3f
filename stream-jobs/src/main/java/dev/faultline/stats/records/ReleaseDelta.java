package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * +1 or -1 for one issue in one category of one dimension of one framework release. Release counts
 * are cumulative; {@code time} (the creation) tells the alert detector when the release was
 * first reported.
 *
 * <p>Serialised by {@link ReleaseDeltaSerializer} (named by {@code @TypeInfo}), not Flink's POJO
 * serializer.
 */
@TypeInfo(ReleaseDeltaSerializer.Factory.class)
public class ReleaseDelta {
  public String framework;
  public String release;
  public Dimension dimension;
  public String category;
  public int delta;

  /** Event time the issue was opened. */
  public long time;

  public ReleaseDelta() {}

  public ReleaseDelta(
      String framework,
      String release,
      Dimension dimension,
      String category,
      int delta,
      long time) {
    this.framework = framework;
    this.release = release;
    this.dimension = dimension;
    this.category = category;
    this.delta = delta;
    this.time = time;
  }

  /** The key of the release counts: framework, release, dimension and category. */
  public StatKey key() {
    return StatKey.ofRelease(framework, release, dimension, category);
  }
}
