package dev.faultline.ingest.backfill;

import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.backfill.git.GitHistoryReader;
import dev.faultline.ingest.backfill.git.ReleaseTagPatterns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code faultline backfill git}: a local clone's fix history and release tags as deliveries
 * ({@link GitBackfill}), resumable; with {@code --dry-run} read and counted only.
 */
@Command(
    name = "git",
    description = {
      "A local clone's fix history (no token, no network).",
      "",
      "The fix history of a local clone (a bare mirror too), read with JGit: every merged change of the",
      "first-parent history of the default branch (squash merges \"Title (#123)\", merge commits \"Merge pull",
      "request #123 from ...\", direct commits) as a merged pull_request with its size, files and closing",
      "references, and the release tags as releases. No token, no network. Resumable: re-run the same command."
    })
final class GitSource extends CliCommand {
  private final BackfillCommand backfill;

  GitSource(BackfillCommand backfill) {
    this.backfill = backfill;
  }

  @Mixin BackfillCommand.Common common;

  @Option(
      names = "--repo",
      paramLabel = "OWNER/NAME",
      required = true,
      description = "the GitHub repository GIT_DIR is a clone of")
  List<String> repos = new ArrayList<>();

  @Option(
      names = "--since",
      paramLabel = "DATE",
      converter = BackfillCommand.DateConverter.class,
      description = "changes committed (tags dated) since DATE; default: from the first commit")
  Instant since;

  @Option(
      names = "--until",
      paramLabel = "DATE",
      converter = BackfillCommand.DateConverter.class,
      description = "changes committed before DATE; default: up to the branch's tip")
  Instant until;

  @Option(
      names = "--branch",
      paramLabel = "NAME",
      description = "a branch other than the default one (HEAD, else main or master)")
  String branch;

  @Option(
      names = "--tag-pattern",
      paramLabel = "REGEX",
      description =
          "release tags (regex on the whole name); default per framework: v0.16.4-like tags for DeepSpeed,"
              + " core_v0.10.0 and v2.5 for Megatron-LM, v?N.N[.N][rcN] otherwise")
  String tagPattern;

  @Option(names = "--dry-run", description = "read and count, publish nothing")
  boolean dryRun;

  @Option(
      names = "--checkpoint",
      paramLabel = "FILE",
      description = "progress file (default .faultline/backfill/git-checkpoint.properties)")
  Path checkpoint;

  @Option(
      names = "--checkpoint-every",
      paramLabel = "N",
      description = "changes between checkpoints")
  int checkpointEvery = 500;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "threads diffing commits, each with its own reader (default: cores, at most 4)")
  int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  @Parameters(paramLabel = "GIT_DIR", arity = "0..*", description = "the clone")
  List<Path> dirs = new ArrayList<>();

  @Override
  public Integer call() {
    if (threads < 1 || threads > 64) {
      throw usageError("--threads must be a number from 1 to 64, not '" + threads + "'");
    }
    if (checkpointEvery < 1) {
      throw usageError(
          "--checkpoint-every must be a positive number of changes, not '" + checkpointEvery + "'");
    }
    return BackfillCommand.guarded(this::git, err);
  }

  private int git() throws IOException {
    String repo = gitRepository();
    ReleaseTagPatterns tags;
    try {
      tags =
          tagPattern != null
              ? ReleaseTagPatterns.of(tagPattern)
              : ReleaseTagPatterns.forRepository(repo);
    } catch (IllegalArgumentException e) {
      throw new BackfillCommand.UsageException(e.getMessage());
    }
    GitBackfill.Range range =
        new GitBackfill.Range(
            Optional.ofNullable(since), Optional.ofNullable(until), Optional.ofNullable(branch));
    GitHistoryReader.useLargePackCache();
    long started = System.nanoTime();
    GitBackfill.Counts counts = gitBackfill(repo, range, tags);
    printGitCounts(repo, counts, (System.nanoTime() - started) / 1e9);
    return 0;
  }

  /** The one repository of a git backfill, with the usage checks of its other options. */
  private String gitRepository() {
    if (repos.size() != 1) {
      throw new BackfillCommand.UsageException(
          "git needs exactly one --repo OWNER/NAME (the repository GIT_DIR is a clone of)");
    }
    String repo = repos.get(0).trim();
    try {
      RepositoryFilter.of(List.of(repo));
    } catch (IllegalArgumentException e) {
      throw new BackfillCommand.UsageException("--repo: " + e.getMessage());
    }
    if (dirs.size() != 1) {
      throw new BackfillCommand.UsageException(
          "git needs the path of one clone (GIT_DIR), got " + dirs.size());
    }
    if (since != null && until != null && !since.isBefore(until)) {
      throw new BackfillCommand.UsageException(
          "--since must be before --until: the range is empty");
    }
    return repo;
  }

  /** Reads the clone's history and sends (or, in a dry run, only builds) its deliveries. */
  private GitBackfill.Counts gitBackfill(
      String repo, GitBackfill.Range range, ReleaseTagPatterns tags) throws IOException {
    GitBackfill.Counts counts;
    List<GitHistoryReader> helpers = new ArrayList<>();
    try (GitHistoryReader reader = GitHistoryReader.open(dirs.get(0), repo)) {
      for (int t = 1; t < threads; t++) {
        helpers.add(GitHistoryReader.open(dirs.get(0), repo));
      }
      reader
          .originRepository()
          .filter(origin -> !origin.equalsIgnoreCase(repo))
          .ifPresent(
              origin ->
                  out.printf(
                      "git: warning: %s is a clone of %s (its origin remote), not of %s; its changes are recorded"
                          + " as %s's%n",
                      dirs.get(0), origin, repo, repo));
      GitDeliveries deliveries = new GitDeliveries(backfill.mapper(), repo, backfill.clock());
      Progress progress = Progress.forConsole("git " + repo, "changes", out);
      if (dryRun) {
        counts =
            new GitBackfill(reader, deliveries, Optional.empty(), repo, checkpointEvery, helpers)
                .run(range, tags, countingSink(), progress);
      } else {
        Checkpoint progressFile =
            Checkpoint.load(
                checkpoint == null
                    ? Path.of(".faultline", "backfill", "git-checkpoint.properties")
                    : checkpoint);
        try (DeliveryPublisher publisher = backfill.publisher(common)) {
          Publishing publishing = new Publishing(publisher, 2_000, Duration.ofMinutes(2));
          GitBackfill.Sink sink =
              new GitBackfill.Sink() {
                @Override
                public void accept(BackfillDelivery d) {
                  publishing.accept(d);
                }

                @Override
                public void flush() throws IOException {
                  publishing.flush();
                }
              };
          counts =
              new GitBackfill(
                      reader, deliveries, Optional.of(progressFile), repo, checkpointEvery, helpers)
                  .run(range, tags, sink, progress);
        }
      }
      progress.finish(counts.changes());
    } catch (GitHistoryReader.NotARepositoryException | GitBackfill.EmptyRangeException e) {
      throw new BackfillCommand.UsageException(e.getMessage());
    } finally {
      helpers.forEach(GitHistoryReader::close);
    }
    return counts;
  }

  private void printGitCounts(String repo, GitBackfill.Counts counts, double seconds) {
    out.printf(
        Locale.ROOT,
        "git: %s (%s): %d commits in range%s; %d merged changes (%d squash, %d merge commits, %d direct), "
            + "%d with closing references (%d references), %d release tags, %d files, +%d -%d lines; "
            + "%d skipped (unreadable), %d messages decoded leniently; %s in %.1f s (%.0f changes/s)%n",
        repo,
        counts.branch(),
        counts.commitsInRange(),
        counts.resumedAfter() > 0 ? " (resumed after " + counts.resumedAfter() + ")" : "",
        counts.changes(),
        counts.squash(),
        counts.merge(),
        counts.direct(),
        counts.withClosingReferences(),
        counts.closingReferences(),
        counts.releases(),
        counts.files(),
        counts.additions(),
        counts.deletions(),
        counts.skipped(),
        counts.leniencyDecoded(),
        dryRun ? "dry run, nothing published" : "published to " + common.topic,
        seconds,
        counts.changes() / Math.max(seconds, 1e-9));
  }

  /** Dry runs still build every delivery (so the read side is measured whole), then drop it. */
  private static GitBackfill.Sink countingSink() {
    return new GitBackfill.Sink() {
      long bytes;

      @Override
      public void accept(BackfillDelivery d) {
        bytes += d.delivery().getPayloadJson().length();
      }

      @Override
      public void flush() {}
    };
  }
}
