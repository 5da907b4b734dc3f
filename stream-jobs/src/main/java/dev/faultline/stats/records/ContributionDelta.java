package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;

/**
 * +1 or -1 for one issue in one category of one dimension at one event time: an issue entering a
 * category, or the retraction of an earlier entry when it is re-classified. Summed, the deltas of
 * one issue leave it counted once.
 */
public class ContributionDelta {
  public String framework;
  public Dimension dimension;
  public String category;

  /** Event time the issue entered the category. */
  public long time;

  public int delta;
  public String issueId;

  public ContributionDelta() {}

  public ContributionDelta(
      String framework,
      Dimension dimension,
      String category,
      long time,
      int delta,
      String issueId) {
    this.framework = framework;
    this.dimension = dimension;
    this.category = category;
    this.time = time;
    this.delta = delta;
    this.issueId = issueId;
  }

  /** The key of the counts: framework, dimension and category. */
  public StatKey key() {
    return StatKey.of(framework, dimension, category);
  }

  @Override
  public String toString() {
    return "Delta{"
        + key()
        + " @"
        + time
        + " "
        + (delta > 0 ? "+" : "")
        + delta
        + " "
        + issueId
        + "}";
  }
}
