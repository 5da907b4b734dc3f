package dev.faultline.jobs.stats.records;

/**
 * +1 or -1 for one issue in one category of one dimension at one event time: an issue entering a category, or the
 * retraction of an earlier entry when it is re-classified. Summed, the deltas of one issue leave it counted once.
 */
public class ContributionDelta {
  /** framework, dimension and category joined: the key of the counts. */
  public String statKey;
  public String framework;
  /** {@link dev.faultline.jobs.stats.domain.Dimension} name. */
  public String dimension;
  public String category;
  /** Event time the issue entered the category. */
  public long time;
  public int delta;
  public String issueId;

  public ContributionDelta() {}

  public ContributionDelta(String framework, String dimension, String category, long time, int delta, String issueId) {
    this.statKey = StatKeys.of(framework, dimension, category);
    this.framework = framework;
    this.dimension = dimension;
    this.category = category;
    this.time = time;
    this.delta = delta;
    this.issueId = issueId;
  }

  @Override
  public String toString() {
    return "Delta{" + statKey + " @" + time + " " + (delta > 0 ? "+" : "") + delta + " " + issueId + "}";
  }
}
