package dev.faultline.ingest.backfill.git;

import dev.faultline.ingest.backfill.git.MergedChange.Kind;
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
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
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
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * Reads the fix history of a local clone (working tree or bare mirror) with JGit: the first-parent
 * history of the default branch as {@link MergedChange}s and the release tags as {@link
 * ReleaseTag}s. Not thread-safe; one reader keeps one {@link ObjectReader}, one {@link RevWalk} and
 * one {@link TreeWalk} for the whole run.
 *
 * <p>Sizes and the diff summary are {@link ChangeDiffer}'s ({@code git log --numstat}'s counts).
 */
public final class GitHistoryReader implements AutoCloseable {
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
  private final ChangeDiffer differ;

  private GitHistoryReader(Repository repository, String repo) {
    this.repository = repository;
    this.repo = repo;
    this.reader = repository.newObjectReader();
    this.walk = new RevWalk(reader);
    this.differ = new ChangeDiffer(reader, repository.getConfig().get(DiffConfig.KEY));
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
    cache.setStreamFileThreshold((int) ChangeDiffer.MAX_BLOB_BYTES);
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
    ChangeDiffer.Diff d = differ.diff(parent, c);
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

  public Repository repository() {
    return repository;
  }

  @Override
  public void close() {
    differ.close();
    walk.close();
    reader.close();
    repository.close();
  }
}
