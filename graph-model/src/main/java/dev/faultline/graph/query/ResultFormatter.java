package dev.faultline.graph.query;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders query rows (plain Java values as {@link QueryLibrary} returns them) as an aligned text
 * table, a JSON array of row objects, or CSV (RFC 4180, header line first). Lists and maps in a
 * table or CSV cell are written as compact JSON; nulls are empty cells (and {@code null} in JSON).
 */
public final class ResultFormatter {
  /** Longest cell of a table before it is cut with an ellipsis (JSON and CSV are never cut). */
  static final int MAX_TABLE_CELL = 80;

  /** Output formats. */
  public enum Format {
    TABLE,
    JSON,
    CSV;

    /** {@code table}, {@code json} or {@code csv}, any case. */
    public static Format parse(String text) {
      for (Format f : values()) {
        if (f.name().equalsIgnoreCase(text)) {
          return f;
        }
      }
      throw new IllegalArgumentException("unknown format '" + text + "': use table, json or csv");
    }
  }

  private final Format format;

  public ResultFormatter(Format format) {
    this.format = format;
  }

  /**
   * Renders the rows. The columns are {@code columns} in order, then any further keys the rows
   * have; with no rows the table and CSV still show the header.
   */
  public String format(List<String> columns, List<Map<String, Object>> rows) {
    Set<String> all = new LinkedHashSet<>(columns);
    rows.forEach(r -> all.addAll(r.keySet()));
    List<String> header = new ArrayList<>(all);
    return switch (format) {
      case TABLE -> table(header, rows);
      case JSON -> json(header, rows);
      case CSV -> csv(header, rows);
    };
  }

  private static String table(List<String> header, List<Map<String, Object>> rows) {
    List<List<String>> cells = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<String> line = new ArrayList<>();
      for (String column : header) {
        String text = cell(row.get(column)).replaceAll("\\s+", " ");
        if (text.length() > MAX_TABLE_CELL) {
          text = text.substring(0, MAX_TABLE_CELL - 1) + "…";
        }
        line.add(text);
      }
      cells.add(line);
    }
    int[] widths = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      widths[c] = header.get(c).length();
      for (List<String> line : cells) {
        widths[c] = Math.max(widths[c], line.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder();
    appendTableLine(out, header, widths);
    List<String> rule = new ArrayList<>();
    for (int width : widths) {
      rule.add("-".repeat(width));
    }
    appendTableLine(out, rule, widths);
    cells.forEach(line -> appendTableLine(out, line, widths));
    out.append(rows.size()).append(rows.size() == 1 ? " row" : " rows").append('\n');
    return out.toString();
  }

  private static void appendTableLine(StringBuilder out, List<String> line, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < line.size(); c++) {
      if (c > 0) {
        b.append(" | ");
      }
      String text = line.get(c);
      b.append(text).append(" ".repeat(widths[c] - text.length()));
    }
    out.append(b.toString().stripTrailing()).append('\n');
  }

  private static String json(List<String> header, List<Map<String, Object>> rows) {
    StringBuilder out = new StringBuilder("[");
    for (int r = 0; r < rows.size(); r++) {
      out.append(r == 0 ? "\n  " : ",\n  ").append('{');
      Map<String, Object> row = rows.get(r);
      for (int c = 0; c < header.size(); c++) {
        if (c > 0) {
          out.append(", ");
        }
        writeJsonString(out, header.get(c));
        out.append(": ");
        writeJson(out, row.get(header.get(c)));
      }
      out.append('}');
    }
    out.append(rows.isEmpty() ? "]\n" : "\n]\n");
    return out.toString();
  }

  private static String csv(List<String> header, List<Map<String, Object>> rows) {
    StringBuilder out = new StringBuilder();
    appendCsvLine(out, header);
    for (Map<String, Object> row : rows) {
      List<String> line = new ArrayList<>();
      header.forEach(column -> line.add(cell(row.get(column))));
      appendCsvLine(out, line);
    }
    return out.toString();
  }

  private static void appendCsvLine(StringBuilder out, List<String> cells) {
    for (int c = 0; c < cells.size(); c++) {
      if (c > 0) {
        out.append(',');
      }
      String text = cells.get(c);
      if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
        out.append('"').append(text.replace("\"", "\"\"")).append('"');
      } else {
        out.append(text);
      }
    }
    out.append("\r\n");
  }

  /** A value as one cell: scalars as text, lists and maps as compact JSON, null as empty. */
  static String cell(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof List<?> || value instanceof Map<?, ?>) {
      StringBuilder b = new StringBuilder();
      writeJson(b, value);
      return b.toString();
    }
    if (value instanceof Double d) {
      return number(d);
    }
    return String.valueOf(value);
  }

  /** Writes a plain Java value as JSON. */
  static void writeJson(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      out.append(Double.isFinite(d) ? number(d) : "null");
    } else if (value instanceof Number n) {
      out.append(n);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
      while (entries.hasNext()) {
        Map.Entry<?, ?> e = entries.next();
        writeJsonString(out, String.valueOf(e.getKey()));
        out.append(':');
        writeJson(out, e.getValue());
        if (entries.hasNext()) {
          out.append(',');
        }
      }
      out.append('}');
    } else if (value instanceof Iterable<?> list) {
      out.append('[');
      Iterator<?> items = list.iterator();
      while (items.hasNext()) {
        writeJson(out, items.next());
        if (items.hasNext()) {
          out.append(',');
        }
      }
      out.append(']');
    } else {
      writeJsonString(out, String.valueOf(value));
    }
  }

  private static String number(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return Double.toString(d);
  }

  private static void writeJsonString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
