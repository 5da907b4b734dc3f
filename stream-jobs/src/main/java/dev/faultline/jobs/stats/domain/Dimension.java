package dev.faultline.jobs.stats.domain;

import dev.faultline.schemas.StatDimension;

/** The taxonomy dimensions the statistics count over, with the key the graph and the classified record use. */
public enum Dimension {
  SYMPTOM("symptom"),
  SYMPTOM_CLASS("symptomClass"),
  ROOT_CAUSE("rootCause"),
  FIX_PATTERN("fixPattern"),
  STAGE("stage"),
  PHASE("phase"),
  DISTRIBUTED_SPECIFIC("distributedSpecific");

  private static final Dimension[] ALL = values();
  private final String key;

  Dimension(String key) {
    this.key = key;
  }

  /** Lower-camel key: {@code symptom}, {@code symptomClass}, … as in the graph model. */
  public String key() {
    return key;
  }

  /** The Avro enum of the same name. */
  public StatDimension toAvro() {
    return StatDimension.valueOf(name());
  }

  /** All dimensions in declaration order (no array copy per call). */
  public static Dimension at(int ordinal) {
    return ALL[ordinal];
  }

  public static int count() {
    return ALL.length;
  }
}
