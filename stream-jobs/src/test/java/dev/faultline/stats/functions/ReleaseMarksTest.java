package dev.faultline.stats.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.detect.AlertModel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ReleaseMarks} kept as the detector keeps them: random report additions and retractions
 * (shuffled days, counts going negative and back, days before and after a release's first) on a map
 * of {@code release@day} to net count, the marks rebuilt only when {@link ReleaseMarks#movedBy}
 * says a sign change moved them; after every step they equal marks built from the whole map.
 */
class ReleaseMarksTest {
  private static final int AFTER = 14;

  @Test
  void marksKeptUntilMovedEqualMarksBuiltAnewAfterEveryReport() {
    Random r = new Random(34);
    for (int trial = 0; trial < 200; trial++) {
      Map<String, Integer> reports = new HashMap<>();
      ReleaseMarks kept = ReleaseMarks.of(reports.entrySet(), AFTER);
      int rebuilt = 0;
      for (int step = 0; step < 400; step++) {
        String release = "1." + r.nextInt(4) + (r.nextInt(5) == 0 ? "@rc" : "");
        long day = 19_000 + r.nextInt(30);
        String key = release + "@" + day;
        Integer before = reports.get(key);
        int now = (before == null ? 0 : before) + (r.nextInt(3) == 0 ? -1 : 1);
        if (now == 0) {
          reports.remove(key);
        } else {
          reports.put(key, now);
        }
        if ((before != null && before > 0) != now > 0 && kept.movedBy(release, day, now > 0)) {
          kept = ReleaseMarks.of(reports.entrySet(), AFTER);
          rebuilt++;
        }
        assertEquals(
            ReleaseMarks.of(reports.entrySet(), AFTER).byEnd(),
            kept.byEnd(),
            "trial " + trial + ", step " + step);
      }
      assertTrue(rebuilt < 100, "rebuilt " + rebuilt + " times in 400 steps: little was kept");
    }
  }

  @Test
  void theMarksCannotBeChangedByTheirReader() {
    Map<String, Integer> reports = Map.of("1.0@5", 2, "1.1@5", 1, "1.0@3", -1);
    Map<Long, List<AlertModel.ReleaseMark>> byEnd =
        ReleaseMarks.of(reports.entrySet(), AFTER).byEnd();
    assertEquals(
        Map.of(
            5L + AFTER,
            List.of(new AlertModel.ReleaseMark("1.0", 5), new AlertModel.ReleaseMark("1.1", 5))),
        byEnd);
    assertThrows(
        UnsupportedOperationException.class,
        () -> byEnd.get(5L + AFTER).add(new AlertModel.ReleaseMark("2", 1)));
  }
}
