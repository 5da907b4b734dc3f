package dev.faultline.classifier.learned;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One dimension the learned layer answers: every {@link Dimension#LABELLED} dimension, with the
 * gold field that names it in the batch format and the codes it may answer. Distributed-specific
 * answers {@code true}, {@code false} or {@code null} (cannot tell). Targets order as their
 * dimensions; maps keyed by them are {@link TreeMap}s, iterated in that order.
 */
public final class Target implements Comparable<Target> {

  private static final List<Target> ALL = Dimension.LABELLED.stream().map(Target::new).toList();

  /** The kind: it always answers, and gates the symptom (only a bug report has one). */
  public static final Target KIND = of(Dimension.KIND);

  /** The symptom: NONE unless the kind is BUG. */
  public static final Target SYMPTOM = of(Dimension.SYMPTOM);

  /** The root cause: a linked merged fix may lend it. */
  public static final Target ROOT_CAUSE = of(Dimension.ROOT_CAUSE);

  /** The fix pattern: a linked merged fix may lend it. */
  public static final Target FIX_PATTERN = of(Dimension.FIX_PATTERN);

  /** The dimension this target answers. */
  public final Dimension dimension;

  /**
   * Field of the gold record and of {@code classify} output: the dimension's {@link
   * Dimension#field()}.
   */
  public final String field;

  /** Every code this dimension may answer. */
  public final List<String> codes;

  /** The answer when the model is not sure enough; null: this dimension always answers. */
  public final String abstain;

  private Target(Dimension dimension) {
    this.dimension = dimension;
    this.field = dimension.field();
    if (!dimension.coded()) {
      this.codes = List.of("true", "false", "null");
      this.abstain = "null";
    } else if (dimension == Dimension.KIND) {
      this.codes = dimension.symbols().stream().filter(s -> !s.equals("UNKNOWN")).toList();
      this.abstain = null;
    } else {
      this.codes = dimension.symbols();
      this.abstain = "UNKNOWN";
    }
  }

  /** Every target, in {@link Dimension} order. */
  public static List<Target> values() {
    return ALL;
  }

  /** The target of a dimension. */
  public static Target of(Dimension dimension) {
    for (Target t : ALL) {
      if (t.dimension == dimension) {
        return t;
      }
    }
    throw new IllegalArgumentException("no learned target for " + dimension);
  }

  /** The name in the artefact ({@link dev.faultline.artefact.LearnedArtefact#artefactName}). */
  public String name() {
    return dev.faultline.artefact.LearnedArtefact.artefactName(dimension);
  }

  /**
   * The dimension's name in the rules' features ({@code rule.<name>=<code>}): its {@link
   * Dimension#key()}, {@code distributed} for distributed-specific (the artefact's feature names).
   */
  public String featureName() {
    return dimension == Dimension.DISTRIBUTED_SPECIFIC ? "distributed" : dimension.key();
  }

  /** The target of an artefact {@link #name()}. */
  public static Target valueOf(String name) {
    return ALL.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no learned target named " + name));
  }

  /** An empty map keyed by targets, iterated in target order. */
  public static <V> Map<Target, V> map() {
    return new TreeMap<>();
  }

  /** The position of the target in {@link #values()}. */
  public int ordinal() {
    return ALL.indexOf(this);
  }

  @Override
  public int compareTo(Target o) {
    return dimension.compareTo(o.dimension);
  }

  @Override
  public String toString() {
    return name();
  }

  /** The dimension of a gold field name. */
  public static Target ofField(String field) {
    return Stream.of(values().toArray(Target[]::new))
        .filter(t -> t.field.equals(field))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no learned dimension named " + field));
  }
}
