package dev.faultline.stats.alerts;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.detect.DailyTable;
import dev.faultline.stats.detect.Finding;
import dev.faultline.stats.domain.Explanations;
import dev.faultline.stats.keys.AlertKeys;
import dev.faultline.stats.records.AlertMove;
import dev.faultline.stats.records.StatAlert;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The episodes of a framework's alerts, pure: which keys alert at a day end, which episodes they
 * make, and what must be emitted or withdrawn to bring the alerts in force up to date. The Flink
 * operator ({@code EmergenceDetector}) keeps the state this reads through {@link AlertingEnds} and
 * {@link ExampleDays} and applies the {@link Revision}s it returns.
 *
 * <p>An episode is a run of alerting ends of one key with less than a window ({@link
 * AlertModel#windowDays()}) between consecutive ones; its alert carries the figures of its first
 * end, under an id naming that end's window ({@link #idOf}). A release comparison is one alert,
 * under an id naming the release.
 */
public final class EpisodeModel implements Serializable {
  private static final long DAY = Duration.ofDays(1).toMillis();

  /** Issue ids of an alert's window that grouping compares, at most. */
  public static final int GROUPING_IDS = 100;

  private final AlertModel model;
  private final int maxExamples;

  /**
   * @param maxExamples example issues an alert names at most
   */
  public EpisodeModel(AlertModel model, int maxExamples) {
    this.model = model;
    this.maxExamples = maxExamples;
  }

  public AlertModel model() {
    return model;
  }

  /** The alerting keys at each day end, as the operator's state holds them. */
  @FunctionalInterface
  public interface AlertingEnds {
    /** The alerts (by key) at the day end, or null. */
    Map<String, StatAlert> at(long endDay) throws Exception;
  }

  /**
   * The example issues of a key on a day (sorted, never null), as the operator's state holds them.
   */
  @FunctionalInterface
  public interface ExampleDays {
    String[] at(String key, long day) throws Exception;
  }

  /** What one day end's family test found: the alerting keys and the release alerts. */
  public record Tested(Map<String, StatAlert> alerting, List<StatAlert> releaseAlerts) {}

  /** What the alerts in force need: withdrawals (already marked) first, then new or changed. */
  public record Revision(List<StatAlert> withdrawn, List<StatAlert> emitted) {}

  /** Tests the family at {@code end} and turns its alerting findings into alerts. */
  public Tested test(
      String framework,
      DailyTable table,
      long end,
      long firstDay,
      List<AlertModel.ReleaseMark> marks,
      ExampleDays examples)
      throws Exception {
    Map<String, StatAlert> now = new TreeMap<>();
    List<StatAlert> releaseAlerts = new ArrayList<>();
    for (Finding f : model.scan(table, end, firstDay, marks)) {
      if (!f.alert()) {
        continue;
      }
      StatAlert a = alertOf(framework, f, examples);
      if (f.release() != null) {
        releaseAlerts.add(a);
      } else {
        now.put(f.key(), a);
      }
    }
    return new Tested(now, releaseAlerts);
  }

  /** The keys whose alert at an end differs between two tests of it. */
  public static Set<String> changed(Map<String, StatAlert> before, Map<String, StatAlert> now) {
    Set<String> touched = new HashSet<>();
    for (String k : before.keySet()) {
      if (!now.containsKey(k) || !now.get(k).sameAs(before.get(k))) {
        touched.add(k);
      }
    }
    for (String k : now.keySet()) {
      if (!before.containsKey(k)) {
        touched.add(k);
      }
    }
    return touched;
  }

  /**
   * Recomputes the episodes of the touched keys around the re-tested ends [lo, hi] and the release
   * alerts of the re-tested ends, and says what differs from the alerts in force.
   *
   * @param inForce the alerts in force (id to alert); not modified
   */
  public Revision reconcile(
      Set<String> touched,
      long lo,
      long hi,
      AlertingEnds alerting,
      List<StatAlert> releaseAlerts,
      Set<Long> releaseTested,
      Map<String, StatAlert> inForce)
      throws Exception {
    Map<String, StatAlert> desired = new LinkedHashMap<>();
    Map<String, long[]> ranges = new HashMap<>();
    for (String key : new TreeSet<>(touched)) {
      long[] range = episodeRange(key, lo, hi, alerting);
      ranges.put(key, range);
      episodes(key, range, alerting, desired);
    }
    for (StatAlert r : releaseAlerts) {
      StatAlert copy = r.copy();
      copy.id = idOf(copy);
      desired.put(copy.id, copy);
    }
    List<StatAlert> withdrawn = new ArrayList<>();
    for (StatAlert a : inForce.values()) {
      long end = a.windowEnd / DAY;
      boolean revised =
          a.release != null ? releaseTested.contains(end) : inRange(ranges.get(keyOf(a)), end);
      if (revised && !desired.containsKey(a.id)) {
        withdrawn.add(withdrawal(a));
      }
    }
    List<StatAlert> emitted = new ArrayList<>();
    for (StatAlert a : desired.values()) {
      StatAlert before = inForce.get(a.id);
      if (before == null || !before.sameAs(a) || !Arrays.equals(before.issueIds, a.issueIds)) {
        emitted.add(a);
      }
    }
    return new Revision(withdrawn, emitted);
  }

  /** The withdrawal of an alert in force: same id, {@code withdrawn}, the reason first. */
  public static StatAlert withdrawal(StatAlert a) {
    StatAlert w = a.copy();
    w.withdrawn = true;
    w.explanation =
        "Withdrawn: with later records this window is no longer unusual. " + a.explanation;
    return w;
  }

  /**
   * The ends an episode touching [lo, hi] can span: widened while alerting ends of the key lie
   * within a window of it (a quiet window ends an episode).
   */
  private long[] episodeRange(String key, long lo, long hi, AlertingEnds alerting)
      throws Exception {
    int gap = model.windowDays();
    long a = lo;
    for (long e = a - 1; e >= a - gap; e--) {
      if (alertingAt(alerting, e, key) != null) {
        a = e;
      }
    }
    long z = hi;
    for (long e = z + 1; e <= z + gap; e++) {
      if (alertingAt(alerting, e, key) != null) {
        z = e;
      }
    }
    return new long[] {a, z};
  }

  /**
   * The key's episodes in the range, each as the alert of its first end, with the issues of every
   * end's window (what grouping compares: an event's issues keep arriving after its first end).
   */
  private void episodes(
      String key, long[] range, AlertingEnds alerting, Map<String, StatAlert> desired)
      throws Exception {
    Long lastAlerting = null;
    StatAlert episode = null;
    Set<String> issues = new TreeSet<>();
    for (long e = range[0]; e <= range[1]; e++) {
      StatAlert s = alertingAt(alerting, e, key);
      if (s == null) {
        continue;
      }
      if (lastAlerting == null || e - lastAlerting > model.windowDays()) {
        withIssues(episode, issues);
        episode = s.copy();
        episode.id = idOf(episode);
        desired.put(episode.id, episode);
        issues = new TreeSet<>();
      }
      issues.addAll(Arrays.asList(s.issueIds));
      lastAlerting = e;
    }
    withIssues(episode, issues);
  }

  /** Sets an episode's issues: the smallest {@link #GROUPING_IDS} of its ends' windows. */
  private static void withIssues(StatAlert episode, Set<String> issues) {
    if (episode != null) {
      episode.issueIds = issues.stream().limit(GROUPING_IDS).toArray(String[]::new);
    }
  }

  private static boolean inRange(long[] range, long end) {
    return range != null && end >= range[0] && end <= range[1];
  }

  private static StatAlert alertingAt(AlertingEnds alerting, long end, String key)
      throws Exception {
    Map<String, StatAlert> m = alerting.at(end);
    return m == null ? null : m.get(key);
  }

  /** The {@link AlertKeys} key of an alert. */
  public static String keyOf(StatAlert a) {
    return a.stage == null
        ? AlertKeys.category(a.dimension, a.category)
        : AlertKeys.pair(a.dimension, a.category, a.stage);
  }

  /**
   * The episode's id: names the window of its first end (or the release), so every replay writes
   * the same id.
   */
  public static String idOf(StatAlert a) {
    String dim = a.dimension.key();
    if (a.release != null) {
      return a.framework + "/" + dim + "/" + a.category + "/SURGE/release-" + a.release;
    }
    String start = Explanations.dateLabel(a.windowStart);
    return a.stage == null
        ? a.framework + "/" + dim + "/" + a.category + "/SURGE/" + start
        : a.framework + "/" + dim + "/" + a.category + "/" + a.stage + "/NEW_COMBINATION/" + start;
  }

  /**
   * The alert of an alerting finding, with up to {@code maxExamples} example issues of its window.
   */
  public StatAlert alertOf(String framework, Finding f, ExampleDays examples) throws Exception {
    StatAlert a = new StatAlert();
    a.framework = framework;
    a.dimension = f.dimension();
    a.category = f.category();
    a.stage = f.stage();
    a.kind = f.kind();
    a.release = f.release();
    a.windowStart = f.windowStartDay() * DAY;
    a.windowEnd = f.windowEndDay() * DAY;
    a.count = f.count();
    a.baseline = f.statedExpected();
    a.baselineCount = f.baselineCount();
    a.baselineStart = f.baselineStartDay() * DAY;
    a.baselineEnd = (f.baselineStartDay() + f.baselineDays()) * DAY;
    a.pValue = f.pValue();
    a.adjustedPValue = f.adjustedPValue();
    a.score = f.score();
    a.raisedAt = a.windowEnd;
    a.statistic = f.statistic();
    a.test = Explanations.test(f, model);
    a.exampleIssueIds =
        examplesOf(f.key(), f.windowStartDay(), f.windowEndDay(), examples, maxExamples);
    a.issueIds = examplesOf(f.key(), f.windowStartDay(), f.windowEndDay(), examples, GROUPING_IDS);
    a.explanation = Explanations.finding(framework, f, model, a.exampleIssueIds);
    return a;
  }

  /** Up to {@code maxExamples} issues of the key in the window, newest day first, sorted. */
  static String[] examplesOf(
      String key, long fromDay, long toDay, ExampleDays examples, int maxExamples)
      throws Exception {
    Set<String> ids = new LinkedHashSet<>();
    for (long d = toDay - 1; d >= fromDay && ids.size() < maxExamples; d--) {
      for (String id : examples.at(key, d)) {
        if (ids.size() < maxExamples) {
          ids.add(id);
        }
      }
    }
    String[] out = ids.toArray(String[]::new);
    Arrays.sort(out);
    return out;
  }

  /**
   * Dimensions too coarse to tie events together: a symptom class, a stage, a phase, a kind or the
   * distributed-specific flag holds issues of many unrelated events, so an alert of one of them
   * joins an event but never bridges two (it cannot lead a group that a finer member joins).
   */
  public static final Set<Dimension> COARSE =
      Collections.unmodifiableSet(
          EnumSet.of(
              Dimension.SYMPTOM_CLASS,
              Dimension.STAGE,
              Dimension.PHASE,
              Dimension.KIND,
              Dimension.DISTRIBUTED_SPECIFIC));

  /**
   * How much two episodes' issues must share to be one event: at least this fraction of the smaller
   * set.
   */
  public static final double MIN_OVERLAP = 0.5;

  /**
   * One alert per event, or the release alerts of one release. Events do not chain: each group has
   * a leader, and an episode joins a group only when its windows meet the leader's and the two
   * share at least {@link #MIN_OVERLAP} of the smaller one's issues ({@link StatAlert#issueIds});
   * two episodes that each share issues with a third but not with each other stay apart unless that
   * third leads. Leaders are chosen in a fixed order (a fine dimension before a {@link #COARSE}
   * one, then the first raised, then the id), every episode in that order joining the leader it
   * shares most with (the earlier leader on a tie) or leading a group of its own; so a coarse
   * episode leads only when no finer one takes it, and a stage shared by two symptoms' issues
   * cannot join them.
   *
   * <p>A group carries the figures of its strongest member by the statistic its test decided on
   * (the CUSUM's log-likelihood ratio; a release comparison's p-value, smaller first), lists every
   * member in {@link StatAlert#moved} strongest first, names examples of the strongest members
   * first (as many as one alert names), keeps the id of the member raised first (so a member
   * joining later never changes it) and is raised at its newest member's time. The groups are a
   * function of the episodes in force, whatever the order they came in.
   *
   * @return the groups by id, in id order
   */
  public static Map<String, StatAlert> groups(Collection<StatAlert> episodes) {
    List<StatAlert> all = new ArrayList<>(episodes);
    all.sort(LEADERS_FIRST);
    List<List<StatAlert>> groups = new ArrayList<>();
    for (StatAlert a : all) {
      List<StatAlert> best = null;
      double bestOverlap = 0;
      for (List<StatAlert> g : groups) {
        double overlap = overlap(g.get(0), a);
        if (overlap > bestOverlap) {
          best = g;
          bestOverlap = overlap;
        }
      }
      if (best == null) {
        best = new ArrayList<>();
        groups.add(best);
      }
      best.add(a);
    }
    Map<String, StatAlert> out = new TreeMap<>();
    for (List<StatAlert> group : groups) {
      StatAlert g = group(group);
      out.put(g.id, g);
    }
    return out;
  }

  /** Whether an episode is of a {@link #COARSE} dimension. */
  static boolean coarse(StatAlert a) {
    return COARSE.contains(a.dimension);
  }

  /** The order leaders are chosen in: fine first, then raised first, then by id. */
  static final Comparator<StatAlert> LEADERS_FIRST =
      Comparator.<StatAlert, Boolean>comparing(EpisodeModel::coarse)
          .thenComparingLong(a -> a.raisedAt)
          .thenComparing(a -> a.id);

  /**
   * How strongly {@code member} belongs with {@code leader}: the share of the smaller issue set the
   * two have in common when their windows meet and it is at least {@link #MIN_OVERLAP} (and, for
   * release alerts, 1 for the same release), else 0.
   */
  static double overlap(StatAlert leader, StatAlert member) {
    if (leader.release != null || member.release != null) {
      return leader.release != null && leader.release.equals(member.release) ? 1 : 0;
    }
    boolean windowsMeet =
        leader.windowStart <= member.windowEnd && member.windowStart <= leader.windowEnd;
    int smaller = Math.min(leader.issueIds.length, member.issueIds.length);
    if (!windowsMeet || smaller == 0) {
      return 0;
    }
    Set<String> ids = new HashSet<>(Arrays.asList(leader.issueIds));
    long shared = Arrays.stream(member.issueIds).filter(ids::contains).count();
    double fraction = shared / (double) smaller;
    return fraction >= MIN_OVERLAP ? fraction : 0;
  }

  /**
   * Strongest first: by the statistic its test decided on (a larger CUSUM log-likelihood ratio; for
   * release comparisons a smaller p-value), then the higher score, then the id.
   */
  static final Comparator<StatAlert> STRONGEST_FIRST =
      Comparator.<StatAlert>comparingDouble(a -> a.release != null ? a.pValue : -a.statistic)
          .thenComparing(a -> -a.score)
          .thenComparing(a -> a.id);

  private static StatAlert group(List<StatAlert> members) {
    List<StatAlert> ranked = new ArrayList<>(members);
    ranked.sort(STRONGEST_FIRST);
    StatAlert strongest = ranked.get(0);
    StatAlert g = strongest.copy();
    g.id =
        members.stream()
            .min(Comparator.<StatAlert>comparingLong(a -> a.raisedAt).thenComparing(a -> a.id))
            .orElseThrow()
            .id;
    g.raisedAt = members.stream().mapToLong(a -> a.raisedAt).max().orElseThrow();
    g.moved = new AlertMove[ranked.size()];
    Set<String> examples = new LinkedHashSet<>();
    Set<String> issues = new TreeSet<>();
    for (int i = 0; i < ranked.size(); i++) {
      StatAlert a = ranked.get(i);
      g.moved[i] = AlertMove.of(a, Explanations.firstSentence(a.explanation));
      examples.addAll(Arrays.asList(a.exampleIssueIds));
      issues.addAll(Arrays.asList(a.issueIds));
    }
    g.exampleIssueIds =
        examples.stream().limit(strongest.exampleIssueIds.length).sorted().toArray(String[]::new);
    g.issueIds = issues.toArray(String[]::new);
    if (ranked.size() > 1) {
      List<String> others = new ArrayList<>();
      for (int i = 1; i < g.moved.length; i++) {
        others.add(g.moved[i].summary);
      }
      g.explanation = Explanations.grouped(strongest.explanation, others, g.exampleIssueIds);
    }
    return g;
  }
}
