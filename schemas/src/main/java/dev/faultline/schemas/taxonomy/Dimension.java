package dev.faultline.schemas.taxonomy;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The dimensions a classification has: the one list of them in the project. Each code dimension has
 * its Avro enum in this package (generated from {@code taxonomy.avsc}) and its codes in the
 * taxonomy resource; distributed-specific is a flag ({@code true}, {@code false}, or null for
 * "cannot tell").
 *
 * <p>The names at the boundaries are mapped here, once: {@link #key()} is the name in the graph
 * (node properties such as {@code rootCauseConfidence}), in the classified topic's confidence and
 * evidence maps, in the taxonomy resource and in the JSON API; {@link #field()} is the name in the
 * batch JSON lines format ({@code classify} output, the gold files).
 *
 * <p>A new dimension is added here, with its enum in {@code taxonomy.avsc} and its codes in the
 * taxonomy resource.
 */
public enum Dimension {
  KIND("kind", "kind", Kind.class),
  SYMPTOM("symptom", "symptom", Symptom.class),
  SYMPTOM_CLASS("symptomClass", "symptom_class", SymptomClass.class),
  ROOT_CAUSE("rootCause", "root_cause", RootCause.class),
  FIX_PATTERN("fixPattern", "fix_pattern", FixPattern.class),
  STAGE("stage", "stage", Stage.class),
  PHASE("phase", "phase", Phase.class),
  DISTRIBUTED_SPECIFIC("distributedSpecific", "distributed_specific", null);

  /**
   * The dimensions whose codes the taxonomy resource lists (all but the distributed-specific flag).
   */
  public static final List<Dimension> CODED =
      List.of(KIND, SYMPTOM, SYMPTOM_CLASS, ROOT_CAUSE, FIX_PATTERN, STAGE, PHASE);

  /**
   * The dimensions with a label of their own (code, confidence, evidence, human-given) in the
   * graph, the classified topic and the confidence bars: every dimension but the symptom class,
   * whose label is its symptom's.
   */
  public static final List<Dimension> LABELLED =
      List.of(KIND, SYMPTOM, ROOT_CAUSE, FIX_PATTERN, STAGE, PHASE, DISTRIBUTED_SPECIFIC);

  /**
   * The symbols that name no category: each dimension's "cannot tell" (UNKNOWN) and "does not
   * apply" (NONE).
   */
  private static final Set<Enum<?>> NO_CATEGORY =
      Set.of(
          Kind.UNKNOWN,
          Symptom.NONE,
          Symptom.UNKNOWN,
          SymptomClass.NONE,
          SymptomClass.UNKNOWN,
          RootCause.UNKNOWN,
          FixPattern.UNKNOWN,
          Stage.UNKNOWN,
          Phase.UNKNOWN);

  private final String key;
  private final String field;
  private final Class<? extends Enum<?>> codes;

  Dimension(String key, String field, Class<? extends Enum<?>> codes) {
    this.key = key;
    this.field = field;
    this.codes = codes;
  }

  /**
   * Lower-camel name: in the graph, the topic's confidence/evidence maps, the taxonomy resource,
   * the JSON API.
   */
  public String key() {
    return key;
  }

  /** Snake-case name in the batch JSON lines format ({@code classify} output and gold records). */
  public String field() {
    return field;
  }

  /**
   * Whether the taxonomy resource lists this dimension's codes (every dimension but
   * distributed-specific).
   */
  public boolean coded() {
    return codes != null;
  }

  /** The enum of this dimension's codes; empty for distributed-specific. */
  public Optional<Class<? extends Enum<?>>> codeType() {
    return Optional.ofNullable(codes);
  }

  /**
   * The code symbols of the enum (proper codes, then NONE/UNKNOWN where the enum has them); empty
   * for the flag.
   */
  public List<String> symbols() {
    if (codes == null) {
      return List.of();
    }
    return java.util.Arrays.stream(codes.getEnumConstants()).map(Enum::name).toList();
  }

  /**
   * Whether a code names a category (not UNKNOWN or NONE): the graph draws an edge only to a
   * category.
   */
  public static boolean isCategory(Enum<?> code) {
    return code != null && !NO_CATEGORY.contains(code);
  }

  /** The dimension of a {@link #key()}. */
  public static Optional<Dimension> ofKey(String key) {
    for (Dimension d : values()) {
      if (d.key.equals(key)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /** The dimension of a {@link #field()}. */
  public static Optional<Dimension> ofField(String field) {
    for (Dimension d : values()) {
      if (d.field.equals(field)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }
}
