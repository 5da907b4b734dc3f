package dev.faultline.graph.query;

import dev.faultline.graph.ConfidencePolicy;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One parameter of a named query, as its header declares it:
 *
 * <pre>// @param name Type[(a|b|c)] [= default] [-- description]</pre>
 *
 * <p>No {@code = default} makes the parameter required; {@code = null} makes it optional with no
 * value (the query treats null as "no filter"). A list of allowed values in parentheses is a
 * whitelist checked before the query runs.
 *
 * @param name the Cypher parameter name, without {@code $}
 * @param type how a string value is converted
 * @param allowedValues the whitelist, empty when any value of the type is accepted
 * @param required whether a value must be given (no default declared)
 * @param defaultValue the converted default, {@code null} when none or {@code = null}
 * @param description what the parameter does
 */
public record QueryParameter(
    String name,
    Type type,
    List<String> allowedValues,
    boolean required,
    Object defaultValue,
    String description) {

  /** The value types a query parameter can have, with their conversion from text. */
  public enum Type {
    /** Text as given. */
    STRING("String"),
    /** A whole number, passed to Cypher as an INTEGER (Java {@code Long}). */
    INTEGER("Integer"),
    /** A decimal number, passed as a FLOAT (Java {@code Double}). */
    FLOAT("Float"),
    /** {@code true} or {@code false}. */
    BOOLEAN("Boolean"),
    /**
     * An instant, passed as a Cypher DATETIME: {@code 2024-05-01} (midnight UTC), {@code
     * 2024-05-01T12:00:00} (UTC) or with an offset, {@code 2024-05-01T12:00:00+02:00}.
     */
    DATETIME("DateTime"),
    /**
     * How sure a counted label must be ({@link ConfidencePolicy#parse}): a number from 0 to 1 for
     * every dimension ({@code 0} = every label), {@code all}, {@code calibrated} (the per-dimension
     * bars for 90% precision) or {@code default} (the library's default policy). Passed to Cypher
     * as a map dimension name to bar, e.g. {@code $minConfidence.symptom}; {@code null} leaves
     * every label in, as a bar of 0 does.
     */
    CONFIDENCE("Confidence"),
    /**
     * A taxonomy dimension by its key ({@code symptom}, {@code rootCause}, …), checked against
     * {@link dev.faultline.schemas.taxonomy.Dimension}: every dimension, or those the header's
     * filter keeps ({@code Dimension(taxonomy)}: the dimensions with taxonomy nodes; {@code
     * Dimension(-kind|-phase)}: every dimension but those). A string in Cypher, for dynamic
     * property access such as {@code i[$dimension]}.
     */
    DIMENSION("Dimension"),
    /**
     * A vector of numbers, e.g. a text vector of the encoder: comma-separated, optionally in
     * brackets ({@code [0.1, -0.2, 0.3]}), passed as a LIST&lt;FLOAT&gt; (Java {@code
     * List<Double>}).
     */
    VECTOR("Vector");

    private final String headerName;

    Type(String headerName) {
      this.headerName = headerName;
    }

    /** The spelling in query headers. */
    public String headerName() {
      return headerName;
    }

    static Type fromHeader(String text) {
      for (Type t : values()) {
        if (t.headerName.equalsIgnoreCase(text)) {
          return t;
        }
      }
      throw new IllegalArgumentException(
          "unknown parameter type '"
              + text
              + "': use one of String, Integer, Float, Boolean, DateTime, Confidence, Dimension,"
              + " Vector");
    }
  }

  public QueryParameter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    allowedValues = allowedValues == null ? List.of() : List.copyOf(allowedValues);
    description = description == null ? "" : description;
  }

  /**
   * Converts a value given as text to this parameter's type and checks the whitelist; {@code null}
   * or the literal {@code null} gives {@code null}.
   *
   * @throws IllegalArgumentException naming the parameter, the bad value and what is expected
   */
  public Object convert(String raw) {
    return convert(raw, ConfidencePolicy.calibrated());
  }

  /**
   * As {@link #convert(String)}, with {@code defaultPolicy} as what {@code default} means for a
   * {@link Type#CONFIDENCE} parameter.
   */
  public Object convert(String raw, ConfidencePolicy defaultPolicy) {
    if (raw == null || raw.equals("null")) {
      return null;
    }
    String text = raw.strip();
    if (!allowedValues.isEmpty() && !allowedValues.contains(text)) {
      throw new IllegalArgumentException(
          "parameter '"
              + name
              + "' is '"
              + text
              + "': use one of "
              + String.join(", ", allowedValues));
    }
    try {
      return switch (type) {
        case STRING, DIMENSION -> text;
        case INTEGER -> Long.parseLong(text);
        case FLOAT -> Double.parseDouble(text);
        case BOOLEAN -> parseBoolean(text);
        case DATETIME -> parseDateTime(text);
        case CONFIDENCE -> parseConfidence(text, defaultPolicy);
        case VECTOR -> parseVector(text);
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "parameter '" + name + "' is '" + text + "', not " + expected(), e);
    }
  }

  /**
   * The dimension keys a {@link Type#DIMENSION} header admits, in the API's order ({@link
   * dev.faultline.schemas.taxonomy.Dimension#API_ORDER}).
   *
   * @param filters {@code taxonomy} keeps the dimensions with taxonomy nodes; {@code -key} drops
   *     one
   */
  public static List<String> dimensions(List<String> filters) {
    List<String> out = new java.util.ArrayList<>();
    for (dev.faultline.schemas.taxonomy.Dimension d :
        dev.faultline.schemas.taxonomy.Dimension.API_ORDER) {
      boolean keep = true;
      for (String f : filters) {
        if (f.equals("taxonomy")) {
          keep &= d.nodeLabel().isPresent();
        } else if (f.startsWith("-")) {
          String key = f.substring(1);
          if (dev.faultline.schemas.taxonomy.Dimension.ofKey(key).isEmpty()) {
            throw new IllegalArgumentException("no dimension '" + key + "' to leave out");
          }
          keep &= !d.key().equals(key);
        } else {
          throw new IllegalArgumentException(
              "unknown dimension filter '" + f + "': use taxonomy or -<dimension>");
        }
      }
      if (keep) {
        out.add(d.key());
      }
    }
    return out;
  }

  /** The header form of type and whitelist, e.g. {@code String(week|month)}. */
  public String typeText() {
    return allowedValues.isEmpty()
        ? type.headerName()
        : type.headerName() + "(" + String.join("|", allowedValues) + ")";
  }

  private String expected() {
    return switch (type) {
      case STRING -> "a string";
      case DIMENSION -> "a dimension: " + String.join(", ", allowedValues);
      case INTEGER -> "a whole number such as 10";
      case FLOAT -> "a number such as 0.5";
      case BOOLEAN -> "true or false";
      case DATETIME -> "a date or date-time such as 2024-05-01 or 2024-05-01T12:00:00Z";
      case CONFIDENCE -> "a number from 0 to 1, all, calibrated or default";
      case VECTOR -> "comma-separated numbers such as 0.1,-0.2,0.3";
    };
  }

  private Boolean parseBoolean(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default ->
          throw new IllegalArgumentException(
              "parameter '" + name + "' is '" + text + "', not " + expected());
    };
  }

  private Object parseConfidence(String text, ConfidencePolicy defaultPolicy) {
    try {
      return ConfidencePolicy.parse(text, defaultPolicy).toParameter();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "parameter '" + name + "' is '" + text + "', not " + expected(), e);
    }
  }

  private static List<Double> parseVector(String text) {
    String inner = text;
    if (inner.startsWith("[") && inner.endsWith("]")) {
      inner = inner.substring(1, inner.length() - 1);
    }
    if (inner.isBlank()) {
      throw new NumberFormatException("no numbers");
    }
    List<Double> values = new java.util.ArrayList<>();
    for (String part : inner.split(",")) {
      double v = Double.parseDouble(part.strip());
      if (!Double.isFinite(v)) {
        throw new NumberFormatException("not finite: " + part.strip());
      }
      values.add(v);
    }
    return values;
  }

  private static ZonedDateTime parseDateTime(String text) {
    if (text.length() == 10) {
      return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC);
    }
    try {
      return OffsetDateTime.parse(text).toZonedDateTime();
    } catch (DateTimeParseException e) {
      return LocalDateTime.parse(text).atZone(ZoneOffset.UTC);
    }
  }
}
