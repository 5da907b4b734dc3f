package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.ingest.backfill.git.GitDeliveries;
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

/**
 * {@code faultline backfill}: history into the raw delivery topic through the same envelope, keys and idempotency
 * as live deliveries.
 *
 * <pre>
 * backfill gharchive [--repos a/b,c/d] FILE...          GH Archive hourly files (*.json.gz)
 * backfill github --repo owner/name [--since DATE] …    the GitHub REST API (token from GITHUB_TOKEN)
 * backfill git --repo owner/name [--since DATE] GIT_DIR  a local clone's fix history (no token, no network)
 * </pre>
 */
public final class BackfillCommand {
  static final String USAGE =
      """
      Usage: faultline backfill gharchive [options] FILE...
             faultline backfill github --repo OWNER/NAME [--repo ...] [options]
             faultline backfill git --repo OWNER/NAME [--since DATE] [--until DATE] [options] GIT_DIR

      Puts history into the raw delivery topic, in the same envelope and with the same keys as live webhook
      deliveries; replays dedupe (stable delivery ids).

      gharchive: GH Archive hourly files (https://www.gharchive.org/, *.json.gz, streamed). Keeps IssuesEvent,
        IssueCommentEvent, PullRequestEvent and ReleaseEvent of the chosen repositories.
        --repos A/B,C/D        repositories to keep (default: %s)
      github: the GitHub REST API: releases, issues, pull requests, issue comments. Token from GITHUB_TOKEN
        (anonymous access allows 60 requests an hour). Resumable: re-run the same command after an interruption.
        --repo OWNER/NAME      repository (repeatable)
        --since DATE           only items updated since DATE (2024-01-31 or 2024-01-31T12:00:00Z);
                               default: since the last completed run
        --api-url URL          API base (default https://api.github.com; GHES: https://HOST/api/v3)
        --checkpoint FILE      progress file (default .faultline/backfill/github-checkpoint.properties)
      git: the fix history of a local clone (a bare mirror too), read with JGit: every merged change of the
        first-parent history of the default branch (squash merges "Title (#123)", merge commits "Merge pull
        request #123 from ...", direct commits) as a merged pull_request with its size, files and closing
        references, and the release tags as releases. No token, no network. Resumable: re-run the same command.
        --repo OWNER/NAME      the GitHub repository GIT_DIR is a clone of
        --since DATE           changes committed (tags dated) since DATE; default: from the first commit
        --until DATE           changes committed before DATE; default: up to the branch's tip
        --branch NAME          a branch other than the default one (HEAD, else main or master)
        --tag-pattern REGEX    release tags (regex on the whole name); default per framework: v0.16.4-like tags
                               for DeepSpeed, core_v0.10.0 and v2.5 for Megatron-LM, v?N.N[.N][rcN] otherwise
        --dry-run              read and count, publish nothing
        --checkpoint FILE      progress file (default .faultline/backfill/git-checkpoint.properties)
        --checkpoint-every N   changes between checkpoints (default 500)
        --threads N            threads diffing commits, each with its own reader (default: cores, at most 4)
      common:
        --bootstrap-servers H:P  Kafka (default $FAULTLINE_KAFKA_BOOTSTRAP_SERVERS or 127.0.0.1:9092);
                                 FAULTLINE_KAFKA_PRODUCER_* variables pass producer settings (e.g. SASL_SSL)
        --topic NAME             delivery topic (default %s)
        --help                   this text
      """
          .formatted(String.join(",", RepositoryFilter.DEFAULT_REPOSITORIES), Topic.DELIVERIES.topicName());

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

  /** Entry for the launcher: real Kafka, real GitHub, the process environment. Returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> env = System.getenv();
    return new BackfillCommand(
            env,
            (servers, topic) -> kafkaPublisher(servers, topic, env),
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build(),
            Clock.systemUTC(),
            Sleeper.SYSTEM)
        .execute(args, out, err);
  }

  /** A producer tuned for bulk: {@code acks=all}, idempotent, batched and compressed. */
  public static DeliveryPublisher kafkaPublisher(String bootstrapServers, String topic, Map<String, String> env) {
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
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()), topic, Duration.ofSeconds(30));
  }

  /** Runs {@code args} (with or without a leading {@code backfill}); 0 done, 1 failed, 2 usage error. */
  public int execute(String[] args, PrintStream out, PrintStream err) {
    List<String> rest = new ArrayList<>(List.of(args));
    if (!rest.isEmpty() && rest.get(0).equals("backfill")) {
      rest.remove(0);
    }
    if (rest.isEmpty() || rest.contains("--help") || rest.contains("-h")) {
      (rest.isEmpty() ? err : out).print(USAGE);
      return rest.isEmpty() ? 2 : 0;
    }
    String source = rest.remove(0);
    Options options;
    try {
      options = Options.parse(rest, env);
    } catch (IllegalArgumentException e) {
      err.println("backfill: " + e.getMessage());
      err.println("Run 'faultline backfill --help' for the options.");
      return 2;
    }
    try {
      return switch (source) {
        case "gharchive" -> gharchive(options, out);
        case "github" -> github(options, out);
        case "git" -> git(options, out);
        default -> {
          err.println("backfill: unknown source '" + source + "': use gharchive, github or git");
          yield 2;
        }
      };
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
    RepositoryFilter filter = o.repos.isEmpty() ? RepositoryFilter.defaults() : RepositoryFilter.of(o.repos);
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
                  });
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
    return f.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(buffered, 1 << 16) : buffered;
  }

  private int github(Options o, PrintStream out) throws IOException, InterruptedException {
    if (o.repos.isEmpty()) {
      throw new UsageException("github needs --repo OWNER/NAME");
    }
    RepositoryFilter.of(o.repos); // validates the names
    Checkpoint checkpoint =
        Checkpoint.load(o.checkpoint.orElse(Path.of(".faultline", "backfill", "github-checkpoint.properties")));
    GitHubApi api = new GitHubApi(http, o.apiUrl, env.get("GITHUB_TOKEN"), mapper, clock, sleeper);
    try (DeliveryPublisher publisher = publishers.apply(o.bootstrapServers, o.topic)) {
      for (String repo : o.repos) {
        Publishing sink = new Publishing(publisher, 1_000, Duration.ofMinutes(2));
        Progress progress = Progress.forConsole("github " + repo, out);
        long n = new GitHubRestBackfill(api, mapper, checkpoint, clock).run(repo, o.since, sink, progress);
        progress.finish(n);
        out.printf("github: %s: %d deliveries published to %s%n", repo, n, o.topic);
      }
    }
    return 0;
  }

  private int git(Options o, PrintStream out) throws IOException {
    if (o.repos.size() != 1) {
      throw new UsageException("git needs exactly one --repo OWNER/NAME (the repository GIT_DIR is a clone of)");
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
    ReleaseTagPatterns tags;
    try {
      tags = o.tagPattern.map(ReleaseTagPatterns::of).orElseGet(() -> ReleaseTagPatterns.forRepository(repo));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    GitBackfill.Range range = new GitBackfill.Range(o.since, o.until, o.branch);
    GitHistoryReader.useLargePackCache();
    long started = System.nanoTime();
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
            Checkpoint.load(o.checkpoint.orElse(Path.of(".faultline", "backfill", "git-checkpoint.properties")));
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
              new GitBackfill(reader, deliveries, Optional.of(checkpoint), repo, o.checkpointEvery, helpers)
                  .run(range, tags, sink, progress);
        }
      }
      progress.finish(counts.changes());
    } catch (GitHistoryReader.NotARepositoryException | GitBackfill.EmptyRangeException e) {
      throw new UsageException(e.getMessage());
    } finally {
      helpers.forEach(GitHistoryReader::close);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
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
    return 0;
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

  /** Parsed options. */
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

    static Options parse(List<String> args, Map<String, String> env) {
      Options o = new Options();
      o.bootstrapServers =
          env.getOrDefault(IngestConfig.ENV_BOOTSTRAP_SERVERS, IngestConfig.DEFAULT_BOOTSTRAP_SERVERS);
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (!a.startsWith("--")) {
          o.files.add(Path.of(a));
          continue;
        }
        if (a.equals("--dry-run")) {
          o.dryRun = true;
          continue;
        }
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args.get(++i);
        switch (a) {
          case "--bootstrap-servers" -> o.bootstrapServers = v;
          case "--topic" -> o.topic = v;
          case "--repo" -> o.repos.add(v);
          case "--repos" -> o.repos.addAll(List.of(v.split(",")));
          case "--since" -> o.since = Optional.of(parseDate("--since", v));
          case "--until" -> o.until = Optional.of(parseDate("--until", v));
          case "--branch" -> o.branch = Optional.of(v);
          case "--tag-pattern" -> o.tagPattern = Optional.of(v);
          case "--api-url" -> o.apiUrl = URI.create(v);
          case "--checkpoint" -> o.checkpoint = Optional.of(Path.of(v));
          case "--threads" -> {
            try {
              o.threads = Integer.parseInt(v);
            } catch (NumberFormatException e) {
              o.threads = 0;
            }
            if (o.threads < 1 || o.threads > 64) {
              throw new IllegalArgumentException("--threads must be a number from 1 to 64, not '" + v + "'");
            }
          }
          case "--checkpoint-every" -> {
            try {
              o.checkpointEvery = Integer.parseInt(v);
            } catch (NumberFormatException e) {
              o.checkpointEvery = 0;
            }
            if (o.checkpointEvery < 1) {
              throw new IllegalArgumentException("--checkpoint-every must be a positive number of changes, not '" + v + "'");
            }
          }
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      return o;
    }

    static Instant parseDate(String option, String v) {
      try {
        return v.length() == 10 ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(v);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            option + " must be a date (2024-01-31) or an instant (2024-01-31T12:00:00Z), not '" + v + "'");
      }
    }
  }
}
