package dev.faultline.stats;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.JobArgs;
import dev.faultline.jobs.sink.SinkOptions;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Everything the category-stats job needs from its deployment, parsed once in {@code main}.
 * Defaults are in {@link #defaults(String, GraphConfig)} and the README's "Category statistics"
 * section.
 *
 * @param kafkaBootstrap Kafka bootstrap servers
 * @param kafkaProperties extra Kafka client properties (security)
 * @param groupId consumer group reading {@code faultline.issues.classified} (read_committed)
 * @param transactionalIdPrefix prefix of the Kafka transactional ids of the exactly-once sinks;
 *     unique per job deployment on a cluster (two jobs with one prefix fence each other)
 * @param graph Neo4j connection
 * @param sink graph sink batching and retry
 * @param checkpointInterval how often state and offsets are checkpointed; also how often the Kafka
 *     transactions commit, so the latency of {@code faultline.stats} for read_committed readers
 * @param parallelism job parallelism (0 = the cluster's default)
 * @param bounded read the topic up to its end offsets at start, then finish (a batch
 *     recomputation); false = live
 * @param windows lengths of the rolling windows (default 7 and 30 days); each a multiple of {@code
 *     slide}
 * @param slide how far the rolling windows advance, and the size of the daily buckets they are
 *     summed from (1 day)
 * @param allowedLateness how long after a bucket closes (watermark past its end) late data still
 *     updates it in the window operator (7 days); later data goes to the correction path, which
 *     updates the counts as well
 * @param outOfOrderness watermark bound: how far behind the newest {@code updatedAt} an event may
 *     arrive and still count as on time (6 hours)
 * @param idleness a Kafka partition without records for this long stops holding the watermark back
 *     (1 minute)
 * @param alerts the emerging-category alert model (windows 7 and 14 days, baseline 182 days,
 *     warm-up 56 days, false-discovery rate 0.01 per framework and window end, support ≥ 3 issues
 *     and ≥ 2 × expected; release comparison 28 days after against 56 before): see {@link
 *     AlertModel}
 * @param issueStateTtl how long an issue's history is kept after its last record (730 days,
 *     processing time). A record of an issue forgotten this way counts it anew
 * @param countStateTtl how long daily counts are kept after their last update (400 days, processing
 *     time); deltas for a day older than this are counted against what is left
 * @param confidence which labels count: a label below its dimension's bar counts as UNKNOWN (a
 *     human-given one always passes), so counts and alerts rest on labels right at least 90% of the
 *     time by default
 */
public record StatsConfig(
    String kafkaBootstrap,
    Map<String, String> kafkaProperties,
    String groupId,
    String transactionalIdPrefix,
    GraphConfig graph,
    SinkOptions sink,
    Duration checkpointInterval,
    int parallelism,
    boolean bounded,
    List<Duration> windows,
    Duration slide,
    Duration allowedLateness,
    Duration outOfOrderness,
    Duration idleness,
    AlertModel alerts,
    Duration issueStateTtl,
    Duration countStateTtl,
    ConfidencePolicy confidence)
    implements Serializable {

  public static final List<Duration> DEFAULT_WINDOWS =
      List.of(Duration.ofDays(7), Duration.ofDays(30));

  public StatsConfig {
    if (kafkaBootstrap == null || kafkaBootstrap.isBlank()) {
      throw new IllegalArgumentException(
          "Kafka bootstrap servers are empty: pass --kafka-bootstrap HOST:PORT or set FAULTLINE_KAFKA_BOOTSTRAP_SERVERS");
    }
    kafkaProperties = Map.copyOf(kafkaProperties == null ? Map.of() : kafkaProperties);
    if (transactionalIdPrefix == null || transactionalIdPrefix.isBlank()) {
      throw new IllegalArgumentException(
          "transactional id prefix is empty: pass --transactional-id-prefix NAME (unique per deployment)");
    }
    positive("slide", slide);
    if (windows == null || windows.isEmpty()) {
      throw new IllegalArgumentException("no rolling windows: pass --windows P7D,P30D");
    }
    windows = List.copyOf(windows.stream().sorted().toList());
    for (Duration w : windows) {
      positive("window", w);
      if (w.toMillis() % slide.toMillis() != 0) {
        throw new IllegalArgumentException(
            "window "
                + w
                + " is not a multiple of the slide "
                + slide
                + ": pick windows in whole slides, e.g. --windows P7D,P30D --slide P1D");
      }
    }
    notNegative("allowed lateness", allowedLateness);
    notNegative("out-of-orderness", outOfOrderness);
    positive("idleness", idleness);
    if (alerts == null) {
      throw new IllegalArgumentException("no alert model: use AlertModel.defaults()");
    }
    positive("issue state TTL", issueStateTtl);
    positive("count state TTL", countStateTtl);
    if (confidence == null) {
      throw new IllegalArgumentException(
          "no confidence policy: use ConfidencePolicy.calibrated() or all()");
    }
    if (checkpointInterval == null || checkpointInterval.toMillis() < 10) {
      throw new IllegalArgumentException(
          "checkpoint interval must be at least 10 ms, was " + checkpointInterval);
    }
  }

  /** The defaults documented above, for the given Kafka and Neo4j. */
  public static StatsConfig defaults(String kafkaBootstrap, GraphConfig graph) {
    return new StatsConfig(
        kafkaBootstrap,
        Map.of(),
        "faultline-category-stats",
        "faultline-category-stats",
        graph,
        SinkOptions.DEFAULTS,
        Duration.ofSeconds(10),
        0,
        false,
        DEFAULT_WINDOWS,
        Duration.ofDays(1),
        Duration.ofDays(7),
        Duration.ofHours(6),
        Duration.ofMinutes(1),
        AlertModel.defaults(),
        Duration.ofDays(730),
        Duration.ofDays(400),
        ConfidencePolicy.fromEnvironment(System.getenv(), System.getProperties()));
  }

  /**
   * Copy with other Kafka client settings, consumer group and transactional id prefix (tests, local
   * stack).
   */
  public StatsConfig withKafka(String bootstrap, String group, String txPrefix) {
    return new StatsConfig(
        bootstrap,
        kafkaProperties,
        group,
        txPrefix,
        graph,
        sink,
        checkpointInterval,
        parallelism,
        bounded,
        windows,
        slide,
        allowedLateness,
        outOfOrderness,
        idleness,
        alerts,
        issueStateTtl,
        countStateTtl,
        confidence);
  }

  /** Copy with another sink, checkpoint interval, parallelism and boundedness. */
  public StatsConfig withRuntime(
      SinkOptions newSink, Duration newCheckpointInterval, int newParallelism, boolean newBounded) {
    return new StatsConfig(
        kafkaBootstrap,
        kafkaProperties,
        groupId,
        transactionalIdPrefix,
        graph,
        newSink,
        newCheckpointInterval,
        newParallelism,
        newBounded,
        windows,
        slide,
        allowedLateness,
        outOfOrderness,
        idleness,
        alerts,
        issueStateTtl,
        countStateTtl,
        confidence);
  }

  /** Copy with other event-time settings. */
  public StatsConfig withEventTime(
      Duration newAllowedLateness, Duration newOutOfOrderness, Duration newIdleness) {
    return new StatsConfig(
        kafkaBootstrap,
        kafkaProperties,
        groupId,
        transactionalIdPrefix,
        graph,
        sink,
        checkpointInterval,
        parallelism,
        bounded,
        windows,
        slide,
        newAllowedLateness,
        newOutOfOrderness,
        newIdleness,
        alerts,
        issueStateTtl,
        countStateTtl,
        confidence);
  }

  /** Copy with another alert model. */
  public StatsConfig withAlerts(AlertModel newAlerts) {
    return new StatsConfig(
        kafkaBootstrap,
        kafkaProperties,
        groupId,
        transactionalIdPrefix,
        graph,
        sink,
        checkpointInterval,
        parallelism,
        bounded,
        windows,
        slide,
        allowedLateness,
        outOfOrderness,
        idleness,
        newAlerts,
        issueStateTtl,
        countStateTtl,
        confidence);
  }

  public String inputTopic() {
    return Topic.ISSUES_CLASSIFIED.topicName();
  }

  public String statsTopic() {
    return Topic.STATS.topicName();
  }

  public String alertsTopic() {
    return Topic.ALERTS.topicName();
  }

  /** Slides in the longest window. */
  public int maxWindowSlides() {
    return (int) (windows.get(windows.size() - 1).toMillis() / slide.toMillis());
  }

  /** Kafka client properties: bootstrap plus the extra ones. */
  public Properties kafkaClientProperties() {
    Properties p = new Properties();
    p.putAll(kafkaProperties);
    p.put("bootstrap.servers", kafkaBootstrap);
    return p;
  }

  /**
   * Reads {@code --name value} pairs, falling back to environment variables for Kafka and Neo4j:
   * {@code --kafka-bootstrap} (FAULTLINE_KAFKA_BOOTSTRAP_SERVERS), {@code --kafka.X value} (Kafka
   * client property X), {@code --neo4j-uri}, {@code --neo4j-user}, {@code --neo4j-password}, {@code
   * --neo4j-database} (FAULTLINE_NEO4J_*), {@code --group-id}, {@code --transactional-id-prefix},
   * {@code --checkpoint-interval-ms}, {@code --parallelism}, {@code --bounded true|false}, {@code
   * --windows P7D,P30D}, {@code --slide P1D}, {@code --allowed-lateness P7D}, {@code
   * --out-of-orderness PT6H}, {@code --idleness PT1M}, {@code --alert-window P7D}, {@code
   * --alert-max-run P28D}, {@code --alert-baseline P182D}, {@code --alert-warmup P56D}, {@code
   * --alert-false-rate 0.2}, {@code --alert-min-count 3}, {@code --alert-min-ratio 2}, {@code
   * --alert-prior-weight 10}, {@code --alert-full-budget-issues 20} (issues a month at which a
   * framework spends the whole false-alert rate; a sparser one spends its share, 0: no scaling),
   * {@code --alert-max-dispersion 1}, {@code --release-before P56D}, {@code --release-after P28D},
   * {@code --alert-quiet-dimensions phase,kind} (dimensions never alerted on, or {@code none}),
   * {@code --alert-majority-codes false} (whether a dimension's majority code may alert), {@code
   * --issue-state-ttl P730D}, {@code --count-state-ttl P400D}, {@code --sink-batch-size}, {@code
   * --sink-flush-ms}, {@code --min-confidence calibrated|all|0.8} (default
   * FAULTLINE_MIN_CONFIDENCE, else the calibrated per-dimension bars). Durations are ISO-8601.
   */
  public static StatsConfig fromArgs(String[] args, Map<String, String> env) {
    JobArgs parsed = JobArgs.parse(args);
    Map<String, String> a = parsed.named();
    Map<String, String> kafka = parsed.kafka();
    StatsConfig d = defaults(parsed.kafkaBootstrap(env), parsed.graph(env));
    SinkOptions sink =
        new SinkOptions(
            intArg(a, "sink-batch-size", d.sink.batchSize()),
            Duration.ofMillis(longArg(a, "sink-flush-ms", d.sink.flushInterval().toMillis())),
            d.sink.maxBackoff());
    List<Duration> windows = new ArrayList<>();
    for (String w : a.getOrDefault("windows", "P7D,P30D").split(",")) {
      windows.add(duration("windows", w.strip()));
    }
    return new StatsConfig(
        d.kafkaBootstrap,
        kafka,
        a.getOrDefault("group-id", d.groupId),
        a.getOrDefault("transactional-id-prefix", d.transactionalIdPrefix),
        d.graph,
        sink,
        Duration.ofMillis(longArg(a, "checkpoint-interval-ms", d.checkpointInterval.toMillis())),
        intArg(a, "parallelism", d.parallelism),
        Boolean.parseBoolean(a.getOrDefault("bounded", "false")),
        windows,
        durationArg(a, "slide", d.slide),
        durationArg(a, "allowed-lateness", d.allowedLateness),
        durationArg(a, "out-of-orderness", d.outOfOrderness),
        durationArg(a, "idleness", d.idleness),
        alertModel(a, d.alerts),
        durationArg(a, "issue-state-ttl", d.issueStateTtl),
        durationArg(a, "count-state-ttl", d.countStateTtl),
        ConfidencePolicy.parse(a.get("min-confidence"), d.confidence));
  }

  /** Copy with another confidence bar for the labels counted. */
  public StatsConfig withConfidence(ConfidencePolicy newConfidence) {
    return new StatsConfig(
        kafkaBootstrap,
        kafkaProperties,
        groupId,
        transactionalIdPrefix,
        graph,
        sink,
        checkpointInterval,
        parallelism,
        bounded,
        windows,
        slide,
        allowedLateness,
        outOfOrderness,
        idleness,
        alerts,
        issueStateTtl,
        countStateTtl,
        newConfidence);
  }

  private static AlertModel alertModel(Map<String, String> a, AlertModel d) {
    for (String[] replaced :
        new String[][] {
          {"alert-fdr", "--alert-false-rate (false alerts per framework-month, e.g. 0.2)"},
          {"alert-long-window", "--alert-max-run (the longest run a CUSUM sums over, e.g. P28D)"}
        }) {
      if (a.containsKey(replaced[0])) {
        throw new IllegalArgumentException(
            "--"
                + replaced[0]
                + " is gone: the alerts are CUSUMs of each category's share now (stream-jobs/README.md,"
                + " \"Alerts\"); use "
                + replaced[1]);
      }
    }
    return new AlertModel(
            days(a, "alert-window", d.windowDays()),
            days(a, "alert-max-run", d.runDays()),
            days(a, "alert-baseline", d.baselineDays()),
            days(a, "alert-warmup", d.warmupDays()),
            doubleArg(a, "alert-prior-weight", d.priorWeight()),
            doubleArg(a, "alert-false-rate", d.falseAlertsPerMonth()),
            longArg(a, "alert-min-count", d.minCount()),
            doubleArg(a, "alert-min-ratio", d.minRatio()),
            doubleArg(a, "alert-max-dispersion", d.maxDispersion()),
            days(a, "release-before", d.releaseBeforeDays()),
            days(a, "release-after", d.releaseAfterDays()))
        .actionable(
            quietDimensions(a.get("alert-quiet-dimensions"), d.quietDimensions()),
            booleanArg(a, "alert-majority-codes", d.majorityAlerts()))
        .withFullBudgetIssues(doubleArg(a, "alert-full-budget-issues", d.fullBudgetIssues()));
  }

  /** {@code --alert-quiet-dimensions phase,kind}: dimension keys, or {@code none}. */
  private static Set<Dimension> quietDimensions(String v, Set<Dimension> fallback) {
    if (v == null) {
      return fallback;
    }
    Set<Dimension> out = EnumSet.noneOf(Dimension.class);
    for (String k : v.split(",")) {
      if (k.isBlank() || k.strip().equals("none")) {
        continue;
      }
      out.add(
          Dimension.ofKey(k.strip())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "--alert-quiet-dimensions: '"
                              + k.strip()
                              + "' is not a dimension (e.g. phase,kind, or none)")));
    }
    return out;
  }

  private static boolean booleanArg(Map<String, String> a, String name, boolean fallback) {
    String v = a.get(name);
    if (v == null) {
      return fallback;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not true or false");
    }
    return Boolean.parseBoolean(v);
  }

  private static int days(Map<String, String> a, String name, int fallback) {
    Duration d = durationArg(a, name, Duration.ofDays(fallback));
    if (d.toMillis() % Duration.ofDays(1).toMillis() != 0) {
      throw new IllegalArgumentException(
          "--" + name + " " + d + " is not whole days: write e.g. P7D");
    }
    return (int) d.toDays();
  }

  private static double doubleArg(Map<String, String> a, String name, double fallback) {
    String v = a.get(name);
    try {
      return v == null ? fallback : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not a number");
    }
  }

  private static Duration durationArg(Map<String, String> a, String name, Duration fallback) {
    String v = a.get(name);
    return v == null ? fallback : duration(name, v);
  }

  private static Duration duration(String name, String value) {
    try {
      return Duration.parse(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "--"
              + name
              + " '"
              + value
              + "' is not an ISO-8601 duration: write e.g. P7D, PT6H or PT1M");
    }
  }

  private static int intArg(Map<String, String> a, String name, int fallback) {
    return (int) longArg(a, name, fallback);
  }

  private static long longArg(Map<String, String> a, String name, long fallback) {
    String v = a.get(name);
    try {
      return v == null ? fallback : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not a whole number");
    }
  }

  private static void positive(String what, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be a positive duration, was " + d);
    }
  }

  private static void notNegative(String what, Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be zero or positive, was " + d);
    }
  }
}
