package dev.faultline.jobs.stats.records;

/** +1 or -1 for one issue in one category of one dimension of one framework release (no time: releases are cumulative). */
public class ReleaseDelta {
  public String releaseKey;
  public String framework;
  public String release;
  public String dimension;
  public String category;
  public int delta;

  public ReleaseDelta() {}

  public ReleaseDelta(String framework, String release, String dimension, String category, int delta) {
    this.releaseKey = StatKeys.ofRelease(framework, release, dimension, category);
    this.framework = framework;
    this.release = release;
    this.dimension = dimension;
    this.category = category;
    this.delta = delta;
  }
}
