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
 * row.history} (the property names of each dimension, {@link #parameter}). Neo4j stores no null, so
 * an absent code ("cannot tell" of distributed-specific) compares as {@code ''}. One rule decides,
 * per dimension:
 *
 * <ul>
 *   <li><b>The stored version</b> is the label's own version, else (a node written before labels
 *       had versions) the node's {@code classifierVersion}. A label <b>changes</b> when its code or
 *       that version differs from the row's; only a change is stamped, so a second relabelling by
 *       the same classifier changes no property.
 *   <li><b>Once per pass.</b> A row's {@code pass} names the change it belongs to: one
 *       classification of a state live (its offline row, written at once, and the language model's
 *       upgrade of the same state, written when the answer arrives, share it), one whole run in a
 *       bounded replay ({@code faultline reclassify}: every row of the run, and of its resumed
 *       attempts, carries the run's token). However the pass's rows land (one sink batch or
 *       several, intermediate states of a replay or only its last, before or after a kill), its
 *       history is written as if only its last row had been: a label stamped by an earlier row of
 *       the pass (the node's {@link #STAMPED_BY} is the row's pass, and the label's {@code
 *       <key>LabelledAt} is not before {@link #STAMPED_SINCE}) does not become the previous one, so
 *       the previous label stays the one from before the pass; and when a row gives back that
 *       label, the stamp is undone (the previous label it displaced is kept for that, in {@code
 *       <key>PreviousUndo}, {@code <key>PreviousVersionUndo}, {@code <key>PreviousAtUndo}), as if
 *       the pass had not changed it.
 * </ul>
 */
public final class LabelHistory {

  private static final Pattern FRAGMENT =
      Pattern.compile("@history\\(\\s*(?<node>[A-Za-z_][A-Za-z0-9_]*)\\s*\\)");

  /** The pass ({@code row.pass}) of the last write that stamped a label of the node. */
  public static final String STAMPED_BY = "labelsStampedBy";

  /** When that write was (the statement's time, as its labels' {@code <key>LabelledAt}). */
  public static final String STAMPED_AT = "labelsStampedAt";

  /**
   * When the node's labels were first stamped under {@link #STAMPED_BY}'s pass: a label whose
   * {@code <key>LabelledAt} is not before it was given by an earlier write of the same change.
   */
  public static final String STAMPED_SINCE = "labelsStampedSince";

  private LabelHistory() {}

  /** When the node's current pass first stamped (a node written before it was kept: its last). */
  private static String since(String n) {
    return "coalesce(" + n + "." + STAMPED_SINCE + ", " + n + "." + STAMPED_AT + ")";
  }

  /**
   * The {@code history} parameter of a row labelling {@code dimensions}: per dimension the names of
   * its code, version, time and previous-label properties, and of the undo slot of the previous
   * label.
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
                    "previousAt", d.previousAtProperty(),
                    "undo", d.previousProperty() + "Undo",
                    "undoVersion", d.previousVersionProperty() + "Undo",
                    "undoAt", d.previousAtProperty() + "Undo"))
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

  /**
   * The fragment for node {@code n}. Every condition is computed per dimension before any property
   * is set (the flags, a list evaluated once), so no condition reads what another step of the same
   * write has just changed.
   */
  private static String cypher(String n) {
    String stored = "coalesce(" + n + "[h.version], " + n + ".classifierVersion, '')";
    String code = "coalesce(toString(" + n + "[h.code]), '')";
    String newCode = "coalesce(toString(row.classification[h.code]), '')";
    // A row without a version (null) changes no history, as before versions were written.
    String newVersion = "row.classification[h.version]";
    String labelled = "(" + n + "[h.code] IS NOT NULL OR " + n + "[h.at] IS NOT NULL)";
    String changed = "(" + code + " <> " + newCode + " OR " + stored + " <> " + newVersion + ")";
    // The stored label was stamped under this row's pass (an earlier write of the same change).
    String middle =
        ("(coalesce(" + n + "." + STAMPED_BY + " = row.pass, false)")
            + (" AND coalesce(" + n + "[h.at] >= " + since(n) + ", false))");
    String back =
        ("(coalesce(toString(" + n + "[h.previous]), '') = " + newCode)
            + (" AND coalesce(" + n + "[h.previousVersion], '') = " + newVersion + ")");
    String flags =
        ("[h IN coalesce(row.history, []) | h {.*,")
            + (" doStamp: " + labelled + " AND " + changed + " AND NOT " + middle + ",")
            + (" doUndo: " + middle + " AND " + back + ",")
            + (" doTouch: (NOT " + labelled + " OR " + changed + ")")
            + (" AND NOT (" + middle + " AND " + back + ")}]");
    return ("FOREACH (flags IN [" + flags + "] |\n")
        + "  FOREACH (h IN flags |\n"
        + "    FOREACH (_ IN CASE WHEN h.doStamp THEN [1] ELSE [] END |\n"
        + ("      SET " + n + "[h.undo] = " + n + "[h.previous], ")
        + (n + "[h.undoVersion] = " + n + "[h.previousVersion], ")
        + (n + "[h.undoAt] = " + n + "[h.previousAt],\n")
        + ("          " + n + "[h.previous] = " + n + "[h.code], ")
        + (n
            + "[h.previousVersion] = coalesce("
            + n
            + "[h.version], "
            + n
            + ".classifierVersion), ")
        + (n + "[h.previousAt] = " + n + "[h.at])\n")
        + "    FOREACH (_ IN CASE WHEN h.doUndo THEN [1] ELSE [] END |\n"
        + ("      SET " + n + "[h.at] = " + n + "[h.previousAt], ")
        + (n + "[h.previous] = " + n + "[h.undo], ")
        + (n + "[h.previousVersion] = " + n + "[h.undoVersion], ")
        + (n + "[h.previousAt] = " + n + "[h.undoAt])\n")
        + "    FOREACH (_ IN CASE WHEN h.doTouch THEN [1] ELSE [] END |\n"
        + ("      SET " + n + "[h.at] = datetime.statement()))\n")
        + "  FOREACH (_ IN CASE WHEN any(h IN flags WHERE h.doStamp OR h.doUndo OR h.doTouch)"
        + " THEN [1] ELSE [] END |\n"
        + ("    SET " + n + "." + STAMPED_SINCE + " = CASE WHEN coalesce(")
        + (n + "." + STAMPED_BY + " = row.pass, false) THEN coalesce(" + since(n) + ",")
        + (" datetime.statement()) ELSE datetime.statement() END,\n")
        + ("        " + n + "." + STAMPED_BY + " = row.pass, ")
        + (n + "." + STAMPED_AT + " = datetime.statement()))");
  }
}
