package dev.faultline.stats.records;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.domain.Categories;
import java.util.Objects;

/**
 * An issue's classification after a change, as the statistics job carries it between operators (a
 * Flink POJO; the Avro class stops at the source). Categories are taxonomy codes, one field per
 * {@link Dimension}.
 */
public class ClassifiedEvent {
  public String id;
  public String framework;

  /** The framework's own version the issue reports, or null. */
  public String frameworkVersion;

  /** open, closed or deleted. */
  public String state;

  public long createdAt;

  /** Event time of the record. */
  public long updatedAt;

  public String symptom;
  public String symptomClass;
  public String rootCause;
  public String fixPattern;
  public String stage;
  public String phase;

  /** TRUE, FALSE or UNKNOWN. */
  public String distributedSpecific;

  public ClassifiedEvent() {}

  /** Every label as classified, whatever its confidence. */
  public static ClassifiedEvent fromAvro(ClassifiedIssue c) {
    return fromAvro(c, ConfidencePolicy.all());
  }

  /**
   * The labels the statistics count: one below its dimension's bar (and not given by a person)
   * counts as UNKNOWN, as the query library and the dashboard count it.
   */
  public static ClassifiedEvent fromAvro(ClassifiedIssue c, ConfidencePolicy policy) {
    ClassifiedEvent e = fromAvroAsIs(c);
    java.util.Map<String, Double> conf =
        c.getConfidence() == null ? java.util.Map.of() : c.getConfidence();
    java.util.List<String> human =
        c.getHumanGiven() == null ? java.util.List.of() : c.getHumanGiven();
    for (Dimension d : Dimension.LABELLED) {
      if (d != Dimension.KIND && !policy.passes(d, conf.get(d.key()), human.contains(d.key()))) {
        e.unknown(d);
      }
    }
    return e;
  }

  private static ClassifiedEvent fromAvroAsIs(ClassifiedIssue c) {
    ClassifiedEvent e = new ClassifiedEvent();
    e.id = c.getId();
    e.framework = c.getFramework();
    e.frameworkVersion = c.getFrameworkVersion();
    e.state = c.getState();
    e.createdAt = c.getCreatedAt().toEpochMilli();
    e.updatedAt = c.getUpdatedAt().toEpochMilli();
    e.symptom = c.getSymptom().name();
    e.symptomClass = c.getSymptomClass().name();
    e.rootCause = c.getRootCause().name();
    e.fixPattern = c.getFixPattern().name();
    e.stage = c.getStage().name();
    e.phase = c.getPhase().name();
    e.distributedSpecific = Categories.ofFlag(c.getDistributedSpecific());
    return e;
  }

  /** Counts a dimension (with the symptom, its class) as UNKNOWN. */
  private void unknown(Dimension d) {
    switch (d) {
      case SYMPTOM -> {
        symptom = Categories.UNKNOWN;
        symptomClass = Categories.UNKNOWN;
      }
      case ROOT_CAUSE -> rootCause = Categories.UNKNOWN;
      case FIX_PATTERN -> fixPattern = Categories.UNKNOWN;
      case STAGE -> stage = Categories.UNKNOWN;
      case PHASE -> phase = Categories.UNKNOWN;
      case DISTRIBUTED_SPECIFIC -> distributedSpecific = Categories.ofFlag(null);
      default -> throw new IllegalArgumentException("the statistics do not count the " + d.key());
    }
  }

  /**
   * The category of one counted dimension ({@link
   * dev.faultline.stats.domain.StatDimensions#COUNTED}).
   */
  public String category(Dimension d) {
    return switch (d) {
      case SYMPTOM -> symptom;
      case SYMPTOM_CLASS -> symptomClass;
      case ROOT_CAUSE -> rootCause;
      case FIX_PATTERN -> fixPattern;
      case STAGE -> stage;
      case PHASE -> phase;
      case DISTRIBUTED_SPECIFIC -> distributedSpecific;
      case KIND -> throw new IllegalArgumentException("the statistics do not count the kind");
    };
  }

  public boolean deleted() {
    return "deleted".equals(state);
  }

  /** Same classification content (everything the statistics read), whatever the time. */
  public boolean sameContent(ClassifiedEvent o) {
    return Objects.equals(framework, o.framework)
        && Objects.equals(frameworkVersion, o.frameworkVersion)
        && deleted() == o.deleted()
        && createdAt == o.createdAt
        && Objects.equals(symptom, o.symptom)
        && Objects.equals(symptomClass, o.symptomClass)
        && Objects.equals(rootCause, o.rootCause)
        && Objects.equals(fixPattern, o.fixPattern)
        && Objects.equals(stage, o.stage)
        && Objects.equals(phase, o.phase)
        && Objects.equals(distributedSpecific, o.distributedSpecific);
  }

  @Override
  public String toString() {
    return "ClassifiedEvent{"
        + id
        + " @"
        + updatedAt
        + " "
        + framework
        + " "
        + symptom
        + "/"
        + rootCause
        + "/"
        + stage
        + "}";
  }
}
