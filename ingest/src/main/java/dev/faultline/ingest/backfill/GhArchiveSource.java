package dev.faultline.ingest.backfill;

import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.DeliveryPublisher;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code faultline backfill gharchive}: GH Archive hourly files, streamed, the chosen repositories'
 * events published as deliveries ({@link GhArchiveReader}).
 */
@Command(
    name = "gharchive",
    description = {
      "GH Archive hourly files.",
      "",
      "GH Archive hourly files (https://www.gharchive.org/, *.json.gz, streamed). Keeps IssuesEvent,",
      "IssueCommentEvent, PullRequestEvent and ReleaseEvent of the chosen repositories."
    })
final class GhArchiveSource extends CliCommand {
  private final BackfillCommand backfill;

  GhArchiveSource(BackfillCommand backfill) {
    this.backfill = backfill;
  }

  @Mixin BackfillCommand.Common common;

  @Option(
      names = "--repos",
      paramLabel = "A/B,C/D",
      split = ",",
      description = "repositories to keep (default: the tracked ones, below)")
  List<String> repos = new ArrayList<>();

  @Option(
      names = "--threads",
      paramLabel = "N",
      description =
          "threads decoding events (default: cores, at most 4); the file is read and sent in order")
  int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = "GH Archive hourly files (*.json.gz)")
  List<Path> files = new ArrayList<>();

  @Override
  public Integer call() {
    if (threads < 1 || threads > 64) {
      throw usageError("--threads must be a number from 1 to 64, not '" + threads + "'");
    }
    return BackfillCommand.guarded(this::gharchive, err);
  }

  private int gharchive() throws IOException {
    if (files.isEmpty()) {
      throw new BackfillCommand.UsageException(
          "gharchive needs at least one file (GH Archive hourly *.json.gz)");
    }
    long totalBytes = 0;
    for (Path f : files) {
      if (!Files.isRegularFile(f)) {
        throw new BackfillCommand.UsageException("no such file: " + f);
      }
      totalBytes += Files.size(f);
    }
    RepositoryFilter filter =
        repos.isEmpty() ? RepositoryFilter.defaults() : RepositoryFilter.of(repos);
    GhArchiveReader reader = new GhArchiveReader(backfill.mapper(), filter, backfill.clock());
    Progress progress = Progress.forConsole("gharchive", out);
    long started = System.nanoTime();
    long events = 0;
    long kept = 0;
    long before = 0;
    try (DeliveryPublisher publisher = backfill.publisher(common)) {
      Publishing sink = new Publishing(publisher, 10_000, Duration.ofMinutes(2));
      for (Path f : files) {
        final long offset = before;
        final long total = totalBytes;
        try (CountingStream counted = new CountingStream(Files.newInputStream(f));
            InputStream in = open(f, counted)) {
          final long eventsBefore = events;
          GhArchiveReader.Counts counts =
              reader.read(
                  in,
                  d -> {
                    sink.accept(d);
                    progress.update(sink.acknowledged(), (offset + counted.count) / (double) total);
                  },
                  threads);
          events = eventsBefore + counts.events();
          kept += counts.kept();
        } catch (IOException e) {
          throw new IOException(f + ": " + e.getMessage(), e);
        }
        before += Files.size(f);
      }
      sink.flush();
    }
    progress.finish(kept);
    double seconds = (System.nanoTime() - started) / 1e9;
    out.printf(
        "gharchive: %d files, %d events read, %d kept for %s, published to %s in %.1f s%n",
        files.size(), events, kept, filter, common.topic, seconds);
    return 0;
  }

  private static InputStream open(Path f, InputStream raw) throws IOException {
    InputStream buffered = new BufferedInputStream(raw, 1 << 16);
    return f.getFileName().toString().endsWith(".gz")
        ? new GZIPInputStream(buffered, 1 << 16)
        : buffered;
  }

  /** Counts the bytes read through it, for the progress of a compressed file. */
  private static final class CountingStream extends FilterInputStream {
    volatile long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
