package dev.faultline.graph.query;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Cypher fragments the bundled queries share, written once and expanded when a query file is
 * read. A fragment is {@code @name(node, dimension)}: {@code node} an issue variable, {@code
 * dimension} a Cypher expression of a dimension key ({@code 'kind'}, {@code $dimension}, a
 * variable). {@code @} is not Cypher, so a fragment left unexpanded fails the query loudly.
 *
 * <ul>
 *   <li>{@code @passes(i, d)}: the confidence-bar rule ({@link
 *       dev.faultline.graph.ConfidencePolicy#passes}): the label of {@code d} was given by a person
 *       (listed in {@code i.humanGiven}), or its confidence (its {@code confidenceProperty}, which
 *       the writer stores on the issue for every labelled dimension) is at or above the bar {@code
 *       $minConfidence[d]} (a missing confidence passes only a bar of 0).
 *   <li>{@code @value(i, d)}: the issue's code of {@code d} as a string ({@code true}/{@code false}
 *       for distributed-specific, UNKNOWN when a classified issue's value cannot tell; null for an
 *       unclassified issue).
 * </ul>
 *
 * <p>The property names come from the library's {@code $dimensions} ({@link
 * QueryDefinition#DIMENSIONS}, derived from {@code Dimension}), never spelled here.
 */
public final class Fragments {
  private static final Pattern FRAGMENT =
      Pattern.compile(
          "@(?<name>[a-z]+)\\(\\s*(?<node>[A-Za-z_][A-Za-z0-9_]*)\\s*,\\s*(?<dim>[^()]+?)\\s*\\)");

  private Fragments() {}

  /** The confidence-bar rule of one dimension's label on an issue node. */
  public static String passes(String node, String dimension) {
    return "("
        + dimension
        + " IN coalesce("
        + node
        + ".humanGiven, []) OR coalesce("
        + node
        + "[$dimensions["
        + dimension
        + "].confidenceProperty], 0.0) >= coalesce($minConfidence["
        + dimension
        + "], 0.0))";
  }

  /** An issue node's code of one dimension, as a string. */
  public static String value(String node, String dimension) {
    return "coalesce(toString("
        + node
        + "[$dimensions["
        + dimension
        + "].property]), CASE WHEN "
        + node
        + ".classifierVersion IS NULL THEN null ELSE 'UNKNOWN' END)";
  }

  /**
   * The text with every fragment expanded.
   *
   * @throws IllegalArgumentException naming the source for an unknown fragment
   */
  public static String expand(String source, String text) {
    Matcher m = FRAGMENT.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String node = m.group("node");
      String dim = m.group("dim");
      String expansion =
          switch (m.group("name")) {
            case "passes" -> passes(node, dim);
            case "value" -> value(node, dim);
            default ->
                throw new IllegalArgumentException(
                    source + ": unknown fragment @" + m.group("name") + ": use @passes or @value");
          };
      m.appendReplacement(out, Matcher.quoteReplacement(expansion));
    }
    m.appendTail(out);
    return out.toString();
  }
}
