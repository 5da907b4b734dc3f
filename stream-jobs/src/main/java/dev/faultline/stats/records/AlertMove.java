package dev.faultline.stats.records;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.StatDimensions;
import java.time.Instant;

/**
 * One dimension/category an event moved: a member of a grouped alert ({@link StatAlert#moved}),
 * with its own figures.
 */
public class AlertMove {
  public Dimension dimension;
  public String category;

  /** The stage of a NEW_COMBINATION, else null. */
  public String stage;

  public AlertKind kind;
  public long windowStart;
  public long windowEnd;
  public long count;

  /** The expected count its alert states. */
  public double expected;

  public long baselineCount;
  public long baselineStart;
  public long baselineEnd;
  public double pValue = 1.0;
  public double adjustedPValue = 1.0;

  /** The statistic its test decided on ({@link StatAlert#statistic}). */
  public double statistic;

  /** The member's own first sentence. */
  public String summary;

  public AlertMove() {}

  /** The member's figures. */
  public static AlertMove of(StatAlert a, String summary) {
    AlertMove m = new AlertMove();
    m.dimension = a.dimension;
    m.category = a.category;
    m.stage = a.stage;
    m.kind = a.kind;
    m.windowStart = a.windowStart;
    m.windowEnd = a.windowEnd;
    m.count = a.count;
    m.expected = a.baseline;
    m.baselineCount = a.baselineCount;
    m.baselineStart = a.baselineStart;
    m.baselineEnd = a.baselineEnd;
    m.pValue = a.pValue;
    m.adjustedPValue = a.adjustedPValue;
    m.statistic = a.statistic;
    m.summary = summary;
    return m;
  }

  public dev.faultline.schemas.AlertMove toAvro() {
    return dev.faultline.schemas.AlertMove.newBuilder()
        .setDimension(StatDimensions.toAvro(dimension))
        .setCategory(category)
        .setStage(stage)
        .setKind(kind)
        .setWindowStart(Instant.ofEpochMilli(windowStart))
        .setWindowEnd(Instant.ofEpochMilli(windowEnd))
        .setCount(count)
        .setExpected(expected)
        .setBaselineCount(baselineCount)
        .setBaselineStart(Instant.ofEpochMilli(baselineStart))
        .setBaselineEnd(Instant.ofEpochMilli(baselineEnd))
        .setPValue(pValue)
        .setAdjustedPValue(adjustedPValue)
        .setSummary(summary)
        .build();
  }
}
