package dev.faultline.graph.query;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A named, parameterised Cypher query read from a {@code .cypher} resource whose leading {@code //}
 * comment lines form its header:
 *
 * <pre>
 * // @name new-bugs-per-release
 * // @description Bugs filed against each release, per framework.
 * // @description (a second line continues the description)
 * // @param framework String = null  -- framework name; null = all
 * // @param bucket String(week|month) = month  -- period length
 * // @param issue String  -- required: no default
 * // @column framework String  -- the framework
 * </pre>
 *
 * <p>An estimated query adds {@code // @estimator name} and the estimator's {@code // @estimate key
 * value} lines (see {@link ScopeEstimator}).
 *
 * <p>The header ends at the first line that is not a {@code //} comment; the whole text, header
 * included, is the statement sent to Neo4j (Cypher ignores the comments).
 *
 * <p>Statements spell no dimension's property names: the library supplies them, undeclared, from
 * {@link Dimension} alone ({@link #names(Dimension)}: {@code key, edgeType, flag, property,
 * confidenceProperty, probabilitiesProperty, evidenceProperty}, and of its label, the symptom
 * class's being its symptom's: {@code labelled, labelKey, sourceProperty, versionProperty,
 * labelledAtProperty}). {@code $allDimensions} lists every dimension in declaration order, so a
 * query that shows every dimension loops over it instead of listing them; {@code $dimensions} maps
 * each key to the same names, so a query of one dimension reads {@code
 * i[$dimensions[$dimension].probabilitiesProperty]} or {@code $dimensions[$dimension].labelKey}.
 *
 * @param name kebab-case query name
 * @param description what the query answers
 * @param parameters declared parameters, in header order
 * @param columns declared result columns, in result order
 * @param cypher the statement
 * @param estimator the name of the {@link ScopeEstimator} that turns
 *     the statement's rows (one per item of the scope) into the declared columns ({@code //
 *     @estimator name} in the header), or null when the statement returns the columns itself
 * @param estimatorOptions what the header tells the estimator, {@code // @estimate key value} lines
 *     in order (a value {@code $name} stands for the bound parameter of that name); the estimator
 *     checks them when the library loads
 */
public record QueryDefinition(
    String name,
    String description,
    List<QueryParameter> parameters,
    List<QueryColumn> columns,
    String cypher,
    String estimator,
    Map<String, String> estimatorOptions) {

  /** The library-supplied parameter listing every dimension. */
  public static final String ALL_DIMENSIONS = "allDimensions";

  /** The library-supplied parameter of every dimension's graph names, by key. */
  public static final String DIMENSIONS = "dimensions";

  private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
  private static final Pattern PARAM =
      Pattern.compile(
          "(?<name>[A-Za-z_][A-Za-z0-9_]*)\\s+(?<type>[A-Za-z]+)(\\((?<allowed>[^)]*)\\))?"
              + "(\\s*=\\s*(?<default>\\S+))?\\s*(--\\s*(?<description>.*))?");
  private static final Pattern COLUMN =
      Pattern.compile(
          "(?<name>[A-Za-z_][A-Za-z0-9_]*)(\\s+(?<type>[^\\s-][^\\s]*))?\\s*(--\\s*(?<description>.*))?");

  public QueryDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cypher, "cypher");
    description = description == null ? "" : description;
    parameters = List.copyOf(parameters);
    columns = List.copyOf(columns);
    estimatorOptions =
        estimatorOptions == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(
                new java.util.LinkedHashMap<>(estimatorOptions));
  }

  /** A query whose statement returns its declared columns itself. */
  public QueryDefinition(
      String name,
      String description,
      List<QueryParameter> parameters,
      List<QueryColumn> columns,
      String cypher) {
    this(name, description, parameters, columns, cypher, null, Map.of());
  }

  /**
   * Parses a query file.
   *
   * @param source where the text came from, for error messages
   * @throws IllegalArgumentException naming the source and the line when the header is malformed
   */
  public static QueryDefinition parse(String source, String text) {
    Header h = new Header();
    int lineNumber = 0;
    for (String line : text.split("\\R")) {
      lineNumber++;
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (!trimmed.startsWith("//")) {
        break;
      }
      String comment = trimmed.substring(2).strip();
      if (!comment.startsWith("@")) {
        continue;
      }
      int space = comment.indexOf(' ');
      String tag = space < 0 ? comment : comment.substring(0, space);
      String rest = space < 0 ? "" : comment.substring(space + 1).strip();
      h.tag(source + " line " + lineNumber, tag, rest);
    }
    if (h.name == null) {
      throw new IllegalArgumentException(source + ": the header has no '// @name query-name' line");
    }
    if (h.columns.isEmpty()) {
      throw new IllegalArgumentException(source + ": the header declares no '// @column' lines");
    }
    if (h.estimator == null && !h.options.isEmpty()) {
      throw new IllegalArgumentException(source + ": '@estimate' lines without an '@estimator'");
    }
    return new QueryDefinition(
        h.name,
        h.description.toString(),
        h.parameters,
        h.columns,
        Fragments.expand(source, text),
        h.estimator,
        h.options);
  }

  /** A header as read so far, one tag at a time. */
  private static final class Header {
    String name;
    final StringBuilder description = new StringBuilder();
    final List<QueryParameter> parameters = new ArrayList<>();
    final List<QueryColumn> columns = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    String estimator;
    final Map<String, String> options = new java.util.LinkedHashMap<>();

    void tag(String where, String tag, String rest) {
      switch (tag) {
        case "@name" -> name = kebab(where, "query name", rest);
        case "@estimator" -> estimator = kebab(where, "estimator name", rest);
        case "@estimate" -> {
          String[] kv = rest.split("\\s+", 2);
          if (kv.length < 2 || kv[0].isEmpty() || options.put(kv[0], kv[1].strip()) != null) {
            throw new IllegalArgumentException(
                where + ": expected '@estimate key value', each key once, got '" + rest + "'");
          }
        }
        case "@description" -> description.append(description.isEmpty() ? "" : " ").append(rest);
        case "@param" -> {
          QueryParameter parameter = parseParameter(where, rest);
          if (!seen.add(parameter.name())) {
            throw new IllegalArgumentException(
                where + ": parameter '" + parameter.name() + "' declared twice");
          }
          parameters.add(parameter);
        }
        case "@column" -> {
          Matcher m = COLUMN.matcher(rest);
          if (!m.matches()) {
            throw new IllegalArgumentException(
                where + ": expected '@column name Type -- description'");
          }
          columns.add(
              new QueryColumn(m.group("name"), m.group("type"), strip(m.group("description"))));
        }
        default ->
            throw new IllegalArgumentException(
                where
                    + ": unknown tag "
                    + tag
                    + ": use @name, @description, @param, @column, @estimator or @estimate");
      }
    }

    private static String kebab(String where, String what, String value) {
      if (!NAME.matcher(value).matches()) {
        throw new IllegalArgumentException(
            where + ": " + what + " '" + value + "' must be kebab-case");
      }
      return value;
    }
  }

  private static QueryParameter parseParameter(String where, String text) {
    Matcher m = PARAM.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          where
              + ": expected '@param name Type[(a|b)] [= default] [-- description]', got '"
              + text
              + "'");
    }
    QueryParameter.Type type;
    try {
      type = QueryParameter.Type.fromHeader(m.group("type"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
    List<String> allowed =
        m.group("allowed") == null
            ? List.of()
            : List.of(m.group("allowed").strip().split("\\s*\\|\\s*"));
    if (type == QueryParameter.Type.DIMENSION) {
      try {
        allowed = QueryParameter.dimensions(allowed);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    String defaultText = m.group("default");
    QueryParameter declared =
        new QueryParameter(
            m.group("name"),
            type,
            allowed,
            defaultText == null,
            null,
            strip(m.group("description")));
    if (defaultText == null) {
      return declared;
    }
    try {
      Object value = declared.convert(defaultText);
      return new QueryParameter(
          declared.name(), type, allowed, false, value, declared.description());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": bad default: " + e.getMessage(), e);
    }
  }

  private static String strip(String s) {
    return s == null ? "" : s.strip();
  }

  /** The declared parameter of that name. */
  public Optional<QueryParameter> parameter(String parameterName) {
    return parameters.stream().filter(p -> p.name().equals(parameterName)).findFirst();
  }

  /** The declared column names, in order. */
  public List<String> columnNames() {
    return columns.stream().map(QueryColumn::name).toList();
  }

  /**
   * The Cypher parameter map for values given as text: each declared parameter converted, or its
   * default when not given. Every declared parameter is present in the result (Cypher needs {@code
   * $x} bound even when null).
   *
   * @throws IllegalArgumentException for an undeclared parameter, a missing required one or a bad
   *     value
   */
  public Map<String, Object> bind(Map<String, String> values) {
    return bind(values, ConfidencePolicy.calibrated());
  }

  /**
   * As {@link #bind(Map)}, with {@code confidence} as the default of {@link
   * QueryParameter.Type#CONFIDENCE} parameters (declared {@code = default}) and what the value
   * {@code default} means.
   */
  public Map<String, Object> bind(Map<String, String> values, ConfidencePolicy confidence) {
    for (String given : values.keySet()) {
      if (parameter(given).isEmpty()) {
        throw new IllegalArgumentException(
            "query '"
                + name
                + "' has no parameter '"
                + given
                + "': its parameters are "
                + (parameters.isEmpty()
                    ? "none"
                    : String.join(", ", parameters.stream().map(QueryParameter::name).toList())));
      }
    }
    Map<String, Object> bound = new HashMap<>();
    for (QueryParameter p : parameters) {
      Object value =
          values.containsKey(p.name())
              ? p.convert(values.get(p.name()), confidence)
              : p.type() == QueryParameter.Type.CONFIDENCE && !p.required()
                  ? confidence.toParameter()
                  : p.defaultValue();
      if (value == null && p.required()) {
        throw new IllegalArgumentException(
            "query '"
                + name
                + "' needs parameter '"
                + p.name()
                + "' ("
                + p.typeText()
                + "): pass --param "
                + p.name()
                + "=VALUE");
      }
      bound.put(p.name(), value);
    }
    if (cypher.contains("$" + ALL_DIMENSIONS)) {
      bound.put(ALL_DIMENSIONS, allDimensions());
    }
    if (cypher.contains("$" + DIMENSIONS)) {
      bound.put(DIMENSIONS, dimensions());
    }
    return bound;
  }

  /**
   * The value of {@code $allDimensions}: every dimension's {@link #names}, in declaration order.
   */
  static List<Map<String, Object>> allDimensions() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Dimension d : Dimension.values()) {
      out.add(names(d));
    }
    return out;
  }

  /** The value of {@code $dimensions}: every dimension's {@link #names}, by key. */
  static Map<String, Map<String, Object>> dimensions() {
    Map<String, Map<String, Object>> out = new HashMap<>();
    for (Dimension d : Dimension.values()) {
      out.put(d.key(), names(d));
    }
    return out;
  }

  /**
   * What a statement may read of one dimension: its key, edge type (null without an edge), flag
   * (true for the uncoded distributed-specific), the properties holding its code, confidence and
   * probabilities, and its label's: whether it has one of its own, the key of the dimension whose
   * label it shares (the symptom class's is its symptom's) and that label's provenance properties.
   */
  static Map<String, Object> names(Dimension d) {
    Map<String, Object> m = new HashMap<>();
    m.put("key", d.key());
    m.put("edgeType", d.edgeType().orElse(null));
    m.put("flag", !d.coded());
    m.put("property", d.property());
    m.put("confidenceProperty", d.confidenceProperty());
    m.put("probabilitiesProperty", d.probabilitiesProperty());
    m.put("evidenceProperty", d.evidenceProperty());
    m.put("calibrationProperty", d.calibrationProperty());
    Dimension label = d.labelDimension();
    m.put("labelled", d.labelled());
    m.put("labelKey", label.key());
    m.put("sourceProperty", label.sourceProperty());
    m.put("versionProperty", label.versionProperty());
    m.put("labelledAtProperty", label.labelledAtProperty());
    return m;
  }
}
