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

  /**
   * Number of categories of the taxonomy in this dimension that the detectors alert on (not {@code UNKNOWN},
   * {@code NONE}, {@code UNREPORTED} or {@code OTHER}).
   */
  public int informativeCategories() {
    if (this == DISTRIBUTED_SPECIFIC) {
      return 2; // TRUE, FALSE
    }
    Enum<?>[] all = switch (this) {
      case SYMPTOM -> dev.faultline.schemas.taxonomy.Symptom.values();
      case SYMPTOM_CLASS -> dev.faultline.schemas.taxonomy.SymptomClass.values();
      case ROOT_CAUSE -> dev.faultline.schemas.taxonomy.RootCause.values();
      case FIX_PATTERN -> dev.faultline.schemas.taxonomy.FixPattern.values();
      case STAGE -> dev.faultline.schemas.taxonomy.Stage.values();
      default -> dev.faultline.schemas.taxonomy.Phase.values();
    };
    int n = 0;
    for (Enum<?> e : all) {
      n += Categories.informative(e.name()) ? 1 : 0;
    }
    return n;
  }

  /** All dimensions in declaration order (no array copy per call). */
  public static Dimension at(int ordinal) {
    return ALL[ordinal];
  }

  public static int count() {
    return ALL.length;
  }
}
