package dev.faultline.jobs.stats.records;

import dev.faultline.graph.stats.AlertRow;
import dev.faultline.jobs.stats.domain.Dimension;
import dev.faultline.schemas.Alert;
import dev.faultline.schemas.AlertKind;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** An emerging-category alert. The {@link #id} names the episode: the same episode always has the same id. */
public class StatAlert {
  public String id;
  public String framework;
  /** {@link Dimension} name. */
  public String dimension;
  public String category;
  /** The stage of a NEW_COMBINATION, else null. */
  public String stage;
  /** {@link AlertKind} name. */
  public String kind;
  public long windowStart;
  public long windowEnd;
  public long count;
  public double baseline;
  public double score;
  public String explanation;
  public long raisedAt;
  public String[] exampleIssueIds = new String[0];
  /** A revision that takes the alert of this id back. */
  public boolean withdrawn;

  public StatAlert() {}

  public AlertRow toRow() {
    return new AlertRow(
        id, framework, Dimension.valueOf(dimension).key(), category, stage, kind, windowStart, windowEnd, count, baseline, score, explanation, raisedAt,
        List.of(exampleIssueIds), withdrawn);
  }

  public Alert toAvro() {
    return Alert.newBuilder()
        .setId(id)
        .setFramework(framework)
        .setDimension(Dimension.valueOf(dimension).toAvro())
        .setCategory(category)
        .setStage(stage)
        .setKind(AlertKind.valueOf(kind))
        .setWindowStart(Instant.ofEpochMilli(windowStart))
        .setWindowEnd(Instant.ofEpochMilli(windowEnd))
        .setCount(count)
        .setBaseline(baseline)
        .setScore(score)
        .setExampleIssueIds(List.of(exampleIssueIds))
        .setExplanation(explanation)
        .setRaisedAt(Instant.ofEpochMilli(raisedAt))
        .setWithdrawn(withdrawn)
        .build();
  }

  @Override
  public String toString() {
    return "StatAlert{" + id + (withdrawn ? " WITHDRAWN" : "") + " count=" + count + " baseline=" + baseline + " score=" + score + " examples=" + Arrays.toString(exampleIssueIds) + "}";
  }
}
