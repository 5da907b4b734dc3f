package dev.faultline.infra.relabel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a relabelling changed, per framework and dimension: the counts of every code before and
 * after, the transition table (from → to, with counts, over the items labelled both times), and the
 * share of those items whose label changed. Pure: built from two snapshots of the labels (before
 * and after), written as Markdown and JSON. Items are matched by id; an item only in one snapshot
 * counts in that snapshot's counts and is reported as added or gone, never as a transition.
 *
 * <p>The building block of {@code faultline reclassify} (issue #26; the command itself is not built
 * yet, see docs/classifier.md "Relabelling history").
 */
public final class RelabelReport {

  /**
   * One item's labels in one snapshot.
   *
   * @param id the item (its URL)
   * @param framework its framework
   * @param codes dimension (its field name) to code; a missing dimension is not counted
   */
  public record Labels(String id, String framework, Map<String, String> codes) {
    public Labels {
      Objects.requireNonNull(id, "id");
      framework = framework == null ? "(none)" : framework;
      codes = Map.copyOf(codes);
    }
  }

  /** The figures of one framework and dimension. */
  public record Cell(
      Map<String, Integer> before,
      Map<String, Integer> after,
      Map<String, Map<String, Integer>> transitions,
      int compared,
      int changed,
      int added,
      int gone) {

    /** Share of the items labelled both times whose label changed (0 when none was). */
    public double shareChanged() {
      return compared == 0 ? 0 : (double) changed / compared;
    }
  }

  /** framework → dimension → figures, both sorted. */
  private final Map<String, Map<String, Cell>> cells;

  private RelabelReport(Map<String, Map<String, Cell>> cells) {
    this.cells = cells;
  }

  /** The report of two snapshots. */
  public static RelabelReport of(List<Labels> before, List<Labels> after) {
    Map<String, Labels> old = index(before);
    Map<String, Labels> now = index(after);
    Map<String, Map<String, Builder>> b = new TreeMap<>();
    for (Labels l : old.values()) {
      l.codes()
          .forEach(
              (dim, code) -> {
                Builder c = cell(b, l.framework(), dim);
                c.before.merge(code, 1, Integer::sum);
                Labels n = now.get(l.id());
                if (n == null || !n.codes().containsKey(dim)) {
                  c.gone++;
                }
              });
    }
    for (Labels l : now.values()) {
      Labels o = old.get(l.id());
      l.codes()
          .forEach(
              (dim, code) -> {
                // An item whose framework changed is reported under its new framework.
                Builder c = cell(b, l.framework(), dim);
                c.after.merge(code, 1, Integer::sum);
                String was = o == null ? null : o.codes().get(dim);
                if (was == null) {
                  c.added++;
                  return;
                }
                c.compared++;
                c.transitions
                    .computeIfAbsent(was, k -> new TreeMap<>())
                    .merge(code, 1, Integer::sum);
                if (!was.equals(code)) {
                  c.changed++;
                }
              });
    }
    Map<String, Map<String, Cell>> cells = new TreeMap<>();
    b.forEach(
        (f, dims) -> {
          Map<String, Cell> m = new TreeMap<>();
          dims.forEach((d, c) -> m.put(d, c.build()));
          cells.put(f, m);
        });
    return new RelabelReport(cells);
  }

  /** framework → dimension → figures. */
  public Map<String, Map<String, Cell>> cells() {
    return cells;
  }

  /** The report as JSON: {@code {framework: {dimension: {before, after, transitions, ...}}}}. */
  public ObjectNode toJson(ObjectMapper json) {
    ObjectNode root = json.createObjectNode();
    cells.forEach(
        (f, dims) -> {
          ObjectNode fn = root.putObject(f);
          dims.forEach(
              (d, c) -> {
                ObjectNode dn = fn.putObject(d);
                ObjectNode bn = dn.putObject("before");
                c.before().forEach(bn::put);
                ObjectNode an = dn.putObject("after");
                c.after().forEach(an::put);
                ArrayNode t = dn.putArray("transitions");
                c.transitions()
                    .forEach(
                        (from, tos) ->
                            tos.forEach(
                                (to, n) ->
                                    t.addObject().put("from", from).put("to", to).put("count", n)));
                dn.put("compared", c.compared());
                dn.put("changed", c.changed());
                dn.put("shareChanged", c.shareChanged());
                dn.put("added", c.added());
                dn.put("gone", c.gone());
              });
        });
    return root;
  }

  /**
   * The report as Markdown: per framework and dimension a line with the share changed, a table of
   * counts before and after, and the changed transitions (from → to, most frequent first).
   */
  public String toMarkdown() {
    StringBuilder b = new StringBuilder("# What the relabelling changed\n");
    cells.forEach(
        (f, dims) -> {
          b.append("\n## ").append(f).append('\n');
          dims.forEach(
              (d, c) -> {
                b.append(
                    String.format(
                        Locale.ROOT,
                        "%n### %s%n%n%d of %d items labelled both times changed (%.1f%%)",
                        d,
                        c.changed(),
                        c.compared(),
                        100 * c.shareChanged()));
                if (c.added() > 0 || c.gone() > 0) {
                  b.append(
                      String.format(
                          Locale.ROOT, "; %d newly labelled, %d no longer", c.added(), c.gone()));
                }
                b.append(".\n\n| code | before | after |\n|---|---|---|\n");
                TreeMap<String, Integer> codes = new TreeMap<>(c.before());
                c.after().keySet().forEach(k -> codes.putIfAbsent(k, 0));
                codes
                    .keySet()
                    .forEach(
                        k ->
                            b.append("| ")
                                .append(k)
                                .append(" | ")
                                .append(c.before().getOrDefault(k, 0))
                                .append(" | ")
                                .append(c.after().getOrDefault(k, 0))
                                .append(" |\n"));
                List<String[]> moves = new java.util.ArrayList<>();
                c.transitions()
                    .forEach(
                        (from, tos) ->
                            tos.forEach(
                                (to, n) -> {
                                  if (!from.equals(to)) {
                                    moves.add(new String[] {from, to, Integer.toString(n)});
                                  }
                                }));
                if (!moves.isEmpty()) {
                  moves.sort(
                      (x, y) ->
                          Integer.parseInt(y[2]) != Integer.parseInt(x[2])
                              ? Integer.parseInt(y[2]) - Integer.parseInt(x[2])
                              : (x[0] + x[1]).compareTo(y[0] + y[1]));
                  b.append("\n| from | to | items |\n|---|---|---|\n");
                  moves.forEach(
                      m ->
                          b.append("| ")
                              .append(m[0])
                              .append(" | ")
                              .append(m[1])
                              .append(" | ")
                              .append(m[2])
                              .append(" |\n"));
                }
              });
        });
    return b.toString();
  }

  private static Map<String, Labels> index(List<Labels> l) {
    Map<String, Labels> m = new HashMap<>();
    for (Labels x : l) {
      if (m.put(x.id(), x) != null) {
        throw new IllegalArgumentException("item " + x.id() + " appears twice in one snapshot");
      }
    }
    return m;
  }

  private static Builder cell(Map<String, Map<String, Builder>> b, String framework, String dim) {
    return b.computeIfAbsent(framework, k -> new TreeMap<>())
        .computeIfAbsent(dim, k -> new Builder());
  }

  private static final class Builder {
    final Map<String, Integer> before = new TreeMap<>();
    final Map<String, Integer> after = new TreeMap<>();
    final Map<String, Map<String, Integer>> transitions = new TreeMap<>();
    int compared;
    int changed;
    int added;
    int gone;

    Cell build() {
      Map<String, Map<String, Integer>> t = new TreeMap<>();
      transitions.forEach((k, v) -> t.put(k, java.util.Collections.unmodifiableMap(v)));
      return new Cell(
          java.util.Collections.unmodifiableMap(before),
          java.util.Collections.unmodifiableMap(after),
          java.util.Collections.unmodifiableMap(t),
          compared,
          changed,
          added,
          gone);
    }
  }
}
