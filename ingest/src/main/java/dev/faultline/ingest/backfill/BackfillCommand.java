package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.ingest.backfill.git.GitHistoryReader;
import dev.faultline.ingest.backfill.git.ReleaseTagPatterns;
import dev.faultline.schemas.Topic;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code faultline backfill}: history into the raw delivery topic through the same envelope, keys
 * and idempotency as live deliveries.
 *
 * <pre>
 * backfill gharchive [--repos a/b,c/d] FILE...          GH Archive hourly files (*.json.gz)
 * backfill github --repo owner/name [--since DATE] …    the GitHub REST API (token from GITHUB_TOKEN)
 * backfill git --repo owner/name [--since DATE] GIT_DIR  a local clone's fix history (no token, no network)
 * </pre>
 */
@Command(
    name = "backfill",
    description = {
      "Feed history (GH Archive files, GitHub REST API, a local clone) through the delivery topic.",
      "",
      "Puts history into the raw delivery topic, in the same envelope and with the same keys as live webhook",
      "deliveries; replays dedupe (stable delivery ids).",
      "",
      "  faultline backfill gharchive [options] FILE...",
      "  faultline backfill github --repo OWNER/NAME [--repo ...] [options]   (token from GITHUB_TOKEN)",
      "  faultline backfill git --repo OWNER/NAME [--since DATE] [--until DATE] [options] GIT_DIR"
    },
    footer = {"", "Run 'faultline backfill SOURCE --help' for a source's options."})
public final class BackfillCommand extends CliCommand {
  private final Map<String, String> env;
  private final BiFunction<String, String, DeliveryPublisher> publishers;
  private final HttpClient http;
  private final Clock clock;
  private final Sleeper sleeper;
  private final ObjectMapper mapper = new ObjectMapper();

  /**
   * @param publishers (bootstrap servers, topic) → publisher; the command closes it
   */
  public BackfillCommand(
      Map<String, String> env,
      BiFunction<String, String, DeliveryPublisher> publishers,
      HttpClient http,
      Clock clock,
      Sleeper sleeper) {
    this.env = env;
    this.publishers = publishers;
    this.http = http;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * Entry for the launcher: real Kafka, real GitHub, the process environment {@code env}. Returns
   * the exit code.
   */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return launcher(env).execute(args, out, err);
  }

  /** The command with real Kafka, real GitHub and the process environment {@code env}. */
  public static BackfillCommand launcher(Map<String, String> env) {
    return new BackfillCommand(
        env,
        (servers, topic) -> kafkaPublisher(servers, topic, env),
        HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build(),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }

  /** A producer tuned for bulk: {@code acks=all}, idempotent, batched and compressed. */
  public static DeliveryPublisher kafkaPublisher(
      String bootstrapServers, String topic, Map<String, String> env) {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 32 * 1024 * 1024);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "faultline-backfill");
    props.putAll(IngestConfig.producerPropertiesFromEnvironment(env));
    return new KafkaDeliveryPublisher(
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()),
        topic,
        Duration.ofSeconds(30));
  }

  /**
   * Runs {@code args} (with or without a leading {@code backfill}); 0 done, 1 failed, 2 usage
   * error.
   */
  public int execute(String[] args, PrintStream out, PrintStream err) {
    List<String> rest = new ArrayList<>(List.of(args));
    if (!rest.isEmpty() && rest.get(0).equals("backfill")) {
      rest.remove(0);
    }
    return Cli.execute(commandLine(), rest.toArray(String[]::new), out, err);
  }

  /** The command with its sources as subcommands. */
  public CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(this);
    commandLine.addSubcommand(new GhArchiveSource());
    commandLine.addSubcommand(new GitHubSource());
    commandLine.addSubcommand(new GitSource());
    commandLine
        .getSubcommands()
        .get("gharchive")
        .getCommandSpec()
        .usageMessage()
        .footer(
            "%nDefault repositories: " + String.join(",", RepositoryFilter.DEFAULT_REPOSITORIES));
    return commandLine;
  }

  @Override
  public Integer call() {
    throw usageError("name a source: gharchive, github or git");
  }

  /** The options of every source. */
  static final class Common {
    @Option(
        names = "--bootstrap-servers",
        paramLabel = "H:P",
        description =
            "Kafka (default $FAULTLINE_KAFKA_BOOTSTRAP_SERVERS or "
                + IngestConfig.DEFAULT_BOOTSTRAP_SERVERS
                + "); FAULTLINE_KAFKA_PRODUCER_* variables pass producer settings (e.g. SASL_SSL)")
    String bootstrapServers;

    @Option(names = "--topic", paramLabel = "NAME", description = "delivery topic")
    String topic = Topic.DELIVERIES.topicName();
  }

  /** {@code --since} and {@code --until}: a date (UTC midnight) or an instant. */
  static final class DateConverter implements CommandLine.ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return Options.parseDate("", value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "must be a date (2024-01-31) or an instant (2024-01-31T12:00:00Z), not '"
                + value
                + "'");
      }
    }
  }

  /** A source's work, run with the exit codes of {@link #execute}. */
  private interface Work {
    int run() throws IOException, InterruptedException;
  }

  private int guarded(Work work, PrintStream err) {
    try {
      return work.run();
    } catch (UsageException e) {
      err.println("backfill: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      err.println("backfill failed: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("backfill interrupted");
      return 1;
    }
  }

  private Options options(Common common) {
    Options o = new Options();
    o.bootstrapServers =
        common.bootstrapServers != null
            ? common.bootstrapServers
            : env.getOrDefault(
                IngestConfig.ENV_BOOTSTRAP_SERVERS, IngestConfig.DEFAULT_BOOTSTRAP_SERVERS);
    o.topic = common.topic;
    return o;
  }

  @Command(
      name = "gharchive",
      description = {
        "GH Archive hourly files.",
        "",
        "GH Archive hourly files (https://www.gharchive.org/, *.json.gz, streamed). Keeps IssuesEvent,",
        "IssueCommentEvent, PullRequestEvent and ReleaseEvent of the chosen repositories."
      })
  final class GhArchiveSource extends CliCommand {
    @Mixin Common common;

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
      Options o = options(common);
      o.repos.addAll(repos);
      o.files.addAll(files);
      o.threads = threads;
      return guarded(() -> gharchive(o, out), err);
    }
  }

  @Command(
      name = "github",
      description = {
        "The GitHub REST API (token from GITHUB_TOKEN).",
        "",
        "The GitHub REST API: releases, issues, pull requests, issue comments. Token from GITHUB_TOKEN (anonymous",
        "access allows 60 requests an hour). Resumable: re-run the same command after an interruption."
      })
  final class GitHubSource extends CliCommand {
    @Mixin Common common;

    @Option(
        names = "--repo",
        paramLabel = "OWNER/NAME",
        required = true,
        description = "repository (repeatable)")
    List<String> repos = new ArrayList<>();

    @Option(
        names = "--since",
        paramLabel = "DATE",
        converter = DateConverter.class,
        description =
            "only items updated since DATE (2024-01-31 or 2024-01-31T12:00:00Z); default: since the last"
                + " completed run")
    Instant since;

    @Option(
        names = "--api-url",
        paramLabel = "URL",
        description = "API base (GHES: https://HOST/api/v3)")
    URI apiUrl = URI.create("https://api.github.com");

    @Option(
        names = "--checkpoint",
        paramLabel = "FILE",
        description = "progress file (default .faultline/backfill/github-checkpoint.properties)")
    Path checkpoint;

    @Override
    public Integer call() {
      Options o = options(common);
      o.repos.addAll(repos);
      o.since = Optional.ofNullable(since);
      o.apiUrl = apiUrl;
      o.checkpoint = Optional.ofNullable(checkpoint);
      return guarded(() -> github(o, out), err);
    }
  }

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
    @Mixin Common common;

    @Option(
        names = "--repo",
        paramLabel = "OWNER/NAME",
        required = true,
        description = "the GitHub repository GIT_DIR is a clone of")
    List<String> repos = new ArrayList<>();

    @Option(
        names = "--since",
        paramLabel = "DATE",
        converter = DateConverter.class,
        description = "changes committed (tags dated) since DATE; default: from the first commit")
    Instant since;

    @Option(
        names = "--until",
        paramLabel = "DATE",
        converter = DateConverter.class,
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
        description =
            "threads diffing commits, each with its own reader (default: cores, at most 4)")
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
            "--checkpoint-every must be a positive number of changes, not '"
                + checkpointEvery
                + "'");
      }
      Options o = options(common);
      o.repos.addAll(repos);
      o.files.addAll(dirs);
      o.since = Optional.ofNullable(since);
      o.until = Optional.ofNullable(until);
      o.branch = Optional.ofNullable(branch);
      o.tagPattern = Optional.ofNullable(tagPattern);
      o.dryRun = dryRun;
      o.checkpoint = Optional.ofNullable(checkpoint);
      o.checkpointEvery = checkpointEvery;
      o.threads = threads;
      return guarded(() -> git(o, out), err);
    }
  }

  private int gharchive(Options o, PrintStream out) throws IOException {
    if (o.files.isEmpty()) {
      throw new UsageException("gharchive needs at least one file (GH Archive hourly *.json.gz)");
    }
    long totalBytes = 0;
    for (Path f : o.files) {
      if (!Files.isRegularFile(f)) {
        throw new UsageException("no such file: " + f);
      }
      totalBytes += Files.size(f);
    }
    RepositoryFilter filter =
        o.repos.isEmpty() ? RepositoryFilter.defaults() : RepositoryFilter.of(o.repos);
    GhArchiveReader reader = new GhArchiveReader(mapper, filter, clock);
    Progress progress = Progress.forConsole("gharchive", out);
    long started = System.nanoTime();
    long events = 0;
    long kept = 0;
    long before = 0;
    try (DeliveryPublisher publisher = publishers.apply(o.bootstrapServers, o.topic)) {
      Publishing sink = new Publishing(publisher, 10_000, Duration.ofMinutes(2));
      for (Path f : o.files) {
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
                  o.threads);
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
        o.files.size(), events, kept, filter, o.topic, seconds);
    return 0;
  }

  private static InputStream open(Path f, InputStream raw) throws IOException {
    InputStream buffered = new BufferedInputStream(raw, 1 << 16);
    return f.getFileName().toString().endsWith(".gz")
        ? new GZIPInputStream(buffered, 1 << 16)
        : buffered;
  }

  private int github(Options o, PrintStream out) throws IOException, InterruptedException {
    if (o.repos.isEmpty()) {
      throw new UsageException("github needs --repo OWNER/NAME");
    }
    RepositoryFilter.of(o.repos); // validates the names
    Checkpoint checkpoint =
        Checkpoint.load(
            o.checkpoint.orElse(Path.of(".faultline", "backfill", "github-checkpoint.properties")));
    GitHubApi api = new GitHubApi(http, o.apiUrl, env.get("GITHUB_TOKEN"), mapper, clock, sleeper);
    try (DeliveryPublisher publisher = publishers.apply(o.bootstrapServers, o.topic)) {
      for (String repo : o.repos) {
        Publishing sink = new Publishing(publisher, 1_000, Duration.ofMinutes(2));
        Progress progress = Progress.forConsole("github " + repo, out);
        long n =
            new GitHubRestBackfill(api, mapper, checkpoint, clock)
                .run(repo, o.since, sink, progress);
        progress.finish(n);
        out.printf("github: %s: %d deliveries published to %s%n", repo, n, o.topic);
      }
    }
    return 0;
  }

  private int git(Options o, PrintStream out) throws IOException {
    String repo = gitRepository(o);
    ReleaseTagPatterns tags;
    try {
      tags =
          o.tagPattern
              .map(ReleaseTagPatterns::of)
              .orElseGet(() -> ReleaseTagPatterns.forRepository(repo));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    GitBackfill.Range range = new GitBackfill.Range(o.since, o.until, o.branch);
    GitHistoryReader.useLargePackCache();
    long started = System.nanoTime();
    GitBackfill.Counts counts = gitBackfill(o, repo, range, tags, out);
    printGitCounts(o, repo, counts, (System.nanoTime() - started) / 1e9, out);
    return 0;
  }

  /** The one repository of a git backfill, with the usage checks of its other options. */
  private static String gitRepository(Options o) {
    if (o.repos.size() != 1) {
      throw new UsageException(
          "git needs exactly one --repo OWNER/NAME (the repository GIT_DIR is a clone of)");
    }
    String repo = o.repos.get(0).trim();
    try {
      RepositoryFilter.of(List.of(repo));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--repo: " + e.getMessage());
    }
    if (o.files.size() != 1) {
      throw new UsageException("git needs the path of one clone (GIT_DIR), got " + o.files.size());
    }
    if (o.since.isPresent() && o.until.isPresent() && !o.since.get().isBefore(o.until.get())) {
      throw new UsageException("--since must be before --until: the range is empty");
    }
    return repo;
  }

  /** Reads the clone's history and sends (or, in a dry run, only builds) its deliveries. */
  private GitBackfill.Counts gitBackfill(
      Options o, String repo, GitBackfill.Range range, ReleaseTagPatterns tags, PrintStream out)
      throws IOException {
    GitBackfill.Counts counts;
    List<GitHistoryReader> helpers = new ArrayList<>();
    try (GitHistoryReader reader = GitHistoryReader.open(o.files.get(0), repo)) {
      for (int t = 1; t < o.threads; t++) {
        helpers.add(GitHistoryReader.open(o.files.get(0), repo));
      }
      reader
          .originRepository()
          .filter(origin -> !origin.equalsIgnoreCase(repo))
          .ifPresent(
              origin ->
                  out.printf(
                      "git: warning: %s is a clone of %s (its origin remote), not of %s; its changes are recorded"
                          + " as %s's%n",
                      o.files.get(0), origin, repo, repo));
      GitDeliveries deliveries = new GitDeliveries(mapper, repo, clock);
      Progress progress = Progress.forConsole("git " + repo, "changes", out);
      if (o.dryRun) {
        counts =
            new GitBackfill(reader, deliveries, Optional.empty(), repo, o.checkpointEvery, helpers)
                .run(range, tags, countingSink(), progress);
      } else {
        Checkpoint checkpoint =
            Checkpoint.load(
                o.checkpoint.orElse(
                    Path.of(".faultline", "backfill", "git-checkpoint.properties")));
        try (DeliveryPublisher publisher = publishers.apply(o.bootstrapServers, o.topic)) {
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
                      reader, deliveries, Optional.of(checkpoint), repo, o.checkpointEvery, helpers)
                  .run(range, tags, sink, progress);
        }
      }
      progress.finish(counts.changes());
    } catch (GitHistoryReader.NotARepositoryException | GitBackfill.EmptyRangeException e) {
      throw new UsageException(e.getMessage());
    } finally {
      helpers.forEach(GitHistoryReader::close);
    }
    return counts;
  }

  private static void printGitCounts(
      Options o, String repo, GitBackfill.Counts counts, double seconds, PrintStream out) {
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
        o.dryRun ? "dry run, nothing published" : "published to " + o.topic,
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

  private static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }

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

  /** What a source runs with. */
  private static final class Options {
    String bootstrapServers;
    String topic = Topic.DELIVERIES.topicName();
    List<String> repos = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    Optional<Instant> since = Optional.empty();
    Optional<Instant> until = Optional.empty();
    Optional<String> branch = Optional.empty();
    Optional<String> tagPattern = Optional.empty();
    boolean dryRun;
    URI apiUrl = URI.create("https://api.github.com");
    Optional<Path> checkpoint = Optional.empty();
    int checkpointEvery = 500;
    int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    static Instant parseDate(String option, String v) {
      try {
        return v.length() == 10
            ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant()
            : Instant.parse(v);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            option
                + " must be a date (2024-01-31) or an instant (2024-01-31T12:00:00Z), not '"
                + v
                + "'");
      }
    }
  }
}
