package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every label's history on its node: the version that gave it ({@link
 * Dimension#versionProperty()}), when the graph took it ({@link Dimension#labelledAtProperty()})
 * and the label it replaced ({@link Dimension#previousProperty()}, its version and time), so a
 * relabelling's report can be rebuilt from the graph alone.
 *
 * <p>The write statements say {@code @history(node)} where the node's labels are about to be
 * replaced by {@code row.classification}; {@link #expand} turns it into Cypher over {@code
 * row.history} (the property names of each dimension, {@link #parameter}). A label is stamped only
 * when its code or its version changes: a second relabelling by the same classifier changes no
 * property. Neo4j stores no null, so an absent code ("cannot tell" of distributed-specific)
 * compares as {@code ''}.
 */
public final class LabelHistory {

  private static final Pattern FRAGMENT =
      Pattern.compile("@history\\(\\s*(?<node>[A-Za-z_][A-Za-z0-9_]*)\\s*\\)");

  private LabelHistory() {}

  /**
   * The {@code history} parameter of a row labelling {@code dimensions}: per dimension the names of
   * its code, version, time and previous-label properties.
   */
  public static List<Map<String, String>> parameter(List<Dimension> dimensions) {
    return dimensions.stream()
        .map(
            d ->
                Map.of(
                    "code", d.property(),
                    "version", d.versionProperty(),
                    "at", d.labelledAtProperty(),
                    "previous", d.previousProperty(),
                    "previousVersion", d.previousVersionProperty(),
                    "previousAt", d.previousAtProperty()))
        .toList();
  }

  /** The statement with every {@code @history(node)} expanded. */
  public static String expand(String statement) {
    Matcher m = FRAGMENT.matcher(statement);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(cypher(m.group("node"))));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String cypher(String n) {
    String code = "coalesce(toString(" + n + "[h.code]), '')";
    String newCode = "coalesce(toString(row.classification[h.code]), '')";
    String labelled = "(" + n + "[h.code] IS NOT NULL OR " + n + "[h.at] IS NOT NULL)";
    return "FOREACH (h IN coalesce(row.history, []) |\n"
        + "  FOREACH (_ IN CASE WHEN "
        + labelled
        + " AND ("
        + code
        + " <> "
        + newCode
        + " OR coalesce("
        + n
        + "[h.version], "
        + n
        + ".classifierVersion, '') <> row.classification[h.version]) THEN [1] ELSE [] END |\n"
        + "    SET "
        + n
        + "[h.previous] = "
        + n
        + "[h.code], "
        + n
        + "[h.previousVersion] = coalesce("
        + n
        + "[h.version], "
        + n
        + ".classifierVersion), "
        + n
        + "[h.previousAt] = "
        + n
        + "[h.at])\n"
        + "  FOREACH (_ IN CASE WHEN NOT "
        + labelled
        + " OR "
        + code
        + " <> "
        + newCode
        + " OR coalesce("
        + n
        + "[h.version], '') <> row.classification[h.version] THEN [1] ELSE [] END |\n"
        + "    SET "
        + n
        + "[h.at] = datetime()))";
  }
}
