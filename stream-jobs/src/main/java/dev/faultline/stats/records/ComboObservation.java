package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;

/**
 * An issue now pairs a category of one dimension with a stage, since {@code time}. Input of the
 * new-combination detector.
 */
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
