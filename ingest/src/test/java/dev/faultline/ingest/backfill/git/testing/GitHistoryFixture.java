package dev.faultline.ingest.backfill.git.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TagBuilder;

/**
 * Builds a git repository for tests with JGit, commit by commit and with dates the test chooses: a
 * bare repository whose {@code HEAD} is {@code refs/heads/main}, like a mirror of a GitHub
 * repository. The files of the next commit are what {@link #write} and {@link #delete} left; {@link
 * #commit} records them on {@code main}.
 */
public final class GitHistoryFixture implements AutoCloseable {
  public static final String BRANCH = "refs/heads/main";

  private final Repository repository;
  private final Path dir;
  private final Map<String, byte[]> files = new TreeMap<>();
  private ObjectId head;

  private GitHistoryFixture(Repository repository, Path dir) {
    this.repository = repository;
    this.dir = dir;
  }

  /** A new bare repository in {@code dir}. */
  public static GitHistoryFixture create(Path dir) throws IOException {
    try (Git git =
        Git.init().setBare(true).setDirectory(dir.toFile()).setInitialBranch("main").call()) {
      return new GitHistoryFixture(git.getRepository(), dir);
    } catch (GitAPIException e) {
      throw new IOException(e);
    }
  }

  public Path dir() {
    return dir;
  }

  public ObjectId head() {
    return head;
  }

  public GitHistoryFixture write(String path, String text) {
    files.put(path, text.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  public GitHistoryFixture write(String path, byte[] content) {
    files.put(path, content.clone());
    return this;
  }

  public GitHistoryFixture delete(String path) {
    files.remove(path);
    return this;
  }

  /** The file's current text. */
  public String text(String path) {
    return new String(files.get(path), StandardCharsets.UTF_8);
  }

  /**
   * Commits the current files on {@code main} (its tip the first parent, then {@code
   * otherParents}).
   */
  public ObjectId commit(String message, Instant when, String authorEmail, ObjectId... otherParents)
      throws IOException {
    ObjectId[] parents = parents(otherParents);
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      CommitBuilder c = new CommitBuilder();
      c.setTreeId(tree(inserter));
      c.setParentIds(parents);
      PersonIdent who =
          new PersonIdent(
              authorEmail.substring(0, authorEmail.indexOf('@')),
              authorEmail,
              when,
              ZoneOffset.UTC);
      c.setAuthor(who);
      c.setCommitter(who);
      c.setMessage(message);
      ObjectId id = inserter.insert(c);
      inserter.flush();
      moveMain(id);
      return id;
    }
  }

  /** A commit off {@code parent} that {@code main} does not move to (a pull request's branch). */
  public ObjectId sideCommit(ObjectId parent, String message, Instant when) throws IOException {
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      CommitBuilder c = new CommitBuilder();
      c.setTreeId(tree(inserter));
      c.setParentIds(parent);
      PersonIdent who =
          new PersonIdent("contributor", "contributor@example.org", when, ZoneOffset.UTC);
      c.setAuthor(who);
      c.setCommitter(who);
      c.setMessage(message);
      ObjectId id = inserter.insert(c);
      inserter.flush();
      return id;
    }
  }

  /**
   * Commits the current files with a message of raw bytes and no encoding header (e.g. ISO-8859-1
   * bytes).
   */
  public ObjectId commitRawMessage(byte[] message, Instant when) throws IOException {
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      String ident = "Someone <someone@example.org> " + when.getEpochSecond() + " +0000";
      StringBuilder header = new StringBuilder("tree ").append(tree(inserter).name()).append('\n');
      for (ObjectId p : parents()) {
        header.append("parent ").append(p.name()).append('\n');
      }
      header
          .append("author ")
          .append(ident)
          .append('\n')
          .append("committer ")
          .append(ident)
          .append("\n\n");
      raw.writeBytes(header.toString().getBytes(StandardCharsets.US_ASCII));
      raw.writeBytes(message);
      ObjectId id = inserter.insert(Constants.OBJ_COMMIT, raw.toByteArray());
      inserter.flush();
      moveMain(id);
      return id;
    }
  }

  /** An annotated tag of {@code target}, dated {@code when}. */
  public void annotatedTag(String name, ObjectId target, Instant when) throws IOException {
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      TagBuilder t = new TagBuilder();
      t.setObjectId(target, Constants.OBJ_COMMIT);
      t.setTag(name);
      t.setTagger(new PersonIdent("release", "release@example.org", when, ZoneOffset.UTC));
      t.setMessage("Release " + name + "\n");
      ObjectId id = inserter.insert(t);
      inserter.flush();
      updateRef(Constants.R_TAGS + name, id);
    }
  }

  /** A lightweight tag: a ref to the commit, dated by the commit. */
  public void lightweightTag(String name, ObjectId target) throws IOException {
    updateRef(Constants.R_TAGS + name, target);
  }

  private ObjectId[] parents(ObjectId... others) {
    if (head == null) {
      return others;
    }
    ObjectId[] all = new ObjectId[others.length + 1];
    all[0] = head;
    System.arraycopy(others, 0, all, 1, others.length);
    return all;
  }

  private ObjectId tree(ObjectInserter inserter) throws IOException {
    DirCache index = DirCache.newInCore();
    DirCacheBuilder builder = index.builder();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      DirCacheEntry e = new DirCacheEntry(f.getKey());
      e.setFileMode(FileMode.REGULAR_FILE);
      e.setObjectId(inserter.insert(Constants.OBJ_BLOB, f.getValue()));
      builder.add(e);
    }
    builder.finish();
    return index.writeTree(inserter);
  }

  private void moveMain(ObjectId id) throws IOException {
    updateRef(BRANCH, id);
    head = id;
  }

  private void updateRef(String name, ObjectId id) throws IOException {
    RefUpdate u = repository.updateRef(name);
    u.setNewObjectId(id);
    RefUpdate.Result r = u.forceUpdate();
    if (r != RefUpdate.Result.NEW
        && r != RefUpdate.Result.FORCED
        && r != RefUpdate.Result.FAST_FORWARD) {
      throw new IOException("Could not move " + name + ": " + r);
    }
  }

  @Override
  public void close() {
    repository.close();
  }
}
