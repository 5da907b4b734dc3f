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
  KIND("kind", "kind", Kind.class, null, null, null, null),
  SYMPTOM("symptom", "symptom", Symptom.class, "HAS_SYMPTOM", "Symptom", null, "SYMPTOM"),
  SYMPTOM_CLASS(
      "symptomClass",
      "symptom_class",
      SymptomClass.class,
      null,
      "SymptomClass",
      "SYMPTOM",
      "SYMPTOM_CLASS"),
  ROOT_CAUSE(
      "rootCause", "root_cause", RootCause.class, "CAUSED_BY", "RootCause", null, "ROOT_CAUSE"),
  FIX_PATTERN(
      "fixPattern",
      "fix_pattern",
      FixPattern.class,
      "RESOLVED_BY",
      "FixPattern",
      null,
      "FIX_PATTERN"),
  STAGE("stage", "stage", Stage.class, "IN_STAGE", "Stage", null, "STAGE"),
  PHASE("phase", "phase", Phase.class, null, null, null, "PHASE"),
  DISTRIBUTED_SPECIFIC(
      "distributedSpecific",
      "distributed_specific",
      null,
      null,
      null,
      null,
      "DISTRIBUTED_SPECIFIC");

  /**
   * The dimensions whose codes the taxonomy resource lists (all but the distributed-specific flag).
   */
  public static final List<Dimension> CODED =
      java.util.Arrays.stream(values()).filter(d -> d.codes != null).toList();

  /**
   * The dimensions with a label of their own (code, confidence, evidence, human-given) in the
   * graph, the classified topic and the confidence bars: every dimension but the symptom class,
   * whose label is its symptom's.
   */
  public static final List<Dimension> LABELLED =
      java.util.Arrays.stream(values()).filter(d -> d.labelOf == null).toList();

  /**
   * The symbols that name no category, in every dimension that has them: "cannot tell" (UNKNOWN)
   * and "does not apply" (NONE).
   */
  private static final Set<String> NO_CATEGORY = Set.of("UNKNOWN", "NONE");

  /**
   * The order of the dashboard API's dimension list ({@code /api/meta}, the {@code dimension}
   * parameters): the category dimensions in declaration order, then the kind (the filter) and the
   * distributed-specific flag.
   */
  public static final List<Dimension> API_ORDER =
      java.util.stream.Stream.concat(
              java.util.Arrays.stream(values()).filter(d -> d != KIND && d != DISTRIBUTED_SPECIFIC),
              java.util.stream.Stream.of(KIND, DISTRIBUTED_SPECIFIC))
          .toList();

  private static final List<String> FLAG_CODES = List.of("true", "false", "null");

  private final String key;
  private final String field;
  private final Class<? extends Enum<?>> codes;
  private final String edgeType;
  private final String nodeLabel;
  private final String labelOf;
  private final String statSymbol;
  private final List<String> symbols;

  Dimension(
      String key,
      String field,
      Class<? extends Enum<?>> codes,
      String edgeType,
      String nodeLabel,
      String labelOf,
      String statSymbol) {
    this.key = key;
    this.field = field;
    this.codes = codes;
    this.edgeType = edgeType;
    this.nodeLabel = nodeLabel;
    this.labelOf = labelOf;
    this.statSymbol = statSymbol;
    this.symbols =
        codes == null
            ? List.of()
            : java.util.Arrays.stream(codes.getEnumConstants()).map(Enum::name).toList();
  }

  /**
   * The field name in the Avro records ({@code ClassifiedIssue}'s code field, the keys of its
   * confidence/evidence maps and its {@code humanGiven} list): the {@link #key()}.
   */
  public String avroField() {
    return key;
  }

  /**
   * The property of the issue node that holds the code: the {@link #key()}; the confidence is
   * {@link #confidenceProperty()}.
   */
  public String property() {
    return key;
  }

  /** The issue node's confidence property: {@code <key>Confidence}. */
  public String confidenceProperty() {
    return key + "Confidence";
  }

  /** The issue node's evidence property: {@code <key>Evidence}. */
  public String evidenceProperty() {
    return key + "Evidence";
  }

  /**
   * The issue node's probabilities property: {@code <key>Probabilities}, a list aligned with {@link
   * #distributionCodes()} (a query sums it per index for expected counts).
   */
  public String probabilitiesProperty() {
    return key + "Probabilities";
  }

  /**
   * The issue node's calibration property: {@code <key>Calibration}, what the distribution of
   * {@link #probabilitiesProperty()} rests on ({@code cv:<version>}, {@code
   * confusion:<model>/<prompt>}, {@code prior:<epsilon>} or {@code human}); the key of the
   * classified topic's {@code calibration} map.
   */
  public String calibrationProperty() {
    return key + "Calibration";
  }

  /** The issue node's source property: {@code <key>Source}. */
  public String sourceProperty() {
    return key + "Source";
  }

  /**
   * The issue node's label version property: {@code <key>Version}, the version of what gave the
   * label (the classifier version; {@code human} for a label a person gave on GitHub).
   */
  public String versionProperty() {
    return key + "Version";
  }

  /**
   * The issue node's property of when the label was given: {@code <key>LabelledAt}, the time the
   * graph took this code from this version (unchanged while the same version gives the same code).
   */
  public String labelledAtProperty() {
    return key + "LabelledAt";
  }

  /**
   * The issue node's properties keeping the label this one replaced: {@code <key>Previous} (its
   * code), {@code <key>PreviousVersion} and {@code <key>PreviousAt} (when that one was given).
   */
  public String previousProperty() {
    return key + "Previous";
  }

  /** See {@link #previousProperty()}. */
  public String previousVersionProperty() {
    return key + "PreviousVersion";
  }

  /** See {@link #previousProperty()}. */
  public String previousAtProperty() {
    return key + "PreviousAt";
  }

  /**
   * The relationship from an issue to the taxonomy node of its category ({@code HAS_SYMPTOM},
   * {@code CAUSED_BY}, {@code RESOLVED_BY}, {@code IN_STAGE}); empty for a dimension stored as an
   * issue property only (kind, symptom class, phase, distributed-specific).
   */
  public Optional<String> edgeType() {
    return Optional.ofNullable(edgeType);
  }

  /**
   * The label of this dimension's taxonomy nodes (the ones the {@link #edgeType()} points to, and
   * the symptom classes the symptoms are IS_A); empty for a dimension without taxonomy nodes.
   */
  public Optional<String> nodeLabel() {
    return Optional.ofNullable(nodeLabel);
  }

  /** The name of an issue row's edge parameter ({@code <key>Edge}); empty without an edge. */
  public Optional<String> edgeParameter() {
    return edgeType().map(t -> key + "Edge");
  }

  /**
   * The dimension whose label (confidence, evidence, source, human-given) this one shares: the
   * symptom class is its symptom's; every other dimension labels itself.
   */
  public Dimension labelDimension() {
    return labelOf == null ? this : valueOf(labelOf);
  }

  /** Whether this dimension has a label of its own ({@link #LABELLED}). */
  public boolean labelled() {
    return labelOf == null;
  }

  /**
   * The symbol of the statistics topic's {@code StatDimension} enum; empty for a dimension the
   * statistics job does not count (kind: it is the filter, not a category).
   */
  public Optional<String> statSymbol() {
    return Optional.ofNullable(statSymbol);
  }

  /** The dimension of a {@code StatDimension} symbol. */
  public static Optional<Dimension> ofStatSymbol(String symbol) {
    for (Dimension d : values()) {
      if (d.statSymbol != null && d.statSymbol.equals(symbol)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
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
    return symbols;
  }

  /**
   * The codes a probability distribution of this dimension ranges over, in order: the enum's
   * symbols ({@link #symbols()}), for the flag {@code true}, {@code false} and {@code null} (cannot
   * tell). The graph's {@code <key>Probabilities} lists are aligned with it.
   */
  public List<String> distributionCodes() {
    return codes == null ? FLAG_CODES : symbols;
  }

  /** The distribution code of a value: its symbol, {@code "null"} for null. */
  public static String codeOf(Object value) {
    return String.valueOf(symbol(value));
  }

  /** Whether a value is one of this dimension's codes (a Boolean for the flag). */
  public boolean accepts(Object value) {
    return codes == null ? value instanceof Boolean : codes.isInstance(value);
  }

  /**
   * The code of a symbol: the enum constant, or for the flag {@code true}/{@code false} and null
   * for {@code null} (cannot tell).
   *
   * @throws IllegalArgumentException for a symbol the dimension does not have
   */
  public Object parse(String symbol) {
    if (codes == null) {
      return switch (symbol) {
        case "true" -> Boolean.TRUE;
        case "false" -> Boolean.FALSE;
        case "null" -> null;
        default -> throw new IllegalArgumentException("no " + key + " value '" + symbol + "'");
      };
    }
    for (Enum<?> c : codes.getEnumConstants()) {
      if (c.name().equals(symbol)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no " + key + " code '" + symbol + "'");
  }

  /**
   * The symbol of a code (the enum constant's name; for the flag the Boolean itself), null for
   * null: what the graph stores.
   */
  public static Object symbol(Object code) {
    return code instanceof Enum<?> e ? e.name() : code;
  }

  /**
   * Whether a code names a category (not UNKNOWN or NONE): the graph draws an edge only to a
   * category.
   */
  public static boolean isCategory(Enum<?> code) {
    if (code == null || NO_CATEGORY.contains(code.name())) {
      return false;
    }
    for (Dimension d : values()) {
      if (d.codes == code.getDeclaringClass()) {
        return true;
      }
    }
    return false;
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
