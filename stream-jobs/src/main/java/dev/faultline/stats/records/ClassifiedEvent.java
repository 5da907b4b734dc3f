package dev.faultline.stats.records;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.Categories;
import java.util.Objects;

/**
 * An issue's classification after a change, as the statistics job carries it between operators (a
 * Flink POJO; the Avro class stops at the source). Categories are taxonomy codes, one slot per
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

  /**
   * The category of each dimension, indexed by {@link Dimension#ordinal()}: a taxonomy code, for
   * distributed-specific TRUE, FALSE or UNKNOWN; the kind's slot is unused (the statistics count
   * bug reports). An array, so Flink serialises it as a basic array, not through Kryo.
   */
  public String[] categories = new String[Dimension.values().length];

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
    for (Dimension d : Dimension.values()) {
      if (d.statSymbol().isPresent()) {
        Object code = c.get(d.avroField());
        e.categories[d.ordinal()] =
            d.coded() ? ((Enum<?>) code).name() : Categories.ofFlag((Boolean) code);
      }
    }
    return e;
  }

  /**
   * Counts a dimension as UNKNOWN, and every dimension that shares its label (the symptom's class).
   */
  private void unknown(Dimension d) {
    for (Dimension shared : Dimension.values()) {
      if (shared.labelDimension() == d && shared.statSymbol().isPresent()) {
        categories[shared.ordinal()] =
            shared.coded() ? Categories.UNKNOWN : Categories.ofFlag(null);
      }
    }
  }

  /**
   * The category of one counted dimension ({@link
   * dev.faultline.stats.keys.StatDimensions#COUNTED}).
   */
  public String category(Dimension d) {
    if (d.statSymbol().isEmpty()) {
      throw new IllegalArgumentException("the statistics do not count the " + d.key());
    }
    return categories[d.ordinal()];
  }

  /** Sets the category of one counted dimension. */
  public ClassifiedEvent category(Dimension d, String category) {
    if (d.statSymbol().isEmpty()) {
      throw new IllegalArgumentException("the statistics do not count the " + d.key());
    }
    categories[d.ordinal()] = category;
    return this;
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
        && java.util.Arrays.equals(categories, o.categories);
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
        + java.util.Arrays.toString(categories)
        + "}";
  }
}
