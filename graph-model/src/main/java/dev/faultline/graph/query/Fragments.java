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
 *   <li>{@code @serving(s, i)}: a clause binding {@code s} to the validation sample that serves the
 *       scope of {@code $framework}, {@code $from} and {@code $to} (the one with the most labelled
 *       issues in it; null when none has any); {@code i} is unused (a fragment takes two names).
 *       Put it before the scope's {@code MATCH}.
 *   <li>{@code @sampled(i, s)}: the three columns an estimator reads of a sample: {@code sample}
 *       (the person's labels of issue {@code i} in sample {@code s}, a map, or null), {@code
 *       sampleDrawn} (whether {@code s} drew it) and {@code samplePopulation} (whether it belongs
 *       to the population {@code s} was drawn from: in its scope and first seen by the graph before
 *       the draw; an issue without {@code firstSeenAt}, written before it was kept, counts as
 *       seen).
 * </ul>
 *
 * <p>The property names come from the library's {@code $dimensions} ({@link
 * QueryDefinition#DIMENSIONS}, derived from {@code Dimension}), never spelled here.
 */
public final class Fragments {
  private static final Pattern FRAGMENT =
      Pattern.compile(
          "@(?<name>[a-z]+)\\(\\s*(?<node>[A-Za-z_][A-Za-z0-9_]*)\\s*,\\s*(?<dim>[^()]+?)\\s*\\)");

  /** {@code @serving(s, i)}, with {@code $$s} for the sample's variable. */
  static final String SERVING =
      """
      CALL () {
        OPTIONAL MATCH ($$s:ValidationSample)-[:INCLUDES]->(x:Issue)
        WHERE x.state <> 'deleted' AND x.transferredTo IS NULL
          AND ($framework IS NULL OR x.framework = $framework)
          AND ($from IS NULL OR x.createdAt >= $from)
          AND ($to IS NULL OR x.createdAt < $to)
        WITH $$s, count(x) AS labelled
        RETURN $$s ORDER BY labelled DESC, $$s.id LIMIT 1
      }""";

  /** {@code @sampled(i, s)}, with {@code $$i} and {@code $$s} for the variables. */
  static final String SAMPLED =
      """
      CASE WHEN $$s IS NULL THEN null
           ELSE head([($$s)-[r:INCLUDES]->($$i) | properties(r)]) END AS sample,
             $$s IS NOT NULL AND EXISTS { ($$s)-[:DRAWN]->($$i) } AS sampleDrawn,
             $$s IS NULL OR (($$s.framework IS NULL OR $$i.framework = $$s.framework)
               AND ($$s.from IS NULL OR $$i.createdAt >= $$s.from)
               AND ($$s.to IS NULL OR $$i.createdAt < $$s.to)
               AND coalesce($$i.firstSeenAt, $$s.drawnAt) <= $$s.drawnAt) AS samplePopulation""";

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
            case "serving" -> SERVING.replace("$$s", node);
            case "sampled" -> SAMPLED.replace("$$i", node).replace("$$s", dim);
            default ->
                throw new IllegalArgumentException(
                    source
                        + ": unknown fragment @"
                        + m.group("name")
                        + ": use @passes, @value, @serving or @sampled");
          };
      m.appendReplacement(out, Matcher.quoteReplacement(expansion));
    }
    m.appendTail(out);
    return out.toString();
  }
}
