package dev.faultline.infra.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.StatsConfig;
import dev.faultline.stats.domain.Explanations;
import dev.faultline.stats.keys.Categories;
import dev.faultline.stats.keys.StatDimensions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recomputes the category statistics from the graph's {@code Issue} nodes and compares them with
 * the {@code CategoryCount} nodes the statistics job wrote: the check behind "the statistics equal
 * a fresh recomputation".
 *
 * <p>The recount follows the job's rules ({@code IssueContributions}): a non-deleted issue counts
 * once per dimension, under its current framework and category, in the daily bucket of the time it
 * entered that category; a rolling window of length W ending at E counts the entries in [E - W, E);
 * a release count holds every issue whose current classification reports that release, whatever the
 * time. Retracted entries net to zero wherever they fall, so only the current entry matters. The
 * graph keeps an issue's latest state, not its history, so the entry time is known only to lie in
 * [createdAt, stateVersion] (the issue's first and newest event times). A window holding all of
 * that span counts the issue exactly; a window holding none of it does not count it; a window
 * cutting it may or may not. Each expected count is therefore a range, exact (one value) wherever
 * no issue's span is cut, and the stored count must lie in it; absent nodes count 0. Every issue
 * must fall in at least one exact count per dimension, so each is shown counted exactly once.
 *
 * <p>Rolling windows are emitted when the watermark passes their end. {@link #awaitAgreement}
 * therefore first sends event-time markers: new issues of {@value #MARKER_REPO}, one on each
 * partition of the classified-issue topic, dated past every window of the newest issue; they move
 * the watermark past those windows, and the windows that end before the markers' day are compared.
 * Late data reach the counts through the job's correction path, which re-emits at the next
 * watermark; so when the counts do not agree within a round, later markers are sent. The markers
 * are issues like any other: they are counted, and recounted.
 */
final class StatsRecount {
  private static final Logger LOG = LoggerFactory.getLogger(StatsRecount.class);

  /** Repository of the event-time marker issues. */
  static final String MARKER_REPO = "faultline-drills/event-time";

  private static final String ISSUES =
      """
      MATCH (i:Issue) WHERE i.stateVersion IS NOT NULL AND i.symptom IS NOT NULL
      RETURN i {.id, .framework, .frameworkVersion, .state, .stateVersion, createdAt: i.createdAt.epochMillis,
                .symptom, .symptomClass, .rootCause, .fixPattern, .stage, .phase, .distributedSpecific,
                .symptomConfidence, .rootCauseConfidence, .fixPatternConfidence, .stageConfidence, .phaseConfidence,
                .distributedSpecificConfidence, .humanGiven}
      """;
  private static final String COUNTS =
      """
      MATCH (c:CategoryCount)
      RETURN c {.framework, .dimension, .category, .window, .release, .count,
                windowStart: c.windowStart.epochMillis, windowEnd: c.windowEnd.epochMillis}
      """;
  private static final String NEWEST_EVENT_TIME = "MATCH (i:Issue) RETURN max(i.stateVersion)";

  /** How long markers get to move the watermark and flush the counts before later ones are sent. */
  private static final Duration ROUND = Duration.ofSeconds(30);

  private static final int MAX_DIFF_LINES = 40;

  private final StackClient client;
  private final Settings settings;
  private final int partitions;
  private final dev.faultline.graph.ConfidencePolicy confidence;
  private final ObjectMapper json = new ObjectMapper();
  private long lastMarkerDay = Long.MIN_VALUE;

  /**
   * @param config the statistics job's settings
   * @param partitions partitions of the classified-issue topic
   */
  StatsRecount(StackClient client, StatsConfig config, int partitions) {
    this.client = client;
    this.settings = Settings.of(config);
    this.partitions = partitions;
    this.confidence = config.confidence();
  }

  /** The job's event-time settings the recount needs. */
  record Settings(List<Duration> windows, Duration slide, Duration outOfOrderness) {
    static Settings of(StatsConfig config) {
      return new Settings(config.windows(), config.slide(), config.eventTime().outOfOrderness());
    }

    long longest() {
      return windows.get(windows.size() - 1).toMillis();
    }

    long floor(long time) {
      return Math.floorDiv(time, slide.toMillis()) * slide.toMillis();
    }
  }

  /**
   * What the graph holds of one issue, as the statistics read it.
   *
   * @param release the framework version its classification reports, or null
   * @param createdAt first event time, epoch millis
   * @param stateVersion newest event time folded into its state (the classified record's {@code
   *     updatedAt})
   * @param categories category per {@link Dimension}
   */
  record IssueFacts(
      String id,
      String framework,
      String release,
      boolean deleted,
      long createdAt,
      long stateVersion,
      Map<Dimension, String> categories) {}

  /**
   * One count: a rolling window ({@code windowStart}, {@code windowEnd} set, {@code release} null)
   * or a release count ({@code window} = {@code release}).
   */
  record Key(
      String framework,
      String dimension,
      String category,
      String window,
      Long windowStart,
      Long windowEnd,
      String release)
      implements Comparable<Key> {
    static Key rolling(
        String framework, Dimension d, String category, String window, long start, long end) {
      return new Key(framework, d.key(), category, window, start, end, null);
    }

    static Key ofRelease(String framework, Dimension d, String category, String release) {
      return new Key(framework, d.key(), category, "release", null, null, release);
    }

    @Override
    public int compareTo(Key o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      String where =
          release != null
              ? "release " + release
              : window
                  + " ["
                  + Instant.ofEpochMilli(windowStart)
                  + ", "
                  + Instant.ofEpochMilli(windowEnd)
                  + ")";
      return framework + " " + dimension + "=" + category + " " + where;
    }
  }

  /**
   * The expected value of one count: between {@code min} and {@code max}, exact when they are
   * equal.
   */
  record Expected(long min, long max) {
    boolean exact() {
      return min == max;
    }

    boolean admits(long value) {
      return min <= value && value <= max;
    }

    @Override
    public String toString() {
      return exact() ? Long.toString(min) : min + ".." + max;
    }
  }

  /**
   * The outcome of one comparison.
   *
   * @param closedUpTo rolling windows ending at or before this time were compared; later ones are
   *     not emitted yet
   * @param mismatches one readable line per count that is not what the recount expects
   * @param uncounted issue × dimension pairs that no exact count covers (their counting is only
   *     bounded)
   */
  record Comparison(
      long closedUpTo, int compared, int exact, List<String> mismatches, List<String> uncounted) {
    boolean agrees() {
      return mismatches.isEmpty() && uncounted.isEmpty();
    }

    /** Summary and, on disagreement, the differences. */
    String report() {
      StringBuilder b =
          new StringBuilder()
              .append(compared)
              .append(" counts compared (")
              .append(exact)
              .append(" exact, the rest bounded), rolling windows ending up to ")
              .append(Instant.ofEpochMilli(closedUpTo));
      if (!mismatches.isEmpty()) {
        b.append("\n")
            .append(mismatches.size())
            .append(" stored counts differ from the recount of the graph's issues:");
        mismatches.stream().limit(MAX_DIFF_LINES).forEach(m -> b.append("\n  ").append(m));
        if (mismatches.size() > MAX_DIFF_LINES) {
          b.append("\n  … and ").append(mismatches.size() - MAX_DIFF_LINES).append(" more");
        }
      }
      if (!uncounted.isEmpty()) {
        b.append("\n")
            .append(uncounted.size())
            .append(" issue dimensions fall in no exact count (not shown counted once): ");
        b.append(
            String.join(", ", uncounted.subList(0, Math.min(uncounted.size(), MAX_DIFF_LINES))));
      }
      return b.toString();
    }
  }

  /**
   * Expected counts of {@code issues}: every release count, and every rolling window ending at or
   * before {@code closedUpTo} that may hold an issue.
   */
  static Map<Key, Expected> recount(
      Collection<IssueFacts> issues, Settings settings, long closedUpTo) {
    Map<Key, long[]> bounds = new HashMap<>();
    for (IssueFacts issue : issues) {
      if (issue.deleted()) {
        continue;
      }
      for (Dimension d : StatDimensions.COUNTED) {
        String category = issue.categories().get(d);
        if (issue.release() != null && !issue.release().isBlank()) {
          add(bounds, Key.ofRelease(issue.framework(), d, category, issue.release()), true);
        }
        for (Duration window : settings.windows()) {
          long length = window.toMillis();
          String label = Explanations.windowLabel(window);
          long lastEnd = Math.min(closedUpTo, settings.floor(issue.stateVersion()) + length);
          for (long end = settings.floor(issue.createdAt()) + settings.slide().toMillis();
              end <= lastEnd;
              end += settings.slide().toMillis()) {
            long start = end - length;
            boolean holdsSpan = start <= issue.createdAt() && issue.stateVersion() < end;
            add(bounds, Key.rolling(issue.framework(), d, category, label, start, end), holdsSpan);
          }
        }
      }
    }
    Map<Key, Expected> out = new HashMap<>();
    bounds.forEach((k, b) -> out.put(k, new Expected(b[0], b[1])));
    return out;
  }

  private static void add(Map<Key, long[]> bounds, Key key, boolean certain) {
    long[] b = bounds.computeIfAbsent(key, k -> new long[2]);
    b[0] += certain ? 1 : 0;
    b[1] += 1;
  }

  /**
   * Compares {@code stored} counts with the recount of {@code issues}; rolling windows ending after
   * {@code closedUpTo} are left out, absent counts are 0.
   */
  static Comparison compare(
      Collection<IssueFacts> issues, Map<Key, Long> stored, Settings settings, long closedUpTo) {
    Map<Key, Expected> expected = recount(issues, settings, closedUpTo);
    TreeSet<Key> keys = new TreeSet<>(expected.keySet());
    stored.keySet().stream()
        .filter(k -> k.windowEnd() == null || k.windowEnd() <= closedUpTo)
        .forEach(keys::add);
    List<String> mismatches = new ArrayList<>();
    int exact = 0;
    for (Key k : keys) {
      Expected e = expected.getOrDefault(k, new Expected(0, 0));
      Long value = stored.get(k);
      exact += e.exact() ? 1 : 0;
      if (!e.admits(value == null ? 0 : value)) {
        mismatches.add(k + ": stored " + (value == null ? "nothing" : value) + ", recount " + e);
      }
    }
    return new Comparison(
        closedUpTo,
        keys.size(),
        exact,
        mismatches,
        uncounted(issues, expected, settings, closedUpTo));
  }

  /**
   * Issue × dimension pairs that fall in no exact count: a release count, or a window holding the
   * issue's whole span. Issues with events after {@code closedUpTo} (the newest markers) are not
   * asked to.
   */
  private static List<String> uncounted(
      Collection<IssueFacts> issues,
      Map<Key, Expected> expected,
      Settings settings,
      long closedUpTo) {
    List<String> out = new ArrayList<>();
    for (IssueFacts issue : issues) {
      if (issue.deleted() || issue.stateVersion() >= closedUpTo) {
        continue;
      }
      for (Dimension d : StatDimensions.COUNTED) {
        if (!countedExactly(issue, d, expected, settings, closedUpTo)) {
          out.add(issue.id() + " " + d.key());
        }
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static boolean countedExactly(
      IssueFacts issue,
      Dimension d,
      Map<Key, Expected> expected,
      Settings settings,
      long closedUpTo) {
    String category = issue.categories().get(d);
    if (issue.release() != null && !issue.release().isBlank()) {
      return true; // release counts are exact: they do not depend on time
    }
    for (Duration window : settings.windows()) {
      long length = window.toMillis();
      for (long end = settings.floor(issue.stateVersion()) + settings.slide().toMillis();
          end <= Math.min(closedUpTo, settings.floor(issue.createdAt()) + length);
          end += settings.slide().toMillis()) {
        Expected e =
            expected.get(
                Key.rolling(
                    issue.framework(),
                    d,
                    category,
                    Explanations.windowLabel(window),
                    end - length,
                    end));
        if (e != null && e.exact()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Moves event time past every window of the issues in the graph and waits until the stored counts
   * agree with the recount. Fails, with the differences, if they do not within {@code timeout}.
   */
  Comparison awaitAgreement(Duration timeout) throws Exception {
    long started = System.nanoTime();
    long deadline = started + timeout.toNanos();
    Comparison last = null;
    Exception lastError = null;
    int rounds = 0;
    while (System.nanoTime() < deadline) {
      long closedUpTo = sendMarkers(deadline);
      rounds++;
      LOG.info(
          "Event-time markers of round {} sent: comparing windows ending up to {}",
          rounds,
          Instant.ofEpochMilli(closedUpTo));
      long roundEnd = Math.min(deadline, System.nanoTime() + ROUND.toNanos());
      while (System.nanoTime() < roundEnd) {
        try {
          last = compare(issues(), storedCounts(), settings, closedUpTo);
          lastError = null;
          if (last.agrees()) {
            LOG.info(
                "Statistics equal the recount of the graph's issues after {} ms and {} round(s) of markers: {}",
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                rounds,
                last.report());
            return last;
          }
        } catch (Exception e) {
          lastError = e; // Neo4j may be coming back from a drill; the deadline decides
        }
        Thread.sleep(500);
      }
      if (last != null && !last.agrees()) {
        LOG.info(
            "No agreement {} s after the markers of round {}: {}",
            ROUND.toSeconds(),
            rounds,
            last.report());
      }
    }
    AssertionError failure =
        new AssertionError(
            "Timed out after "
                + timeout.toSeconds()
                + " s and "
                + rounds
                + " round(s) of event-time markers waiting for the statistics to equal a recount of the graph's issues: "
                + (last == null ? "no comparison completed" : last.report()));
    if (lastError != null) {
      failure.addSuppressed(lastError);
    }
    throw failure;
  }

  /**
   * Delivers marker issues opened after every window of the newest issue has ended (and after the
   * previous markers), one on each partition of the classified-issue topic, and returns the end of
   * the last window they close: their day's start. One marker per partition, because a marker on
   * one partition alone moves the watermark only once the others fall idle, and is lost when its
   * own partition falls idle first (the watermark of idle partitions is not taken into account, and
   * once all are idle none is emitted).
   */
  private long sendMarkers(long deadline) throws Exception {
    long newest = client.count(NEWEST_EVENT_TIME, Map.of());
    long day =
        Math.max(
            settings.floor(newest) + settings.longest(),
            lastMarkerDay + settings.slide().toMillis());
    lastMarkerDay = day;
    // Just past the out-of-orderness bound, so the watermark passes the start of the markers' day
    // and no further.
    String at =
        Instant.ofEpochMilli(
                day + settings.outOfOrderness().toMillis() + Duration.ofMinutes(1).toMillis())
            .toString();
    long first = Math.floorDiv(day, settings.slide().toMillis()) * 1000;
    for (int partition = 0; partition < partitions; partition++) {
      long number = first;
      while (partitionOf(MARKER_REPO + "#" + number) != partition) {
        number++;
      }
      deliver(json.writeValueAsBytes(markerPayload(number, at)), deadline);
    }
    return day;
  }

  /**
   * The partition the classified record of issue {@code id} goes to: keyed by the id, default
   * partitioner.
   */
  private int partitionOf(String id) {
    return Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  private void deliver(byte[] body, long deadline) throws Exception {
    int status = -1;
    while (status / 100 != 2) {
      try {
        status = client.deliver("issues", UUID.randomUUID().toString(), body).statusCode();
      } catch (java.io.IOException e) {
        status = -1;
      }
      if (status / 100 != 2) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "the receiver did not accept an event-time marker (last status " + status + ")");
        }
        Thread.sleep(500);
      }
    }
  }

  private static Map<String, Object> markerPayload(long number, String at) {
    Map<String, Object> issue = new LinkedHashMap<>();
    issue.put("number", number);
    issue.put("title", "Event-time marker " + at);
    issue.put("body", "Moves the statistics job's event time forward for a recount.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + MARKER_REPO + "/issues/" + number);
    issue.put("user", Map.of("login", "faultline-drill"));
    issue.put("labels", List.of());
    issue.put("created_at", at);
    issue.put("updated_at", at);
    issue.put("closed_at", null);
    return Map.of(
        "action", "opened", "issue", issue, "repository", Map.of("full_name", MARKER_REPO));
  }

  /** The classified issues in the graph. */
  List<IssueFacts> issues() throws Exception {
    List<IssueFacts> out = new ArrayList<>();
    for (JsonNode r : client.cypher(ISSUES, Map.of())) {
      JsonNode i = r.path("row").path(0);
      Map<Dimension, String> categories = new EnumMap<>(Dimension.class);
      for (Dimension d : StatDimensions.COUNTED) {
        categories.put(d, i.path(d.key()).asText());
      }
      // Stored as a boolean, null when the text cannot tell; counted as TRUE, FALSE or UNKNOWN.
      JsonNode flag = i.path(Dimension.DISTRIBUTED_SPECIFIC.key());
      categories.put(
          Dimension.DISTRIBUTED_SPECIFIC,
          Categories.ofFlag(flag.isBoolean() ? flag.asBoolean() : null));
      // the job counts a label below its confidence bar as UNKNOWN: so does the recount
      List<String> human = new ArrayList<>();
      i.path("humanGiven").forEach(h -> human.add(h.asText()));
      for (Dimension d : StatDimensions.COUNTED) {
        String bar = d == Dimension.SYMPTOM_CLASS ? "symptom" : d.key();
        JsonNode c = i.path(bar + "Confidence");
        if (!confidence.passes(bar, c.isNumber() ? c.asDouble() : null, human.contains(bar))) {
          categories.put(d, "UNKNOWN");
        }
      }
      out.add(
          new IssueFacts(
              i.path("id").asText(),
              i.path("framework").asText(),
              textOrNull(i.path("frameworkVersion")),
              "deleted".equals(i.path("state").asText()),
              i.path("createdAt").asLong(),
              i.path("stateVersion").asLong(),
              categories));
    }
    return out;
  }

  /** The CategoryCount nodes, by key. */
  Map<Key, Long> storedCounts() throws Exception {
    Map<Key, Long> out = new HashMap<>();
    for (JsonNode r : client.cypher(COUNTS, Map.of())) {
      JsonNode c = r.path("row").path(0);
      Key k =
          new Key(
              c.path("framework").asText(),
              c.path("dimension").asText(),
              c.path("category").asText(),
              c.path("window").asText(),
              longOrNull(c.path("windowStart")),
              longOrNull(c.path("windowEnd")),
              textOrNull(c.path("release")));
      if (out.put(k, c.path("count").asLong()) != null) {
        throw new AssertionError("two CategoryCount nodes for one count: " + k);
      }
    }
    return out;
  }

  private static String textOrNull(JsonNode n) {
    return n.isNull() || n.isMissingNode() ? null : n.asText();
  }

  private static Long longOrNull(JsonNode n) {
    return n.isNull() || n.isMissingNode() ? null : n.asLong();
  }
}
