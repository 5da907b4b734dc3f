package dev.faultline.stats.records;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.Categories;
import dev.faultline.stats.keys.StatDimensions;
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

  /**
   * Each counted dimension's distribution over its codes ({@link Dimension#distributionCodes()}),
   * indexed by {@link Dimension#ordinal()}, as the record carries it (every label's calibrated
   * probabilities; a person's or a language model's label a point mass); null where the record has
   * none (records written before distributions were kept): then a point mass on its category.
   */
  public double[][] probabilities = new double[Dimension.values().length][];

  /**
   * The probability that the issue is a bug report: the kind's distribution, else 1 or 0 by its
   * kind label; 1 when the record says nothing of its kind.
   */
  public double bug = 1.0;

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
    java.util.Map<String, java.util.Map<String, Double>> p =
        c.getProbabilities() == null ? java.util.Map.of() : c.getProbabilities();
    for (Dimension d : Dimension.values()) {
      if (d.statSymbol().isPresent()) {
        Object code = c.get(d.avroField());
        e.categories[d.ordinal()] =
            d.coded() ? ((Enum<?>) code).name() : Categories.ofFlag((Boolean) code);
        e.probabilities[d.ordinal()] = aligned(d, p.get(d.key()));
      }
    }
    java.util.Map<String, Double> kind = p.get(Dimension.KIND.key());
    e.bug =
        kind != null && !kind.isEmpty()
            ? kind.getOrDefault("BUG", 0.0)
            : "BUG".equals(String.valueOf(c.getKind())) ? 1.0 : 0.0;
    return e;
  }

  /** A record's distribution of one dimension in the order of its codes; null when it has none. */
  private static double[] aligned(Dimension d, java.util.Map<String, Double> byCode) {
    if (byCode == null || byCode.isEmpty()) {
      return null;
    }
    java.util.List<String> codes = d.distributionCodes();
    double[] out = new double[codes.size()];
    double sum = 0;
    for (int k = 0; k < out.length; k++) {
      Double v = byCode.get(codes.get(k));
      out[k] = v == null || !(v > 0) ? 0 : v;
      sum += out[k];
    }
    return sum > 0 ? out : null;
  }

  /**
   * The issue's probability of being a bug report of each code of a counted dimension, in the order
   * of {@link Dimension#distributionCodes()}, as the estimate module's item model reads it: a
   * dimension the codebook gives bug reports only ({@link StatDimensions#onlyForBugs}) already
   * holds P(bug and code) (its NONE the rest); for stage and phase P(code) × P(bug). The stored
   * distribution is renormalised (it is rounded); without one, a point mass on the category.
   */
  public double[] bugProbabilities(Dimension d) {
    java.util.List<String> codes = d.distributionCodes();
    double[] q = new double[codes.size()];
    double[] p = probabilities == null ? null : probabilities[d.ordinal()];
    if (p != null && p.length == q.length) {
      double sum = java.util.Arrays.stream(p).sum();
      for (int k = 0; k < q.length; k++) {
        q[k] = p[k] / sum;
      }
    } else {
      int k = codes.indexOf(Categories.distributionCode(d, category(d)));
      if (k >= 0) {
        q[k] = 1;
      }
    }
    if (!StatDimensions.onlyForBugs(d)) {
      for (int k = 0; k < q.length; k++) {
        q[k] *= bug;
      }
    }
    return q;
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
        && java.util.Arrays.equals(categories, o.categories)
        && java.util.Arrays.deepEquals(probabilities, o.probabilities)
        && bug == o.bug;
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
