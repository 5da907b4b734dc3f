package dev.faultline.stats.functions;

import dev.faultline.stats.detect.AlertModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A framework's release marks as the detector's re-tests read them: the first day each reported
 * release was seen (days with a positive net count of reports), by comparison end ({@code day +
 * releaseAfterDays}). Built from the release-report state ({@code release@day} to its net count);
 * {@link #movedBy} tells whether a change of one entry's sign can change them, so the detector
 * keeps one instance until then instead of parsing every entry at every re-test.
 */
final class ReleaseMarks {
  private final Map<String, Long> firstSeen;
  private final Map<Long, List<AlertModel.ReleaseMark>> byEnd;

  private ReleaseMarks(Map<String, Long> firstSeen, Map<Long, List<AlertModel.ReleaseMark>> byEnd) {
    this.firstSeen = firstSeen;
    this.byEnd = byEnd;
  }

  /** The marks of the release reports {@code releases} ({@code release@day} to net count). */
  static ReleaseMarks of(Iterable<Map.Entry<String, Integer>> releases, int releaseAfterDays) {
    Map<String, Long> firstSeen = new TreeMap<>();
    for (Map.Entry<String, Integer> e : releases) {
      if (e.getValue() <= 0) {
        continue;
      }
      int at = e.getKey().lastIndexOf('@');
      firstSeen.merge(
          e.getKey().substring(0, at), Long.parseLong(e.getKey().substring(at + 1)), Math::min);
    }
    Map<Long, List<AlertModel.ReleaseMark>> byEnd = new HashMap<>();
    firstSeen.forEach(
        (version, day) ->
            byEnd
                .computeIfAbsent(day + releaseAfterDays, k -> new ArrayList<>())
                .add(new AlertModel.ReleaseMark(version, day)));
    byEnd.replaceAll((end, marks) -> List.copyOf(marks));
    return new ReleaseMarks(firstSeen, byEnd);
  }

  /** The marks by comparison end (unmodifiable lists). */
  Map<Long, List<AlertModel.ReleaseMark>> byEnd() {
    return byEnd;
  }

  /**
   * Whether {@code release}'s entry of {@code day} turning positive ({@code positive}) or no longer
   * positive can move the release's first day: only a positive day before it, or its first day
   * itself leaving.
   */
  boolean movedBy(String release, long day, boolean positive) {
    Long first = firstSeen.get(release);
    return positive ? first == null || day < first : first != null && day == first;
  }
}
