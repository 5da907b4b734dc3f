package dev.faultline.ingest.backfill.git;

import dev.faultline.ingest.backfill.git.MergedChange.FileChange;
import dev.faultline.ingest.backfill.git.MergedChange.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.errors.CanceledException;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * What one commit changed against its first parent, as {@code git log --numstat} counts it, and a
 * bounded diff summary: lines added and deleted per file (histogram diff), a binary file (a NUL
 * byte in its first 8,000 bytes, or larger than {@link #MAX_BLOB_BYTES}) changed with 0/0. Renames
 * are detected as git does by default (50% similar content, only in changes that both add and
 * remove files, at most 1,000 candidates); a file moved and edited counts its edited lines. One
 * tree walk and rename detector for a {@link GitHistoryReader}'s whole run; not thread-safe.
 */
final class ChangeDiffer implements AutoCloseable {
  /** Files listed per change (all are counted). */
  static final int MAX_FILES = 300;

  /** Characters of the diff summary. */
  static final int SUMMARY_CHARS = 2_500;

  /** Longest line of the diff summary. */
  static final int SUMMARY_LINE_CHARS = 160;

  /** Blobs larger than this are not diffed: counted as binary. */
  static final long MAX_BLOB_BYTES = 16L << 20;

  private final ObjectReader reader;
  private final TreeWalk treeWalk;
  private final DiffAlgorithm diff =
      DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM);
  private final RenameDetector renames;

  ChangeDiffer(ObjectReader reader, DiffConfig config) {
    this.reader = reader;
    this.treeWalk = new TreeWalk(reader);
    treeWalk.setRecursive(true);
    this.renames = new RenameDetector(reader, config);
    renames.setRenameScore(50);
    renames.setRenameLimit(1000);
  }

  /** What one change did to its files: the files listed, the counts and the summary. */
  static final class Diff {
    final List<FileChange> files = new ArrayList<>();
    final StringBuilder summary = new StringBuilder();
    int changedFiles;
    int unreadableFiles;
    int additions;
    int deletions;
  }

  /** The change from {@code parent} (null: the empty tree) to {@code commit}. */
  Diff diff(RevCommit parent, RevCommit commit) throws IOException {
    treeWalk.reset();
    treeWalk.setFilter(TreeFilter.ANY_DIFF);
    if (parent == null) {
      treeWalk.addTree(new EmptyTreeIterator());
    } else {
      treeWalk.addTree(parent.getTree());
    }
    treeWalk.addTree(commit.getTree());
    List<DiffEntry> entries = DiffEntry.scan(treeWalk);
    boolean adds = false;
    boolean deletes = false;
    for (DiffEntry e : entries) {
      adds |= e.getChangeType() == DiffEntry.ChangeType.ADD;
      deletes |= e.getChangeType() == DiffEntry.ChangeType.DELETE;
    }
    if (adds && deletes) {
      // Renames as git log and GitHub count them (50% similar content); only paid when files come
      // and go.
      renames.reset();
      renames.addAll(entries);
      try {
        entries = renames.compute(reader, NullProgressMonitor.INSTANCE);
      } catch (CanceledException e) {
        throw new IllegalStateException("rename detection cannot be cancelled here", e);
      }
    }
    Diff d = new Diff();
    for (DiffEntry e : entries) {
      count(e, d);
    }
    return d;
  }

  private void count(DiffEntry e, Diff d) throws IOException {
    Status status =
        switch (e.getChangeType()) {
          case ADD, COPY -> Status.ADDED;
          case DELETE -> Status.REMOVED;
          case MODIFY -> Status.MODIFIED;
          case RENAME -> Status.RENAMED;
        };
    String path =
        e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
    d.changedFiles++;
    FileMode oldMode = e.getOldMode();
    FileMode newMode = e.getNewMode();
    boolean blobs =
        (oldMode == FileMode.MISSING || oldMode.getObjectType() == Constants.OBJ_BLOB)
            && (newMode == FileMode.MISSING || newMode.getObjectType() == Constants.OBJ_BLOB);
    ObjectId oldId = e.getOldId().toObjectId();
    ObjectId newId = e.getNewId().toObjectId();
    boolean copy = e.getChangeType() == DiffEntry.ChangeType.COPY;
    if (!blobs || (oldId.equals(newId) && !copy)) {
      // a submodule pointer, moved unchanged, or a mode change only
      add(d, new FileChange(path, status, 0, 0, false));
      return;
    }
    byte[] a = oldMode == FileMode.MISSING || copy ? null : load(oldId, d);
    byte[] b = newMode == FileMode.MISSING ? null : load(newId, d);
    boolean binary =
        a == BINARY || b == BINARY || (a != null && isBinary(a)) || (b != null && isBinary(b));
    if (binary) {
      add(d, new FileChange(path, status, 0, 0, true));
      summaryLine(d, "Binary file " + path + " " + status.apiName());
      return;
    }
    boolean summarise = d.summary.length() < SUMMARY_CHARS;
    if (a == null || b == null) {
      // Added or removed: its lines, counted on the bytes.
      byte[] text = a == null ? b : a;
      int n = lines(text);
      add(d, new FileChange(path, status, a == null ? n : 0, a == null ? 0 : n, false));
      if (summarise) {
        summariseWhole(d, e.getOldPath(), path, status, text, n);
      }
      return;
    }
    // Only the lines between the common start and end (found on the bytes, what the diff algorithm
    // would find first
    // on the lines) are split and diffed; the summary keeps one line of context on either side.
    Middle m = middle(a, b, summarise ? 1 : 0);
    RawText oldText = new RawText(m.a);
    RawText newText = new RawText(m.b);
    EditList edits = diff.diff(RawTextComparator.DEFAULT, oldText, newText);
    int additions = 0;
    int deletions = 0;
    for (Edit edit : edits) {
      additions += edit.getLengthB();
      deletions += edit.getLengthA();
    }
    add(d, new FileChange(path, status, additions, deletions, false));
    if (summarise) {
      summarise(d, e.getOldPath(), path, status, edits, oldText, newText, m.firstLine);
    }
  }

  /**
   * The differing middle of two texts, whole lines, and the number of the line it starts on
   * (0-based).
   */
  record Middle(byte[] a, byte[] b, int firstLine) {}

  /**
   * Cuts the common leading and trailing whole lines off two texts, keeping {@code context} of them
   * on either side.
   */
  static Middle middle(byte[] a, byte[] b, int context) {
    int max = Math.min(a.length, b.length);
    int prefix = 0;
    while (prefix < max && a[prefix] == b[prefix]) {
      prefix++;
    }
    // Back to the start of the line the first difference is on, then context lines more.
    while (prefix > 0 && a[prefix - 1] != '\n') {
      prefix--;
    }
    for (int k = 0; k < context && prefix > 0; k++) {
      prefix--;
      while (prefix > 0 && a[prefix - 1] != '\n') {
        prefix--;
      }
    }
    int suffix = 0;
    while (suffix < max - prefix && a[a.length - 1 - suffix] == b[b.length - 1 - suffix]) {
      suffix++;
    }
    // The common end must start after a line feed inside it, so it is whole lines in both texts.
    int cut = a.length - suffix;
    while (suffix > 0 && a[cut] != '\n') {
      cut++;
      suffix--;
    }
    if (suffix > 0) {
      suffix--; // that line feed ends the last differing line
    }
    for (int k = 0; k < context && suffix > 0; k++) {
      int lf = a.length - suffix;
      while (lf < a.length && a[lf] != '\n') {
        lf++;
      }
      suffix = Math.max(0, a.length - (lf + 1));
    }
    int firstLine = 0;
    if (context > 0) {
      for (int i = 0; i < prefix; i++) {
        if (a[i] == '\n') {
          firstLine++;
        }
      }
    }
    return new Middle(
        java.util.Arrays.copyOfRange(a, prefix, Math.max(prefix, a.length - suffix)),
        java.util.Arrays.copyOfRange(b, prefix, Math.max(prefix, b.length - suffix)),
        firstLine);
  }

  /** Lines of a text as git counts them: line feeds, plus an unterminated last line. */
  static int lines(byte[] text) {
    int n = 0;
    for (byte c : text) {
      if (c == '\n') {
        n++;
      }
    }
    return text.length > 0 && text[text.length - 1] != '\n' ? n + 1 : n;
  }

  /** Git's rule: a NUL byte in the first 8,000 bytes makes a file binary. */
  static boolean isBinary(byte[] content) {
    int end = Math.min(content.length, 8_000);
    for (int i = 0; i < end; i++) {
      if (content[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static void add(Diff d, FileChange f) {
    d.additions += f.additions();
    d.deletions += f.deletions();
    if (d.files.size() < MAX_FILES) {
      d.files.add(f);
    }
  }

  /** A marker for a blob too large to diff. */
  private static final byte[] BINARY = new byte[0];

  private byte[] load(ObjectId id, Diff d) throws IOException {
    ObjectLoader loader;
    try {
      loader = reader.open(id, Constants.OBJ_BLOB);
    } catch (MissingObjectException e) {
      // A clone without some large blobs (partial clone, trimmed mirror): the file counts as
      // changed, size unknown.
      d.unreadableFiles++;
      return BINARY;
    }
    if (loader.getSize() > MAX_BLOB_BYTES) {
      return BINARY;
    }
    return loader.getCachedBytes((int) MAX_BLOB_BYTES);
  }

  /** The start of an added or removed file: its first lines, as one hunk. */
  private static void summariseWhole(
      Diff d, String oldPath, String path, Status status, byte[] text, int lines) {
    boolean added = status != Status.REMOVED;
    summaryLine(d, added ? "--- /dev/null" : "--- a/" + oldPath);
    summaryLine(d, added ? "+++ b/" + path : "+++ /dev/null");
    summaryLine(d, added ? "@@ -0,0 +1," + lines + " @@" : "@@ -1," + lines + " +0,0 @@");
    int room = SUMMARY_CHARS - d.summary.length();
    int end = Math.min(text.length, Math.max(0, room) * 4);
    RawText start = new RawText(java.util.Arrays.copyOf(text, end));
    for (int i = 0; i < start.size() && d.summary.length() < SUMMARY_CHARS; i++) {
      summaryLine(d, (added ? "+" : "-") + start.getString(i));
    }
  }

  /** Appends a one-line-context diff of one file while the summary has room. */
  private static void summarise(
      Diff d,
      String oldPath,
      String path,
      Status status,
      EditList edits,
      RawText a,
      RawText b,
      int firstLine) {
    summaryLine(d, (status == Status.ADDED ? "--- /dev/null" : "--- a/" + oldPath));
    summaryLine(d, (status == Status.REMOVED ? "+++ /dev/null" : "+++ b/" + path));
    for (Edit e : edits) {
      if (d.summary.length() >= SUMMARY_CHARS) {
        return;
      }
      int fromA = Math.max(0, e.getBeginA() - 1);
      int toA = Math.min(a.size(), e.getEndA() + 1);
      int fromB = Math.max(0, e.getBeginB() - 1);
      int toB = Math.min(b.size(), e.getEndB() + 1);
      summaryLine(
          d,
          "@@ -"
              + (firstLine + fromA + 1)
              + ","
              + (toA - fromA)
              + " +"
              + (firstLine + fromB + 1)
              + ","
              + (toB - fromB)
              + " @@");
      if (e.getBeginA() > 0 && e.getBeginA() - 1 < a.size()) {
        summaryLine(d, " " + a.getString(e.getBeginA() - 1));
      }
      for (int i = e.getBeginA(); i < e.getEndA() && d.summary.length() < SUMMARY_CHARS; i++) {
        summaryLine(d, "-" + a.getString(i));
      }
      for (int i = e.getBeginB(); i < e.getEndB() && d.summary.length() < SUMMARY_CHARS; i++) {
        summaryLine(d, "+" + b.getString(i));
      }
      if (e.getEndA() < a.size()) {
        summaryLine(d, " " + a.getString(e.getEndA()));
      }
    }
  }

  private static void summaryLine(Diff d, String line) {
    int room = SUMMARY_CHARS - d.summary.length();
    if (room <= 0) {
      return;
    }
    String cut =
        line.length() > SUMMARY_LINE_CHARS ? line.substring(0, SUMMARY_LINE_CHARS) + "…" : line;
    if (cut.length() + 1 > room) {
      d.summary.append(cut, 0, room);
    } else {
      d.summary.append(cut).append('\n');
    }
  }

  @Override
  public void close() {
    treeWalk.close();
  }
}
