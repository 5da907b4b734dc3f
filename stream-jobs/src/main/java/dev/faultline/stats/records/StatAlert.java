package dev.faultline.stats.records;

import dev.faultline.graph.stats.AlertRow;
import dev.faultline.schemas.Alert;
import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.StatDimensions;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * An emerging-category alert. The {@link #id} names the episode (a grouped alert: its earliest
 * member's episode): the same episode always has the same id.
 */
public class StatAlert {
  public String id;
  public String framework;
  public Dimension dimension;
  public String category;

  /** The stage of a NEW_COMBINATION, else null. */
  public String stage;

  public AlertKind kind;
  public long windowStart;
  public long windowEnd;
  public long count;
  public double baseline;
  public double score;
  public String explanation;
  public long raisedAt;
  public String[] exampleIssueIds = new String[0];

  /**
   * Issues of the window (up to {@code EpisodeModel.GROUPING_IDS}; kept in state, not written out):
   * what grouping compares to tell whether two alerts are about the same issues.
   */
  public String[] issueIds = new String[0];

  /** A revision that takes the alert of this id back. */
  public boolean withdrawn;

  /** SURGE after a release: the version, else null. */
  public String release;

  public long baselineCount;
  public long baselineStart;
  public long baselineEnd;
  public double pValue = 1.0;
  public double adjustedPValue = 1.0;

  /**
   * The statistic the detector decided on: the CUSUM's log-likelihood ratio at the episode's first
   * alerting end (0 for a release comparison, which decides on {@link #pValue}). What ranks the
   * members of a grouped alert.
   */
  public double statistic;

  /** The test and multiplicity control, in words. */
  public String test;

  /**
   * Every dimension/category the event moved, strongest first (the first is this alert's own);
   * empty for an alert not yet grouped.
   */
  public AlertMove[] moved = new AlertMove[0];

  public StatAlert() {}

  public AlertRow toRow() {
    return new AlertRow(
        id,
        framework,
        dimension.key(),
        category,
        stage,
        kind.name(),
        windowStart,
        windowEnd,
        count,
        baseline,
        score,
        explanation,
        raisedAt,
        List.of(exampleIssueIds),
        withdrawn,
        Arrays.stream(moved).map(m -> m.summary).toList());
  }

  public Alert toAvro() {
    return Alert.newBuilder()
        .setId(id)
        .setFramework(framework)
        .setDimension(StatDimensions.toAvro(dimension))
        .setCategory(category)
        .setStage(stage)
        .setKind(kind)
        .setWindowStart(Instant.ofEpochMilli(windowStart))
        .setWindowEnd(Instant.ofEpochMilli(windowEnd))
        .setCount(count)
        .setBaseline(baseline)
        .setScore(score)
        .setExampleIssueIds(List.of(exampleIssueIds))
        .setExplanation(explanation)
        .setRaisedAt(Instant.ofEpochMilli(raisedAt))
        .setWithdrawn(withdrawn)
        .setRelease(release)
        .setBaselineCount(baselineCount)
        .setBaselineStart(Instant.ofEpochMilli(baselineStart))
        .setBaselineEnd(Instant.ofEpochMilli(baselineEnd))
        .setPValue(pValue)
        .setAdjustedPValue(adjustedPValue)
        .setTest(test)
        .setMoved(Arrays.stream(moved).map(AlertMove::toAvro).toList())
        .build();
  }

  /** A copy (the state keeps its own). */
  public StatAlert copy() {
    StatAlert a = new StatAlert();
    a.id = id;
    a.framework = framework;
    a.dimension = dimension;
    a.category = category;
    a.stage = stage;
    a.kind = kind;
    a.windowStart = windowStart;
    a.windowEnd = windowEnd;
    a.count = count;
    a.baseline = baseline;
    a.score = score;
    a.explanation = explanation;
    a.raisedAt = raisedAt;
    a.exampleIssueIds = exampleIssueIds.clone();
    a.issueIds = issueIds.clone();
    a.withdrawn = withdrawn;
    a.release = release;
    a.baselineCount = baselineCount;
    a.baselineStart = baselineStart;
    a.baselineEnd = baselineEnd;
    a.pValue = pValue;
    a.adjustedPValue = adjustedPValue;
    a.statistic = statistic;
    a.test = test;
    a.moved = moved.clone();
    return a;
  }

  /** Same content: a re-emission of it would change nothing. */
  public boolean sameAs(StatAlert o) {
    return o != null
        && toString().equals(o.toString())
        && java.util.Objects.equals(explanation, o.explanation)
        && kind == o.kind
        && windowStart == o.windowStart
        && windowEnd == o.windowEnd
        && pValue == o.pValue
        && adjustedPValue == o.adjustedPValue;
  }

  @Override
  public String toString() {
    return "StatAlert{"
        + id
        + (withdrawn ? " WITHDRAWN" : "")
        + " count="
        + count
        + " baseline="
        + baseline
        + " score="
        + score
        + " examples="
        + Arrays.toString(exampleIssueIds)
        + "}";
  }
}
