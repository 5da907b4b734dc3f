package dev.faultline.schemas.taxonomy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The versioned defect taxonomy, read from the one resource {@value #RESOURCE}. Immutable; every
 * category enum of the project (Java and Avro) is checked against it, and the graph's taxonomy
 * nodes are seeded from it.
 *
 * @param version the taxonomy version, e.g. {@code taxonomy-v1}; changing the taxonomy changes this
 * @param dimensions every dimension with its codes, in resource order
 * @param stageHints per stage code, words that point at that stage
 * @param distributedHints words that point at a defect that could not occur on a single device
 * @param decisionRules the codebook's decision rules for hard cases, as prose
 */
public record Taxonomy(
    String version,
    Map<Dimension, DimensionCodes> dimensions,
    Map<String, List<String>> stageHints,
    List<String> distributedHints,
    List<String> decisionRules) {

  /** Classpath location of the current taxonomy resource. */
  public static final String RESOURCE = "/dev/faultline/taxonomy/taxonomy-v1.json";

  public Taxonomy {
    Objects.requireNonNull(version, "version");
    dimensions = Map.copyOf(new EnumMap<>(dimensions));
    stageHints = copyOrdered(stageHints);
    distributedHints = List.copyOf(distributedHints);
    decisionRules = List.copyOf(decisionRules);
  }

  /**
   * One code of a dimension.
   *
   * @param code the enum symbol, e.g. {@code OUT_OF_MEMORY}
   * @param name a human-readable name
   * @param definition what the code covers
   * @param symptomClass for symptoms: the top-level symptom class code; otherwise null
   * @param group for root causes: general or distributed-specific; otherwise null
   * @param distributedSpecific for symptoms: the codebook's "distributed-specific?" column;
   *     otherwise null
   */
  public record Code(
      String code,
      String name,
      String definition,
      String symptomClass,
      RootCauseGroup group,
      String distributedSpecific) {}

  /**
   * One dimension: its proper codes plus the special symbols for "not applicable" and "cannot
   * tell".
   *
   * @param dimension which dimension
   * @param description what it classifies
   * @param codes the proper codes, in resource order
   * @param none the symbol for "does not apply" (e.g. symptom of a question), or null if the
   *     dimension has none
   * @param unknown the symbol for "the text does not tell"
   */
  public record DimensionCodes(
      Dimension dimension, String description, List<Code> codes, String none, String unknown) {
    public DimensionCodes {
      codes = List.copyOf(codes);
    }

    /** The proper codes followed by the none and unknown symbols, as the enums list them. */
    public List<String> allSymbols() {
      List<String> all = new ArrayList<>();
      codes.forEach(c -> all.add(c.code()));
      if (none != null) {
        all.add(none);
      }
      if (unknown != null) {
        all.add(unknown);
      }
      return List.copyOf(all);
    }

    /** The code entry, if this dimension has it as a proper code. */
    public Optional<Code> code(String symbol) {
      return codes.stream().filter(c -> c.code().equals(symbol)).findFirst();
    }
  }

  /** Reads {@value #RESOURCE} from the classpath. */
  public static Taxonomy load() {
    return load(RESOURCE);
  }

  /**
   * Reads a taxonomy resource from the classpath; fails with the resource name if it is missing or
   * malformed.
   */
  public static Taxonomy load(String resource) {
    try (InputStream in = Taxonomy.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "taxonomy resource " + resource + " not found on the classpath");
      }
      return parse(new ObjectMapper().readTree(in), resource);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read taxonomy resource " + resource, e);
    }
  }

  private static Taxonomy parse(JsonNode root, String resource) {
    String version = required(root, "version", resource).asText();
    JsonNode dims = required(root, "dimensions", resource);
    Map<Dimension, DimensionCodes> dimensions = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.CODED) {
      JsonNode node = required(dims, d.key(), resource + " dimensions");
      List<Code> codes = new ArrayList<>();
      for (JsonNode c : required(node, "codes", resource + " " + d.key())) {
        codes.add(
            new Code(
                required(c, "code", resource + " " + d.key()).asText(),
                text(c, "name"),
                text(c, "definition"),
                text(c, "symptomClass"),
                c.hasNonNull("group") ? RootCauseGroup.valueOf(c.get("group").asText()) : null,
                text(c, "distributedSpecific")));
      }
      dimensions.put(
          d,
          new DimensionCodes(
              d, text(node, "description"), codes, text(node, "none"), text(node, "unknown")));
    }
    Map<String, List<String>> stageHints = new LinkedHashMap<>();
    JsonNode hints = root.path("stageHints");
    for (Iterator<Map.Entry<String, JsonNode>> it = hints.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      stageHints.put(e.getKey(), strings(e.getValue()));
    }
    return new Taxonomy(
        version,
        dimensions,
        stageHints,
        strings(root.path("distributedHints")),
        strings(root.path("decisionRules")));
  }

  private static JsonNode required(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalStateException(
          "taxonomy " + where + ": field '" + field + "' is missing; add it");
    }
    return v;
  }

  private static String text(JsonNode node, String field) {
    return node.hasNonNull(field) ? node.get(field).asText() : null;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static Map<String, List<String>> copyOrdered(Map<String, List<String>> in) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    in.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return java.util.Collections.unmodifiableMap(out);
  }

  /** The dimension's entry. */
  public DimensionCodes dimension(Dimension d) {
    return dimensions.get(d);
  }

  /** The proper codes of a dimension (without NONE/UNKNOWN), in resource order. */
  public List<String> codes(Dimension d) {
    return dimensions.get(d).codes().stream().map(Code::code).toList();
  }

  /**
   * The top-level symptom class of a sub-symptom code, e.g. {@code HANG -> HANG}, {@code
   * OUT_OF_MEMORY -> CRASH}.
   */
  public Optional<String> symptomClassOf(String symptom) {
    return dimension(Dimension.SYMPTOM).code(symptom).map(Code::symptomClass);
  }

  /** Whether a root cause is general or distributed-specific. */
  public Optional<RootCauseGroup> rootCauseGroup(String rootCause) {
    return dimension(Dimension.ROOT_CAUSE).code(rootCause).map(Code::group);
  }

  /** The definition of a code, if the dimension has it. */
  public Optional<String> definition(Dimension d, String code) {
    return dimension(d).code(code).map(Code::definition);
  }
}
