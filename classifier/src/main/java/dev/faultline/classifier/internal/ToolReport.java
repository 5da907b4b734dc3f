package dev.faultline.classifier.internal;

/**
 * Removes the fixed text of environment reports that issue templates ask users to paste, so that
 * words the tool always prints are not read as the user's own words. DeepSpeed's {@code ds_report}
 * says "Ops not installed will be just-in-time (JIT) compiled", "please install the libaio-dev
 * package" and lists every op as "installed .. compatible" in every report; read as the reporter's
 * words these look like an install failure. Only the words are dropped: versions are read from the
 * unfiltered text. Linear in the text length; stateless.
 */
public final class ToolReport {

  /** Lower-case fragments of lines that {@code ds_report} prints whatever the user's problem. */
  private static final String[] FIXED_LINES = {
    "ops not installed will be just-in-time",
    "runtime if needed. op compatibility means",
    "op compatibility means that your system",
    "meet the required dependencies to jit install",
    "jit compiled ops requires ninja",
    "c++/cuda extension op report",
    "general environment info",
    "requires the dev libaio",
    "please install the libaio-dev package",
    "if libaio is already installed",
    "ldflags environment variables",
    "sparse_attn requires a torch version",
    "using untested triton version",
  };

  private ToolReport() {}

  /**
   * The text without the lines a pasted {@code ds_report} always contains; the same string when
   * there are none.
   */
  public static String withoutFixedLines(String text) {
    if (text == null || !mayContainReport(text)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int start = 0;
    int n = text.length();
    while (start <= n) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = n;
      }
      if (!isFixedLine(text, start, end)) {
        out.append(text, start, end);
        if (end < n) {
          out.append('\n');
        }
      }
      start = end + 1;
    }
    return out.toString();
  }

  private static boolean mayContainReport(String text) {
    return text.contains("....")
        || text.contains("JIT")
        || text.contains("WARNING")
        || text.contains("op name");
  }

  private static boolean isFixedLine(String text, int start, int end) {
    String line = text.substring(start, end).toLowerCase(java.util.Locale.ROOT);
    for (String fixed : FIXED_LINES) {
      if (line.contains(fixed)) {
        return true;
      }
    }
    // the op table: "op name ...... installed .. compatible" and "fused_adam ....... [NO] .......
    // [OKAY]"
    if (line.contains("op name") && line.contains("installed") && line.contains("compatible")) {
      return true;
    }
    return line.contains("....")
        && (line.contains("[okay]")
            || line.contains("[no]")
            || line.contains("[yes]")
            || line.contains("[fail]"));
  }
}
