package dev.faultline.stats;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.common.JobArgs;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the category-stats job needs from its deployment, built once at the edge ({@link
 * #fromArgs} in {@code main}; the local stack directly). Defaults are {@link #defaults(JobIo)}'s
 * and the stream-jobs README's "Category statistics" section.
 *
 * @param io Kafka, graph, sink, checkpoints and parallelism; its consumer group reads {@code
 *     faultline.issues.classified} (read_committed), and its checkpoint interval is also how often
 *     the Kafka transactions commit, so the latency of {@code faultline.stats} for read_committed
 *     readers
 * @param transactionalIdPrefix prefix of the Kafka transactional ids of the exactly-once sinks;
 *     unique per job deployment on a cluster (two jobs with one prefix fence each other)
 * @param bounded read the topic up to its end offsets at start, then finish (a batch
 *     recomputation); false = live
 * @param windows lengths of the rolling windows (default 7 and 30 days); each a multiple of {@code
 *     slide}
 * @param slide how far the rolling windows advance, and the size of the daily buckets they are
 *     summed from (1 day)
 * @param eventTime lateness, watermark bound and idleness
 * @param alerts the emerging-category alert model (defaults: CUSUMs of each category's share over
 *     runs of up to 28 days, reported in 7-day windows, against a baseline of 182 days after a
 *     warm-up of 56; at most 0.2 false alerts per framework-month; support ≥ 3 issues and ≥ 2 ×
 *     expected; a release's 28 days after against its 56 before): see {@link AlertModel}
 * @param retention how long issue histories and daily counts are kept
 * @param confidence which labels count: a label below its dimension's bar counts as UNKNOWN (a
 *     human-given one always passes), so counts and alerts rest on labels right at least 90% of the
 *     time by default
 */
public record StatsConfig(
    JobIo io,
    String transactionalIdPrefix,
    boolean bounded,
    List<Duration> windows,
    Duration slide,
    EventTime eventTime,
    AlertModel alerts,
    Retention retention,
    ConfidencePolicy confidence)
    implements Serializable {

  public static final List<Duration> DEFAULT_WINDOWS =
      List.of(Duration.ofDays(7), Duration.ofDays(30));

  /** What the job's flags fall back to: its consumer group, checkpoints every 10 s. */
  public static final JobIo.Defaults IO_DEFAULTS =
      new JobIo.Defaults("faultline-category-stats", Duration.ofSeconds(10));

  /**
   * Event time.
   *
   * @param allowedLateness how long after a bucket closes (watermark past its end) late data still
   *     updates it in the window operator (7 days); later data goes to the correction path, which
   *     updates the counts as well
   * @param outOfOrderness watermark bound: how far behind the newest {@code updatedAt} an event may
   *     arrive and still count as on time (6 hours)
   * @param idleness a Kafka partition without records for this long stops holding the watermark
   *     back (1 minute)
   */
  public record EventTime(Duration allowedLateness, Duration outOfOrderness, Duration idleness)
      implements Serializable {
    public static final EventTime DEFAULTS =
        new EventTime(Duration.ofDays(7), Duration.ofHours(6), Duration.ofMinutes(1));

    public EventTime {
      notNegative("allowed lateness", allowedLateness);
      notNegative("out-of-orderness", outOfOrderness);
      positive("idleness", idleness);
    }
  }

  /**
   * How long state is kept (processing time).
   *
   * @param issueState how long an issue's history is kept after its last record (730 days). A
   *     record of an issue forgotten this way counts it anew
   * @param counts how long daily counts are kept after their last update (400 days); deltas for a
   *     day older than this are counted against what is left
   */
  public record Retention(Duration issueState, Duration counts) implements Serializable {
    public static final Retention DEFAULTS =
        new Retention(Duration.ofDays(730), Duration.ofDays(400));

    public Retention {
      positive("issue state TTL", issueState);
      positive("count state TTL", counts);
    }
  }

  public StatsConfig {
    Objects.requireNonNull(io, "io");
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
    Objects.requireNonNull(eventTime, "eventTime");
    if (alerts == null) {
      throw new IllegalArgumentException("no alert model: use AlertModel.defaults()");
    }
    Objects.requireNonNull(retention, "retention");
    if (confidence == null) {
      throw new IllegalArgumentException(
          "no confidence policy: use ConfidencePolicy.calibrated() or all()");
    }
  }

  /**
   * The job's I/O with its defaults (group {@code faultline-category-stats}, checkpoints every 10
   * s, the sink's defaults, the cluster's parallelism) on this Kafka and graph.
   */
  public static JobIo defaultIo(KafkaSettings kafka, GraphConfig graph) {
    return new JobIo(
        kafka,
        IO_DEFAULTS.groupId(),
        graph,
        SinkOptions.DEFAULTS,
        JobIo.Checkpoints.every(IO_DEFAULTS.checkpointInterval()),
        0);
  }

  /**
   * The defaults documented above on {@code io} (transactional ids prefixed with its group),
   * counting the labels above the calibrated bars.
   */
  public static StatsConfig defaults(JobIo io) {
    return new StatsConfig(
        io,
        io.groupId(),
        false,
        DEFAULT_WINDOWS,
        Duration.ofDays(1),
        EventTime.DEFAULTS,
        AlertModel.defaults(),
        Retention.DEFAULTS,
        ConfidencePolicy.calibrated());
  }

  /** Copy with other I/O. */
  public StatsConfig withIo(JobIo newIo) {
    return new StatsConfig(
        newIo,
        transactionalIdPrefix,
        bounded,
        windows,
        slide,
        eventTime,
        alerts,
        retention,
        confidence);
  }

  /** Copy that reads the topic up to its end offsets at start and then finishes, or not. */
  public StatsConfig withBounded(boolean newBounded) {
    return new StatsConfig(
        io,
        transactionalIdPrefix,
        newBounded,
        windows,
        slide,
        eventTime,
        alerts,
        retention,
        confidence);
  }

  /** Copy with other event-time settings. */
  public StatsConfig withEventTime(EventTime newEventTime) {
    return new StatsConfig(
        io,
        transactionalIdPrefix,
        bounded,
        windows,
        slide,
        newEventTime,
        alerts,
        retention,
        confidence);
  }

  /** Copy with another alert model. */
  public StatsConfig withAlerts(AlertModel newAlerts) {
    return new StatsConfig(
        io,
        transactionalIdPrefix,
        bounded,
        windows,
        slide,
        eventTime,
        newAlerts,
        retention,
        confidence);
  }

  /** Copy with another confidence bar for the labels counted. */
  public StatsConfig withConfidence(ConfidencePolicy newConfidence) {
    return new StatsConfig(
        io,
        transactionalIdPrefix,
        bounded,
        windows,
        slide,
        eventTime,
        alerts,
        retention,
        newConfidence);
  }

  /** Slides in the longest window. */
  public int maxWindowSlides() {
    return (int) (windows.get(windows.size() - 1).toMillis() / slide.toMillis());
  }

  /**
   * Reads {@code --name value} pairs: the job's I/O ({@link JobArgs#io}: Kafka, Neo4j, group, sink,
   * checkpoints, parallelism, falling back to {@code env}), {@code --transactional-id-prefix},
   * {@code --bounded true|false}, {@code --windows P7D,P30D}, {@code --slide P1D}, {@code
   * --allowed-lateness P7D}, {@code --out-of-orderness PT6H}, {@code --idleness PT1M}, {@code
   * --alert-window P7D}, {@code --alert-max-run P28D}, {@code --alert-baseline P182D}, {@code
   * --alert-warmup P56D}, {@code --alert-false-rate 0.2}, {@code --alert-min-count 3}, {@code
   * --alert-min-ratio 2}, {@code --alert-prior-weight 10}, {@code --alert-full-budget-issues 20}
   * (issues a month at which a framework spends the whole false-alert rate; a sparser one spends
   * its share, 0: no scaling), {@code --alert-max-dispersion 1}, {@code --release-before P56D},
   * {@code --release-after P28D}, {@code --alert-quiet-dimensions phase,kind} (dimensions never
   * alerted on, or {@code none}), {@code --alert-majority-codes false} (whether a dimension's
   * majority code may alert), {@code --issue-state-ttl P730D}, {@code --count-state-ttl P400D},
   * {@code --min-confidence calibrated|all|0.8} (default FAULTLINE_MIN_CONFIDENCE, else the
   * calibrated per-dimension bars). Durations are ISO-8601.
   */
  public static StatsConfig fromArgs(String[] args, Map<String, String> env) {
    JobArgs a = JobArgs.parse(args);
    JobIo io = a.io(env, IO_DEFAULTS);
    List<Duration> windows = new ArrayList<>();
    for (String w : a.get("windows", "P7D,P30D").split(",")) {
      windows.add(JobArgs.duration("windows", w.strip()));
    }
    EventTime e = EventTime.DEFAULTS;
    Retention r = Retention.DEFAULTS;
    return new StatsConfig(
        io,
        a.get("transactional-id-prefix", IO_DEFAULTS.groupId()),
        Boolean.parseBoolean(a.get("bounded", "false")),
        windows,
        a.duration("slide", Duration.ofDays(1)),
        new EventTime(
            a.duration("allowed-lateness", e.allowedLateness()),
            a.duration("out-of-orderness", e.outOfOrderness()),
            a.duration("idleness", e.idleness())),
        alertModel(a, AlertModel.defaults()),
        new Retention(
            a.duration("issue-state-ttl", r.issueState()),
            a.duration("count-state-ttl", r.counts())),
        ConfidencePolicy.parse(
            a.get("min-confidence", null),
            ConfidencePolicy.fromEnvironment(env, System.getProperties())));
  }

  private static AlertModel alertModel(JobArgs a, AlertModel d) {
    for (String[] replaced :
        new String[][] {
          {"alert-fdr", "--alert-false-rate (false alerts per framework-month, e.g. 0.2)"},
          {"alert-long-window", "--alert-max-run (the longest run a CUSUM sums over, e.g. P28D)"}
        }) {
      if (a.named().containsKey(replaced[0])) {
        throw new IllegalArgumentException(
            "--"
                + replaced[0]
                + " is gone: the alerts are CUSUMs of each category's share now (stream-jobs/README.md,"
                + " \"Alerts\"); use "
                + replaced[1]);
      }
    }
    return new AlertModel(
            a.days("alert-window", d.windowDays()),
            a.days("alert-max-run", d.runDays()),
            a.days("alert-baseline", d.baselineDays()),
            a.days("alert-warmup", d.warmupDays()),
            a.decimal("alert-prior-weight", d.priorWeight()),
            a.decimal("alert-false-rate", d.falseAlertsPerMonth()),
            a.whole("alert-min-count", d.minCount()),
            a.decimal("alert-min-ratio", d.minRatio()),
            a.decimal("alert-max-dispersion", d.maxDispersion()),
            a.days("release-before", d.releaseBeforeDays()),
            a.days("release-after", d.releaseAfterDays()))
        .actionable(
            quietDimensions(a.get("alert-quiet-dimensions", null), d.quietDimensions()),
            a.bool("alert-majority-codes", d.majorityAlerts()))
        .withFullBudgetIssues(a.decimal("alert-full-budget-issues", d.fullBudgetIssues()));
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
