package dev.faultline.jobs.stats.records;

/** An issue now pairs a category of one dimension with a stage, since {@code time}. Input of the new-combination detector. */
public class ComboObservation {
  public String framework;
  public String dimension;
  public String category;
  public String stage;
  public long time;
  public String issueId;

  public ComboObservation() {}

  public ComboObservation(String framework, String dimension, String category, String stage, long time, String issueId) {
    this.framework = framework;
    this.dimension = dimension;
    this.category = category;
    this.stage = stage;
    this.time = time;
    this.issueId = issueId;
  }
}
