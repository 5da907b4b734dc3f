package dev.faultline.classifier;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a merged change touched, when known: its files with lines added and deleted, and the start
 * of its unified diff. The learned layer reads paths and the words of added and removed lines from
 * it.
 *
 * @param files changed files, in the order given
 * @param diff the first part of the unified diff (may be empty)
 */
public record ChangeDetails(List<ChangedFile> files, String diff) {

  /** One changed file. */
  public record ChangedFile(String path, int additions, int deletions) {}

  /** No files, no diff. */
  public static final ChangeDetails NONE = new ChangeDetails(List.of(), "");

  /** A {@code path+12-3} line of a change's file list. */
  private static final Pattern FILE_LINE =
      Pattern.compile("^\\s*([\\w./@+\\-\\[\\]{}=,]+?)\\+(\\d+)-(\\d+)\\s*$");

  public ChangeDetails {
    files = files == null ? List.of() : List.copyOf(files);
    diff = diff == null ? "" : diff;
  }

  /**
   * Whether a batch record's url names a merged change (a pull request or a commit) rather than an
   * issue.
   */
  public static boolean isChangeUrl(String url) {
    return url != null && (url.contains("/pull/") || url.contains("/commit/"));
  }

  /**
   * The files and diff of a batch record: for a merged change its file list (from the text) and
   * diff, for an issue {@link #NONE}.
   */
  public static ChangeDetails ofRecord(String url, String text, String diff) {
    return isChangeUrl(url) ? fromText(text, diff) : NONE;
  }

  /** Whether anything is known. */
  public boolean isEmpty() {
    return files.isEmpty() && diff.isEmpty();
  }

  /**
   * Files and line counts read from the start of a unified diff ({@code diff --git a/P b/P}
   * headers, then the {@code +}/{@code -} lines under each, counted as far as the text goes), and
   * the diff itself.
   */
  public static ChangeDetails fromDiff(String diff) {
    java.util.List<ChangedFile> files = new java.util.ArrayList<>();
    if (diff != null && !diff.isEmpty()) {
      String path = null;
      int add = 0;
      int del = 0;
      for (String line : diff.split("\n")) {
        if (line.startsWith("diff --git ")) {
          if (path != null) {
            files.add(new ChangedFile(path, add, del));
          }
          int b = line.lastIndexOf(" b/");
          path = b >= 0 ? line.substring(b + 3) : line.substring("diff --git ".length());
          add = 0;
          del = 0;
        } else if (line.startsWith("+") && !line.startsWith("+++")) {
          add++;
        } else if (line.startsWith("-") && !line.startsWith("---")) {
          del++;
        }
      }
      if (path != null) {
        files.add(new ChangedFile(path, add, del));
      }
    }
    return new ChangeDetails(files, diff);
  }

  /**
   * The file list of a text that carries one after a {@code changed files:} line ({@code
   * path+added-deleted} per line), as the batch format of merged changes does; the diff is added
   * separately.
   */
  public static ChangeDetails fromText(String text, String diff) {
    java.util.ArrayList<ChangedFile> files = new java.util.ArrayList<>();
    if (text != null) {
      int at = text.indexOf("changed files:");
      if (at >= 0) {
        for (String line : text.substring(at + "changed files:".length()).split("\n")) {
          Matcher m = FILE_LINE.matcher(line);
          if (m.matches()) {
            try {
              files.add(
                  new ChangedFile(
                      m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
            } catch (NumberFormatException e) {
              // a count too large for an int: not a file line
            }
          }
        }
      }
    }
    return new ChangeDetails(files, diff);
  }
}
