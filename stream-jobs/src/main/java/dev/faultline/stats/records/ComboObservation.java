package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * An issue now pairs a category of one dimension with a stage, since {@code time}. Input of the
 * new-combination detector.
 *
 * <p>Serialised by {@link ComboObservationSerializer} (named by {@code @TypeInfo}), not Flink's
 * POJO serializer.
 */
@TypeInfo(ComboObservationSerializer.Factory.class)
public class ComboObservation {
  public String framework;
  public Dimension dimension;
  public String category;
  public String stage;
  public long time;
  public String issueId;

  public ComboObservation() {}

  public ComboObservation(
      String framework,
      Dimension dimension,
      String category,
      String stage,
      long time,
      String issueId) {
    this.framework = framework;
    this.dimension = dimension;
    this.category = category;
    this.stage = stage;
    this.time = time;
    this.issueId = issueId;
  }
}
