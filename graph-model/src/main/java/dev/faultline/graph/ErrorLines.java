package dev.faultline.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error lines of an issue's text: what a maintainer reads first to tell whether two reports are
 * the same problem ({@code RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled system
 * error}). Stored on every issue as {@code errorLines} and indexed for the similar-issues search
 * (migration V0007).
 *
 * <p>The error lines are those that end the first Python traceback of the text (the exception line,
 * and the exceptions chained to it within that traceback, at most {@value #MAX_LINES}); when the
 * text has no traceback, or it is cut off before its exception line, the first line anywhere that
 * names an exception ({@code ValueError: ...}, {@code torch.cuda.OutOfMemoryError: ...}) or a
 * library's error ({@code NCCL error ...}, {@code CUDA error: ...}). Log prefixes ({@code
 * [rank0]:}, {@code [1,0]<stderr>:}, a host name and colon) are dropped; each line is cut at
 * {@value #MAX_CHARS} characters. Plain Java, no state.
 */
public final class ErrorLines {
  /** Lines kept at most. */
  public static final int MAX_LINES = 3;

  /** Characters kept of each line. */
  public static final int MAX_CHARS = 300;

  /** Lines after a traceback's header searched for its exception line. */
  private static final int TRACEBACK_WINDOW = 120;

  private static final Pattern TRACEBACK = Pattern.compile("Traceback \\(most recent call last\\)");

  /** {@code [rank0]:}, {@code [1,0]<stderr>:}, {@code > }, {@code | }, repeated. */
  private static final Pattern PREFIX =
      Pattern.compile("^(?:\\s*[>|]\\s*|\\s*\\[[^\\]]{1,40}\\](?:<\\w{1,10}>)?:?\\s*)*");

  /** A host name or process tag before the message: {@code gpu-q-13: }. */
  private static final Pattern HOST = Pattern.compile("^[\\w.@-]{1,40}:\\s+");

  /** A line that is an exception: {@code [pkg.]NameError[: message]}. */
  private static final Pattern EXCEPTION_LINE =
      Pattern.compile(
          "^(?:[A-Za-z_][\\w]*\\.)*[A-Z]\\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault)\\b(?::.*)?$");

  /** An exception or a library's error named anywhere in a line. */
  private static final Pattern ERROR_ANYWHERE =
      Pattern.compile(
          "(?:(?:[A-Za-z_]\\w*\\.)*[A-Z]\\w*(?:Error|Exception)\\b:"
              + "|\\b(?:NCCL|CUDA|cuDNN|CUBLAS|cuBLAS|HIP|MPI|RCCL|Gloo) error\\b)");

  /** The frames of a traceback: {@code File "x.py", line 3, in f} and their indented code. */
  private static final Pattern FRAME = Pattern.compile("^\\s*File \"[^\"]*\", line \\d+");

  private ErrorLines() {}

  /** The error lines of a text joined by newlines, or null when it has none. */
  public static String of(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String[] lines = text.split("\\R", -1);
    List<String> found = fromTraceback(lines);
    if (found.isEmpty()) {
      found = firstErrorLine(lines);
    }
    return found.isEmpty() ? null : String.join("\n", found);
  }

  /** The exception lines that end the first traceback (empty when there is none or it is cut). */
  private static List<String> fromTraceback(String[] lines) {
    int start = -1;
    for (int i = 0; i < lines.length && start < 0; i++) {
      if (TRACEBACK.matcher(lines[i]).find()) {
        start = i + 1;
      }
    }
    List<String> out = new ArrayList<>();
    if (start < 0) {
      return out;
    }
    for (int i = start; i < lines.length && i < start + TRACEBACK_WINDOW; i++) {
      String line = strip(lines[i]);
      if (FRAME.matcher(line).find() || line.isEmpty()) {
        continue;
      }
      String exception = exception(line);
      if (exception != null) {
        out.add(cut(exception));
        if (out.size() == MAX_LINES) {
          break;
        }
      } else if (!out.isEmpty() && TRACEBACK.matcher(line).find()) {
        // a second traceback (another rank's copy, or a new one) starts after the first ended
        break;
      }
    }
    return out;
  }

  /** The first line naming an exception or a library's error, from that name on. */
  private static List<String> firstErrorLine(String[] lines) {
    for (String raw : lines) {
      String line = strip(raw);
      Matcher m = ERROR_ANYWHERE.matcher(line);
      if (m.find()) {
        int from = m.start();
        // keep a qualified exception name whole (torch.distributed.DistBackendError)
        while (from > 0 && isNamePart(line.charAt(from - 1))) {
          from--;
        }
        return List.of(cut(line.substring(from).strip()));
      }
    }
    return List.of();
  }

  /** The line, or the line after a host tag, when it is an exception line; else null. */
  private static String exception(String line) {
    if (EXCEPTION_LINE.matcher(line).matches()) {
      return line;
    }
    Matcher host = HOST.matcher(line);
    if (host.lookingAt()) {
      String rest = line.substring(host.end());
      return EXCEPTION_LINE.matcher(rest).matches() ? rest : null;
    }
    return null;
  }

  private static String strip(String line) {
    String s = line.strip();
    Matcher m = PREFIX.matcher(s);
    return m.lookingAt() ? s.substring(m.end()).strip() : s;
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.';
  }

  private static String cut(String line) {
    return line.length() > MAX_CHARS ? line.substring(0, MAX_CHARS) : line;
  }
}
