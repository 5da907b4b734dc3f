package dev.faultline.ingest.backfill.git;

import dev.faultline.ingest.backfill.git.MergedChange.FileChange;
import dev.faultline.ingest.backfill.git.MergedChange.Kind;
import dev.faultline.ingest.backfill.git.MergedChange.Status;
import dev.faultline.schemas.ClosingReferences;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevTag;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.storage.file.WindowCacheConfig;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * Reads the fix history of a local clone (working tree or bare mirror) with JGit: the first-parent
 * history of the default branch as {@link MergedChange}s and the release tags as {@link
 * ReleaseTag}s. Not thread-safe; one reader keeps one {@link ObjectReader}, one {@link RevWalk} and
 * one {@link TreeWalk} for the whole run.
 *
 * <p>Sizes are {@code git log --numstat}'s: lines added and deleted per file against the first
 * parent (histogram diff), a binary file (a NUL byte in its first 8,000 bytes, or larger than
 * {@link #MAX_BLOB_BYTES}) counts as changed with 0/0. Renames are detected as git does by default
 * (50% similar content, only in changes that both add and remove files, at most 1,000 candidates);
 * a file moved and edited counts its edited lines.
 */
public final class GitHistoryReader implements AutoCloseable {
  /** Files listed per change (all are counted). */
  public static final int MAX_FILES = 300;

  /** Characters of the diff summary. */
  public static final int SUMMARY_CHARS = 2_500;

  /** Longest line of the diff summary. */
  static final int SUMMARY_LINE_CHARS = 160;

  /** Blobs larger than this are not diffed: counted as binary. */
  public static final long MAX_BLOB_BYTES = 16L << 20;

  private static final Pattern MERGE_PR =
      Pattern.compile("^Merge pull request #(\\d{1,9}) from (\\S+)");
  private static final Pattern SQUASH = Pattern.compile("^(.*?)\\s*\\(#(\\d{1,9})\\)$");
  private static final Pattern NOREPLY =
      Pattern.compile(
          "^(?:\\d+\\+)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))@users\\.noreply\\.github\\.com$");

  private final Repository repository;
  private final String repo;
  private final ObjectReader reader;
  private final RevWalk walk;
  private final TreeWalk treeWalk;
  private final DiffAlgorithm diff =
      DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM);
  private final RenameDetector renames;

  private GitHistoryReader(Repository repository, String repo) {
    this.repository = repository;
    this.repo = repo;
    this.reader = repository.newObjectReader();
    this.walk = new RevWalk(reader);
    this.treeWalk = new TreeWalk(reader);
    treeWalk.setRecursive(true);
    this.renames = new RenameDetector(reader, repository.getConfig().get(DiffConfig.KEY));
    renames.setRenameScore(50);
    renames.setRenameLimit(1000);
  }

  /**
   * Opens the clone at {@code dir}: a working tree (with {@code .git}) or a git directory (a bare
   * mirror).
   *
   * @param repo the GitHub repository it is a clone of ({@code owner/name}), for same-repository
   *     closing references
   * @throws NotARepositoryException when {@code dir} is not a git repository
   */
  public static GitHistoryReader open(Path dir, String repo) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new NotARepositoryException(
          dir + " is not a directory: give the path of a clone (or a bare mirror)");
    }
    FileRepositoryBuilder builder = new FileRepositoryBuilder().setMustExist(true);
    if (Files.exists(dir.resolve(Constants.DOT_GIT))) {
      builder.setWorkTree(dir.toFile());
    } else {
      builder.setGitDir(dir.toFile());
    }
    Repository repository;
    try {
      repository = builder.build();
    } catch (RepositoryNotFoundException | IllegalArgumentException e) {
      throw new NotARepositoryException(
          dir + " is not a git repository (no objects/refs/HEAD found there)");
    }
    if (!repository.getObjectDatabase().exists()) {
      repository.close();
      throw new NotARepositoryException(dir + " is not a git repository (no object database)");
    }
    return new GitHistoryReader(repository, repo);
  }

  /**
   * Sizes JGit's process-wide pack cache for reading a whole history once: larger windows and delta
   * base cache than JGit's defaults (10 MiB, 8 KiB, 10 MiB), which re-inflate the same delta chains
   * over and over on a big pack. Call once from the command's wiring, before opening the
   * repository.
   */
  public static void useLargePackCache() {
    WindowCacheConfig cache = new WindowCacheConfig();
    cache.setPackedGitLimit(128L << 20);
    cache.setPackedGitWindowSize(64 << 10);
    cache.setDeltaBaseCacheLimit(32 << 20);
    cache.setStreamFileThreshold((int) MAX_BLOB_BYTES);
    cache.install();
  }

  /** The path or the content of the repository is not what a clone is. */
  public static final class NotARepositoryException extends IOException {
    public NotARepositoryException(String message) {
      super(message);
    }
  }

  private static final Pattern GITHUB_REMOTE =
      Pattern.compile(
          "(?:https?://(?:[^@/]+@)?github\\.com/|git@github\\.com:|ssh://git@github\\.com/)([^/]+/[^/]+?)(?:\\.git)?/?");

  /**
   * The GitHub repository ({@code owner/name}) the clone's {@code origin} remote points at, when it
   * names one.
   */
  public Optional<String> originRepository() {
    String url = repository.getConfig().getString("remote", "origin", "url");
    if (url == null) {
      return Optional.empty();
    }
    Matcher m = GITHUB_REMOTE.matcher(url.strip());
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /**
   * The default branch: what {@code HEAD} points at, else {@code refs/heads/main} or {@code
   * refs/heads/master}; {@code branch} (a short or full ref name) overrides it.
   *
   * @throws NotARepositoryException when there is no such branch (an empty repository)
   */
  public Ref defaultBranch(Optional<String> branch) throws IOException {
    if (branch.isPresent()) {
      Ref ref = repository.findRef(branch.get());
      if (ref == null || ref.getObjectId() == null) {
        throw new NotARepositoryException(
            "no branch " + branch.get() + " in " + repository.getDirectory());
      }
      return ref;
    }
    Ref head = repository.exactRef(Constants.HEAD);
    if (head != null && head.getObjectId() != null) {
      return head.getTarget();
    }
    for (String name : List.of("refs/heads/main", "refs/heads/master")) {
      Ref ref = repository.exactRef(name);
      if (ref != null && ref.getObjectId() != null) {
        return ref;
      }
    }
    throw new NotARepositoryException(
        repository.getDirectory()
            + " has no commits on HEAD, main or master: name the branch with --branch");
  }

  /** The first-parent history of {@code tip} committed in {@code [since, until)}, oldest first. */
  public List<ObjectId> firstParentHistory(
      Ref tip, Optional<Instant> since, Optional<Instant> until) throws IOException {
    long from = since.map(Instant::getEpochSecond).orElse(Long.MIN_VALUE);
    long to = until.map(Instant::getEpochSecond).orElse(Long.MAX_VALUE);
    List<ObjectId> commits = new ArrayList<>();
    try (RevWalk w = new RevWalk(reader)) {
      w.setFirstParent(true);
      w.setRetainBody(false);
      w.markStart(w.parseCommit(tip.getObjectId()));
      for (RevCommit c : w) {
        long t = c.getCommitTime();
        if (t >= from && t < to) {
          commits.add(c.copy());
        }
      }
    }
    Collections.reverse(commits);
    return commits;
  }

  /**
   * Reads one commit of the first-parent history as a merged change.
   *
   * @throws IOException when an object it needs is missing or corrupt (a shallow or damaged clone)
   */
  public MergedChange read(ObjectId id) throws IOException {
    RevCommit c = walk.parseCommit(id);
    walk.parseBody(c);
    RevCommit parent = c.getParentCount() > 0 ? walk.parseCommit(c.getParent(0)) : null;
    boolean[] lenient = new boolean[1];
    String message = message(c, lenient);
    int nl = message.indexOf('\n');
    String firstLine = (nl < 0 ? message : message.substring(0, nl)).strip();
    String rest = nl < 0 ? "" : message.substring(nl + 1).strip();

    Kind kind = Kind.DIRECT;
    Integer number = null;
    String title = firstLine;
    String body = rest;
    String login = null;
    Matcher merge = MERGE_PR.matcher(firstLine);
    Matcher squash = SQUASH.matcher(firstLine);
    if (c.getParentCount() >= 2 && merge.find()) {
      kind = Kind.MERGE;
      number = Integer.parseInt(merge.group(1));
      int slash = merge.group(2).indexOf('/');
      login = slash > 0 ? merge.group(2).substring(0, slash) : null;
      // GitHub puts the pull request's title on the first line of the body.
      int end = rest.indexOf('\n');
      title = rest.isEmpty() ? firstLine : (end < 0 ? rest : rest.substring(0, end)).strip();
      body = rest.isEmpty() || end < 0 ? "" : rest.substring(end + 1).strip();
    } else if (squash.matches() && !squash.group(1).isBlank()) {
      kind = Kind.SQUASH;
      number = Integer.parseInt(squash.group(2));
      title = squash.group(1);
    }
    PersonIdent author = c.getAuthorIdent();
    if (login == null) {
      Matcher m = NOREPLY.matcher(author.getEmailAddress());
      login = m.matches() ? m.group(1) : null;
    }
    Diff d = diff(parent, c);
    // Only trees are needed of commits read already (the next one's parent) or by another reader
    // (this one's
    // parent, with --threads): their messages would otherwise stay in memory for the whole run.
    c.disposeBody();
    if (parent != null) {
      parent.disposeBody();
    }
    return new MergedChange(
        c.name(),
        kind,
        number,
        title,
        body,
        author.getName(),
        login,
        author.getWhenAsInstant(),
        Instant.ofEpochSecond(c.getCommitTime()),
        d.files,
        d.changedFiles,
        d.additions,
        d.deletions,
        ClosingReferences.in(repo, message),
        d.summary.toString(),
        d.unreadableFiles,
        lenient[0]);
  }

  /**
   * The message in its declared encoding (UTF-8 when none is declared); bytes that are not valid in
   * it are read as ISO-8859-1, which maps every byte, and {@code lenient[0]} is set.
   */
  static String message(RevCommit c, boolean[] lenient) {
    byte[] raw = c.getRawBuffer();
    int start = RawParseUtils.commitMessage(raw, 0);
    if (start < 0) {
      return "";
    }
    Charset charset;
    try {
      charset = c.getEncoding();
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      charset = StandardCharsets.UTF_8;
      lenient[0] = true;
    }
    try {
      return charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw, start, raw.length - start))
          .toString();
    } catch (CharacterCodingException e) {
      lenient[0] = true;
      return new String(raw, start, raw.length - start, StandardCharsets.ISO_8859_1);
    }
  }

  /** Release tags (by {@code patterns}) dated in {@code [since, until)}, oldest first. */
  public List<ReleaseTag> releaseTags(
      ReleaseTagPatterns patterns, Optional<Instant> since, Optional<Instant> until)
      throws IOException {
    List<ReleaseTag> tags = new ArrayList<>();
    try (RevWalk w = new RevWalk(reader)) {
      for (Ref ref : repository.getRefDatabase().getRefsByPrefix(Constants.R_TAGS)) {
        String name = ref.getName().substring(Constants.R_TAGS.length());
        if (!patterns.isRelease(name) || ref.getObjectId() == null) {
          continue;
        }
        RevObject object = w.parseAny(ref.getObjectId());
        Instant date = null;
        boolean annotated = object instanceof RevTag;
        if (object instanceof RevTag tag && tag.getTaggerIdent() != null) {
          date = tag.getTaggerIdent().getWhenAsInstant();
        }
        RevObject target = w.peel(object);
        if (!(target instanceof RevCommit commit)) {
          continue; // a tag of a tree or a blob names no release
        }
        if (date == null) {
          date = Instant.ofEpochSecond(w.parseCommit(commit).getCommitTime());
        }
        if (since.isPresent() && date.isBefore(since.get())
            || until.isPresent() && !date.isBefore(until.get())) {
          continue;
        }
        tags.add(
            new ReleaseTag(
                name, commit.name(), date, annotated, ReleaseTagPatterns.isPrerelease(name)));
      }
    }
    tags.sort(Comparator.comparing(ReleaseTag::date).thenComparing(ReleaseTag::name));
    return tags;
  }

  private static final class Diff {
    final List<FileChange> files = new ArrayList<>();
    final StringBuilder summary = new StringBuilder();
    int changedFiles;
    int unreadableFiles;
    int additions;
    int deletions;
  }

  private Diff diff(RevCommit parent, RevCommit commit) throws IOException {
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

  /** Appends a one-line-context diff of one file while the summary has room. */
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

  public Repository repository() {
    return repository;
  }

  @Override
  public void close() {
    treeWalk.close();
    walk.close();
    reader.close();
    repository.close();
  }
}
