package dev.faultline.stats.domain;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.Categories;
import dev.faultline.stats.keys.StatDimensions;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ComboObservation;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.ReleaseDelta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one issue contributes to the counts, as a function of the set of its classified records (not
 * of their arrival order), and the deltas that move the counts from one history to the next.
 *
 * <p>Rules. The newest record (by {@code updatedAt}) gives the issue's current framework, release
 * and category per dimension. The issue counts once per dimension, in its current category, at the
 * event time it entered that category: the {@code updatedAt} of the first record of the trailing
 * run of records with that category, or the issue's {@code createdAt} when the run goes back to its
 * first record. A re-classification therefore retracts the old entry at the time it was made and
 * adds the new one at the change's {@code updatedAt}: counts never hold an issue twice and never go
 * negative. Beside the count, each issue adds its probability of being a bug report of every code
 * (and that Bernoulli's variance) at the same time as its count entry of that dimension: per
 * window, the expected counts spread the same issues over the codes by probability. A deleted issue
 * contributes nothing. Records with an equal {@code updatedAt} replace each other (a replay with a
 * new classifier version wins by arriving later).
 */
public final class IssueContributions {
  /** Dimensions whose categories are paired with the stage for the new-combination detector. */
  public static final List<Dimension> COMBINED_WITH_STAGE =
      List.of(Dimension.SYMPTOM, Dimension.ROOT_CAUSE, Dimension.FIX_PATTERN);

  /** Most records kept per issue; beyond, records that start no category run are dropped first. */
  public static final int MAX_RECORDS = 128;

  private IssueContributions() {}

  /** One counted entry: the issue in {@code category} of {@code dimension} since {@code time}. */
  public record Entry(String framework, Dimension dimension, String category, long time) {}

  /** One counted release entry; {@code since} is the issue's creation. */
  public record ReleaseEntry(
      String framework, String release, Dimension dimension, String category, long since) {}

  /** The outcome of folding one record into an issue's history. */
  public record Change(
      ClassifiedEvent[] history,
      List<ContributionDelta> deltas,
      List<ReleaseDelta> releaseDeltas,
      List<ComboObservation> combinations) {
    /** Whether the record changed the history at all (false for duplicates and redeliveries). */
    public boolean historyChanged(ClassifiedEvent[] before) {
      return history != before;
    }
  }

  /**
   * Folds {@code record} into {@code history} (sorted by updatedAt; may be null for a new issue).
   */
  public static Change fold(ClassifiedEvent[] history, ClassifiedEvent record) {
    ClassifiedEvent[] before = history == null ? new ClassifiedEvent[0] : history;
    ClassifiedEvent[] after = insert(before, record);
    if (after == before) {
      return new Change(before, List.of(), List.of(), List.of());
    }
    List<Entry> old = contributions(before);
    List<Entry> now = contributions(after);
    List<ContributionDelta> deltas = deltas(before, old, after, now, record.id);
    Set<ReleaseEntry> oldReleases = releaseContributions(before);
    Set<ReleaseEntry> nowReleases = releaseContributions(after);
    List<ReleaseDelta> releaseDeltas = new ArrayList<>();
    for (ReleaseEntry e : oldReleases) {
      if (!nowReleases.contains(e)) {
        releaseDeltas.add(
            new ReleaseDelta(
                e.framework(), e.release(), e.dimension(), e.category(), -1, e.since()));
      }
    }
    for (ReleaseEntry e : nowReleases) {
      if (!oldReleases.contains(e)) {
        releaseDeltas.add(
            new ReleaseDelta(
                e.framework(), e.release(), e.dimension(), e.category(), +1, e.since()));
      }
    }
    return new Change(after, deltas, releaseDeltas, newCombinations(old, now, record.id));
  }

  /** Where a delta lands: framework, dimension, category and event time. */
  private record Slot(String framework, Dimension dimension, String category, long time) {}

  /**
   * The deltas from one history to the next: the count's (entries retracted and added) and the
   * expected count's with its variance (every code's P(bug and code) at its dimension's entry time,
   * old ones retracted, new ones added), one delta per slot that moved, retractions first.
   */
  private static List<ContributionDelta> deltas(
      ClassifiedEvent[] before,
      List<Entry> old,
      ClassifiedEvent[] after,
      List<Entry> now,
      String id) {
    Map<Slot, double[]> net = new LinkedHashMap<>();
    for (Entry e : old) {
      if (!now.contains(e)) {
        add(net, slot(e, e.category()), -1, 0);
      }
    }
    expected(before, old, net, -1);
    for (Entry e : now) {
      if (!old.contains(e)) {
        add(net, slot(e, e.category()), +1, 0);
      }
    }
    expected(after, now, net, +1);
    List<ContributionDelta> deltas = new ArrayList<>();
    net.forEach(
        (s, v) -> {
          if (v[0] != 0 || Math.abs(v[1]) > 1e-12 || Math.abs(v[2]) > 1e-12) {
            deltas.add(
                new ContributionDelta(
                    s.framework(),
                    s.dimension(),
                    s.category(),
                    s.time(),
                    (int) v[0],
                    id,
                    v[1],
                    v[2]));
          }
        });
    return deltas;
  }

  private static Slot slot(Entry e, String category) {
    return new Slot(e.framework(), e.dimension(), category, e.time());
  }

  private static void add(Map<Slot, double[]> net, Slot s, int count, double expected) {
    double[] v = net.computeIfAbsent(s, k -> new double[3]);
    v[0] += count;
    v[1] += expected;
    v[2] += Math.signum(expected) * Math.abs(expected) * (1 - Math.abs(expected));
  }

  /**
   * Adds ({@code sign} +1) or retracts (−1) a history's expected counts: per counted dimension,
   * every code's P(bug and code) of the newest record ({@link ClassifiedEvent#bugProbabilities}),
   * at the time the dimension's current entry began.
   */
  private static void expected(
      ClassifiedEvent[] sorted, List<Entry> entries, Map<Slot, double[]> net, int sign) {
    if (entries.isEmpty()) {
      return;
    }
    ClassifiedEvent newest = sorted[sorted.length - 1];
    for (Entry e : entries) {
      List<String> codes = e.dimension().distributionCodes();
      double[] q = newest.bugProbabilities(e.dimension());
      for (int k = 0; k < q.length; k++) {
        if (q[k] > 0) {
          String category = Categories.ofDistributionCode(e.dimension(), codes.get(k));
          add(net, slot(e, category), 0, sign * q[k]);
        }
      }
    }
  }

  /**
   * Entries of a history sorted by updatedAt: one per counted dimension in {@link
   * StatDimensions#COUNTED} order, none for an empty or deleted issue.
   */
  public static List<Entry> contributions(ClassifiedEvent[] sorted) {
    if (sorted.length == 0) {
      return List.of();
    }
    ClassifiedEvent newest = sorted[sorted.length - 1];
    if (newest.deleted()) {
      return List.of();
    }
    long createdAt = Long.MAX_VALUE;
    for (ClassifiedEvent e : sorted) {
      createdAt = Math.min(createdAt, e.createdAt);
    }
    List<Entry> entries = new ArrayList<>(StatDimensions.COUNTED.size());
    for (Dimension dim : StatDimensions.COUNTED) {
      String category = newest.category(dim);
      int runStart = sorted.length - 1;
      while (runStart > 0 && category.equals(sorted[runStart - 1].category(dim))) {
        runStart--;
      }
      long since = runStart == 0 ? createdAt : sorted[runStart].updatedAt;
      entries.add(new Entry(newest.framework, dim, category, since));
    }
    return entries;
  }

  /**
   * Release entries: one per dimension for the release the newest record reports, none without one.
   */
  public static Set<ReleaseEntry> releaseContributions(ClassifiedEvent[] sorted) {
    if (sorted.length == 0) {
      return Set.of();
    }
    ClassifiedEvent newest = sorted[sorted.length - 1];
    if (newest.deleted() || newest.frameworkVersion == null || newest.frameworkVersion.isBlank()) {
      return Set.of();
    }
    long createdAt = Long.MAX_VALUE;
    for (ClassifiedEvent e : sorted) {
      createdAt = Math.min(createdAt, e.createdAt);
    }
    Set<ReleaseEntry> entries = new LinkedHashSet<>();
    for (Dimension dim : StatDimensions.COUNTED) {
      entries.add(
          new ReleaseEntry(
              newest.framework, newest.frameworkVersion, dim, newest.category(dim), createdAt));
    }
    return entries;
  }

  /** (category × stage) pairs the new entries hold and the old ones did not. */
  static List<ComboObservation> newCombinations(List<Entry> old, List<Entry> now, String issueId) {
    if (now.isEmpty()) {
      return List.of();
    }
    Entry stage = now.get(StatDimensions.indexOf(Dimension.STAGE));
    Entry oldStage = old.isEmpty() ? null : old.get(StatDimensions.indexOf(Dimension.STAGE));
    List<ComboObservation> out = new ArrayList<>();
    for (Dimension d : COMBINED_WITH_STAGE) {
      Entry e = now.get(StatDimensions.indexOf(d));
      Entry o = old.isEmpty() ? null : old.get(StatDimensions.indexOf(d));
      boolean samePair =
          o != null
              && oldStage != null
              && o.category().equals(e.category())
              && oldStage.category().equals(stage.category())
              && o.framework().equals(e.framework());
      if (!samePair) {
        out.add(
            new ComboObservation(
                e.framework(),
                d,
                e.category(),
                stage.category(),
                Math.max(e.time(), stage.time()),
                issueId));
      }
    }
    return out;
  }

  /**
   * The history with {@code record} in its place by updatedAt; the same array when the record is
   * already there (a redelivery), so callers can skip the state write.
   */
  static ClassifiedEvent[] insert(ClassifiedEvent[] sorted, ClassifiedEvent record) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid].updatedAt < record.updatedAt) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < sorted.length && sorted[lo].updatedAt == record.updatedAt) {
      if (sorted[lo].sameContent(record)) {
        return sorted;
      }
      ClassifiedEvent[] replaced = sorted.clone();
      replaced[lo] = record;
      return replaced;
    }
    ClassifiedEvent[] out = new ClassifiedEvent[sorted.length + 1];
    System.arraycopy(sorted, 0, out, 0, lo);
    out[lo] = record;
    System.arraycopy(sorted, lo, out, lo + 1, sorted.length - lo);
    return out.length > MAX_RECORDS ? compact(out) : out;
  }

  /**
   * Drops one record to stay within {@link #MAX_RECORDS}: one that starts no run (same content as
   * its predecessor, so the contributions do not change), else the second oldest.
   */
  private static ClassifiedEvent[] compact(ClassifiedEvent[] sorted) {
    int drop = 1;
    for (int i = sorted.length - 2; i >= 1; i--) {
      if (sorted[i].sameContent(sorted[i - 1])) {
        drop = i;
        break;
      }
    }
    ClassifiedEvent[] out = Arrays.copyOf(sorted, sorted.length - 1);
    System.arraycopy(sorted, drop + 1, out, drop, sorted.length - drop - 1);
    return out;
  }
}
