package dev.faultline.ingest.backfill;

import dev.faultline.ingest.backfill.git.GitHistoryReader;
import dev.faultline.ingest.backfill.git.MergedChange;
import dev.faultline.ingest.backfill.git.ReleaseTag;
import dev.faultline.ingest.backfill.git.ReleaseTagPatterns;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backfills the fix history of one local clone: its release tags, then every merged change of the
 * first-parent history of the default branch, oldest first, through the delivery topic.
 *
 * <p>Resumable: after every {@value #CHECKPOINT_EVERY} changes (all acknowledged by Kafka) the
 * checkpoint records the last commit sent; an interrupted run started again with the same range
 * continues after it. Changes sent after the last checkpoint are sent again, with the same delivery
 * ids and payloads, which the pipeline and the graph absorb (newest state by {@code updated_at},
 * MERGE on keys). A completed run clears its checkpoint: running it again sends the history again,
 * and the graph does not change.
 */
public final class GitBackfill {
  private static final Logger LOG = LoggerFactory.getLogger(GitBackfill.class);
  static final int CHECKPOINT_EVERY = 500;

  /** Where deliveries go: accepted asynchronously, {@link #flush} waits until all are durable. */
  public interface Sink extends Consumer<BackfillDelivery> {
    void flush() throws IOException;

    /** A sink that drops everything (dry runs). */
    Sink DISCARD =
        new Sink() {
          @Override
          public void accept(BackfillDelivery d) {}

          @Override
          public void flush() {}
        };
  }

  /**
   * What to backfill.
   *
   * @param since changes committed (tags dated) at or after; empty: from the first commit
   * @param until changes committed before; empty: up to the branch's tip
   * @param branch a branch instead of the default one
   */
  public record Range(Optional<Instant> since, Optional<Instant> until, Optional<String> branch) {
    String fingerprint() {
      return since.map(Instant::toString).orElse("-")
          + "|"
          + until.map(Instant::toString).orElse("-")
          + "|"
          + branch.orElse("-");
    }
  }

  /** What a run did. */
  public record Counts(
      String branch,
      long commitsInRange,
      long resumedAfter,
      long changes,
      long squash,
      long merge,
      long direct,
      long withClosingReferences,
      long closingReferences,
      long releases,
      long skipped,
      long leniencyDecoded,
      long files,
      long additions,
      long deletions) {}

  /**
   * The range has no commits: nothing to backfill, most likely a mistake in --since/--until or the
   * path.
   */
  public static final class EmptyRangeException extends IOException {
    EmptyRangeException(String message) {
      super(message);
    }
  }

  private final GitHistoryReader reader;

  /**
   * The merged changes of the commits from {@code start} on, in order: read by this thread alone,
   * or by a pool of threads each with its own reader, a bounded window ahead of the one sending.
   */
  private final class Reads implements AutoCloseable {
    private final List<ObjectId> commits;
    private int next;
    private final ExecutorService pool;
    private final BlockingQueue<GitHistoryReader> idle;
    private final Deque<Future<MergedChange>> ahead = new ArrayDeque<>();
    private final int window;

    Reads(List<ObjectId> commits, int start) {
      this.commits = commits;
      this.next = start;
      if (helpers.isEmpty()) {
        pool = null;
        idle = null;
        window = 0;
      } else {
        List<GitHistoryReader> all = new ArrayList<>(helpers);
        all.add(0, reader);
        idle = new ArrayBlockingQueue<>(all.size(), false, all);
        AtomicInteger n = new AtomicInteger();
        pool =
            Executors.newFixedThreadPool(
                all.size(),
                r -> {
                  Thread t = new Thread(r, "git-read-" + n.incrementAndGet());
                  t.setDaemon(true);
                  return t;
                });
        window = 8 * all.size();
      }
    }

    MergedChange next() throws IOException {
      if (pool == null) {
        return reader.read(commits.get(next++));
      }
      while (ahead.size() < window && next < commits.size()) {
        ObjectId id = commits.get(next++);
        ahead.add(
            pool.submit(
                () -> {
                  GitHistoryReader r = idle.take();
                  try {
                    return r.read(id);
                  } finally {
                    idle.put(r);
                  }
                }));
      }
      try {
        return ahead.poll().get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof IOException io) {
          throw io;
        }
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw new IOException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while reading the history", e);
      }
    }

    @Override
    public void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  private final GitDeliveries deliveries;
  private final Optional<Checkpoint> checkpoint;
  private final String repo;
  private final int checkpointEvery;
  private final List<GitHistoryReader> helpers;

  /**
   * @param checkpoint empty for a dry run (nothing is recorded)
   */
  public GitBackfill(
      GitHistoryReader reader,
      GitDeliveries deliveries,
      Optional<Checkpoint> checkpoint,
      String repo) {
    this(reader, deliveries, checkpoint, repo, CHECKPOINT_EVERY, List.of());
  }

  /**
   * @param checkpointEvery changes between checkpoints
   * @param helpers more readers of the same clone: commits are then read (diffed) by {@code 1 +
   *     helpers.size()} threads, each with its own reader, and still sent in history order
   */
  public GitBackfill(
      GitHistoryReader reader,
      GitDeliveries deliveries,
      Optional<Checkpoint> checkpoint,
      String repo,
      int checkpointEvery,
      List<GitHistoryReader> helpers) {
    this.reader = reader;
    this.deliveries = deliveries;
    this.checkpoint = checkpoint;
    this.repo = repo;
    this.checkpointEvery = checkpointEvery;
    this.helpers = List.copyOf(helpers);
  }

  public Counts run(Range range, ReleaseTagPatterns tagPatterns, Sink sink, Progress progress)
      throws IOException {
    String prefix = "git." + repo.toLowerCase(Locale.ROOT) + ".";
    Ref branch = reader.defaultBranch(range.branch());
    List<ObjectId> commits = reader.firstParentHistory(branch, range.since(), range.until());
    if (commits.isEmpty()) {
      throw new EmptyRangeException(
          "no commits on "
              + branch.getName()
              + range.since().map(s -> " since " + s).orElse("")
              + range.until().map(u -> " before " + u).orElse("")
              + ": nothing to backfill");
    }
    int start = checkpoint.isPresent() ? resumeAt(checkpoint.get(), prefix, range, commits) : 0;

    long releases = 0;
    for (ReleaseTag tag : reader.releaseTags(tagPatterns, range.since(), range.until())) {
      sink.accept(deliveries.release(tag));
      releases++;
    }
    sink.flush();

    Tally tally = sendChanges(commits, start, prefix, sink, progress);
    sink.flush();
    if (checkpoint.isPresent()) {
      checkpoint.get().removePrefix(prefix);
      checkpoint.get().put(prefix + "completed", commits.get(commits.size() - 1).name());
      checkpoint.get().save();
    }
    return new Counts(
        branch.getName(),
        commits.size(),
        start,
        tally.changes,
        tally.squash,
        tally.merge,
        tally.direct,
        tally.withRefs,
        tally.refs,
        releases,
        tally.skipped,
        tally.lenient,
        tally.files,
        tally.additions,
        tally.deletions);
  }

  /**
   * Where to start in {@code commits}: after the checkpoint's last sent commit when it was taken
   * over the same range and that commit is still in it, else at the beginning. Restarts the
   * checkpoint's record of this repository for the range.
   */
  private int resumeAt(Checkpoint cp, String prefix, Range range, List<ObjectId> commits)
      throws IOException {
    int start = 0;
    Optional<String> last = cp.get(prefix + "last");
    if (last.isPresent() && range.fingerprint().equals(cp.get(prefix + "range").orElse(null))) {
      int at = commits.indexOf(ObjectId.fromString(last.get()));
      if (at >= 0) {
        start = at + 1;
        LOG.info(
            "Resuming {} after {} ({} of {} changes already sent)",
            repo,
            last.get(),
            start,
            commits.size());
      } else {
        LOG.info(
            "The checkpoint's commit {} is not in the range any more: starting {} afresh",
            last.get(),
            repo);
      }
    }
    cp.removePrefix(prefix);
    cp.put(prefix + "range", range.fingerprint());
    cp.save();
    return start;
  }

  /** What the changes sent so far were. */
  private static final class Tally {
    long changes;
    long squash;
    long merge;
    long direct;
    long withRefs;
    long refs;
    long skipped;
    long lenient;
    long files;
    long additions;
    long deletions;

    void count(MergedChange change) {
      changes++;
      switch (change.kind()) {
        case SQUASH -> squash++;
        case MERGE -> merge++;
        case DIRECT -> direct++;
      }
      if (!change.closingReferences().isEmpty()) {
        withRefs++;
        refs += change.closingReferences().size();
      }
      files += change.changedFiles();
      additions += change.additions();
      deletions += change.deletions();
    }
  }

  /** Reads and sends the changes from {@code start} on, in history order, with checkpoints. */
  private Tally sendChanges(
      List<ObjectId> commits, int start, String prefix, Sink sink, Progress progress)
      throws IOException {
    Tally tally = new Tally();
    int total = commits.size() - start;
    try (Reads reads = new Reads(commits, start)) {
      for (int i = start; i < commits.size(); i++) {
        ObjectId id = commits.get(i);
        MergedChange change;
        try {
          change = reads.next();
        } catch (IOException | RuntimeException e) {
          LOG.warn("Skipping commit {}: it cannot be read ({})", id.name(), e.toString());
          tally.skipped++;
          continue;
        }
        if (change.leniencyDecoded()) {
          LOG.warn("Commit {}: message is not valid in its encoding, decoded leniently", id.name());
          tally.lenient++;
        }
        sink.accept(deliveries.change(change));
        tally.count(change);
        int done = i - start + 1;
        progress.update(tally.changes, done / (double) total);
        if (checkpoint.isPresent() && (done % checkpointEvery == 0)) {
          sink.flush();
          checkpoint.get().put(prefix + "last", id.name());
          checkpoint.get().save();
        }
      }
    }
    return tally;
  }
}
