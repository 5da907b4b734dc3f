package dev.faultline.jobs.stats.records;

/**
 * +1 or -1 for one issue in one category of one dimension of one framework release. Release counts are cumulative;
 * {@code time} (the creation) tells the alert detector when the release was first reported.
 */
public class ReleaseDelta {
  public String releaseKey;
  public String framework;
  public String release;
  public String dimension;
  public String category;
  public int delta;
  /** Event time the issue was opened. */
  public long time;

  public ReleaseDelta() {}

  public ReleaseDelta(String framework, String release, String dimension, String category, int delta, long time) {
    this.releaseKey = StatKeys.ofRelease(framework, release, dimension, category);
    this.framework = framework;
    this.release = release;
    this.dimension = dimension;
    this.category = category;
    this.delta = delta;
    this.time = time;
  }
}
