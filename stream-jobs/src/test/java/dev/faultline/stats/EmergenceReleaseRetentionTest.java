package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A release reported once, forgotten with the history past the retention, then reported again: its
 * comparison starts at the second report, as for a release never seen before (the detector's
 * release marks, kept between re-tests, are rebuilt when the clean-up forgets reports).
 */
class EmergenceReleaseRetentionTest {
  private static final String FW = "deepspeed";
  private static final String[] SYMPTOMS = {"RUNTIME_CRASH", "HANG", "INCORRECT_OUTPUT"};
  private static final String[] STAGES = {"INITIALIZATION", "COMMUNICATION", "UNKNOWN"};

  @Test
  void aReleaseReportedAgainAfterItsFirstReportWasForgottenIsComparedFromTheSecond()
      throws Exception {
    AlertModel model = AlertModel.defaults();
    Random r = new Random(4);
    List<AlertCount> counts = new ArrayList<>();
    for (int d = 0; d < 300; d++) {
      for (int i = r.nextInt(5); i > 0; i--) {
        counts.addAll(
            DetectorHarness.issue(
                FW,
                "ds#" + d + "-" + i,
                T0 + d * DAY + r.nextInt((int) DAY),
                SYMPTOMS[r.nextInt(SYMPTOMS.length)],
                STAGES[r.nextInt(STAGES.length)],
                +1));
      }
    }
    counts.add(DetectorHarness.release(FW, "0.15.0", T0 + DAY + 1000));
    counts.add(DetectorHarness.release(FW, "0.15.0", T0 + 250 * DAY + 1000));
    for (int i = 0; i < 28; i++) {
      counts.addAll(
          DetectorHarness.issue(
              FW, "oom#" + i, T0 + (250 + i) * DAY + 5000, "OUT_OF_MEMORY", "MEMORY", +1));
    }
    counts.sort(Comparator.comparingLong(c -> c.time));
    Duration retention = Duration.ofDays(model.lookbackDays() + model.windowDays());
    assertTrue(retention.toDays() < 240, "the first report must fall out of " + retention);
    try (DetectorHarness h = new DetectorHarness(model, retention)) {
      Map<String, StatAlert> inForce = h.deliver(counts, 0).finish().inForce();
      StatAlert a = DetectorHarness.releaseSurge(inForce, "0.15.0", "OUT_OF_MEMORY");
      assertTrue(a != null, inForce.keySet().toString());
      assertEquals(T0 + 250 * DAY, a.windowStart);
    }
  }
}
