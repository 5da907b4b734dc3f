package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * +1 or -1 for one issue in one category of one dimension at one event time: an issue entering a
 * category, or the retraction of an earlier entry when it is re-classified. Summed, the deltas of
 * one issue leave it counted once. Beside the count, the change of the expected count (the issue's
 * probability of being a bug report of the category) and of its variance (p(1 − p)); a delta may
 * move only those ({@code delta} 0: the probabilities changed, the label did not).
 *
 * <p>Serialised by {@link ContributionDeltaSerializer} (named by {@code @TypeInfo}), not Flink's
 * POJO serializer.
 */
@TypeInfo(ContributionDeltaSerializer.Factory.class)
public class ContributionDelta {
  public String framework;
  public Dimension dimension;
  public String category;

  /** Event time the issue entered the category. */
  public long time;

  public int delta;
  public String issueId;

  /** Change of the expected count: ± the issue's P(bug and category). */
  public double expected;

  /** Change of the expected count's variance: ± p(1 − p). */
  public double variance;

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

  /** A delta of the count and of the expected count with its variance. */
  public ContributionDelta(
      String framework,
      Dimension dimension,
      String category,
      long time,
      int delta,
      String issueId,
      double expected,
      double variance) {
    this(framework, dimension, category, time, delta, issueId);
    this.expected = expected;
    this.variance = variance;
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
        + (expected == 0 && variance == 0 ? "" : " e" + expected + " v" + variance)
        + " "
        + issueId
        + "}";
  }
}
