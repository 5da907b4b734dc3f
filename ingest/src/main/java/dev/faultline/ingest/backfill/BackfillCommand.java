package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.DeliveryPublisher;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.schemas.Topic;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  /**
   * A producer tuned for bulk: {@code acks=all}, idempotent, batched and compressed. A backfill is
   * not waited on per record, so its batches are larger and linger longer than the receiver's (1
   * MiB, 50 ms): fewer batches, requests and acknowledgements per event; the producer's memory
   * stays bounded by its {@code buffer.memory}.
   */
  public static DeliveryPublisher kafkaPublisher(
      String bootstrapServers, String topic, Map<String, String> env) {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 50);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 1024 * 1024);
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
    commandLine.addSubcommand(new GhArchiveSource(this));
    commandLine.addSubcommand(new GitHubSource(this));
    commandLine.addSubcommand(new GitSource(this));
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
        return parseDate(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "must be a date (2024-01-31) or an instant (2024-01-31T12:00:00Z), not '"
                + value
                + "'");
      }
    }
  }

  /** A date (UTC midnight) or an instant. */
  static Instant parseDate(String v) {
    try {
      return v.length() == 10
          ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "must be a date (2024-01-31) or an instant (2024-01-31T12:00:00Z), not '" + v + "'");
    }
  }

  /** A source's work, run with the exit codes of {@link #execute}. */
  interface Work {
    int run() throws IOException, InterruptedException;
  }

  /** Runs a source's work: bad input exits 2, a failure 1, each with one line on {@code err}. */
  static int guarded(Work work, PrintStream err) {
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

  /**
   * A publisher to the topic and Kafka of a source's options ({@code --bootstrap-servers}, else the
   * environment's, else the local broker); the caller closes it.
   */
  DeliveryPublisher publisher(Common common) {
    String bootstrap =
        common.bootstrapServers != null
            ? common.bootstrapServers
            : env.getOrDefault(
                IngestConfig.ENV_BOOTSTRAP_SERVERS, IngestConfig.DEFAULT_BOOTSTRAP_SERVERS);
    return publishers.apply(bootstrap, common.topic);
  }

  Map<String, String> env() {
    return env;
  }

  HttpClient http() {
    return http;
  }

  Clock clock() {
    return clock;
  }

  Sleeper sleeper() {
    return sleeper;
  }

  ObjectMapper mapper() {
    return mapper;
  }

  /** Bad input a source found: exit 2 with its message. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
