package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.Locale;

/**
 * Distributed-specific: whether the defect needs several devices to occur. Depends on the kind and
 * the symptom.
 */
public final class DistributedSpecificRule {

  /**
   * Distributed words needed (weighted, see {@link #decide}) to call a defect distributed-specific.
   */
  private static final double DISTRIBUTED_MIN_SCORE = 3.0;

  /**
   * @param kind the kind, as the rules decided it
   * @param s the symptom after the confidence threshold
   * @return true, false, or null for "cannot tell"
   */
  public Label<Boolean> decide(Evidence c, Kind kind, Symptom s) {
    if (kind != Kind.BUG) {
      return Label.predicted(null, 0.8, "no defect reported");
    }
    switch (s) {
      case SETUP_FAILURE, COMMUNICATION_FAILURE, OUTPUT_INCONSISTENCY_ACROSS_DEVICES, HANG:
        return Label.predicted(true, 0.85, s + " is distributed-specific");
      case BUILD_INSTALL_FAILURE, IMPORT_ERROR, CI_TEST_FAILURE:
        return Label.predicted(false, 0.85, s + " can happen on one device");
      default:
        break;
    }
    Features f = c.f();
    double d =
        f.score(Cue.DISTRIBUTED)
            + 0.4 * f.score(Cue.DISTRIBUTED_WEAK)
            + 2.0 * f.score(Cue.INIT_DISTRIBUTED);
    double single = f.score(Cue.SINGLE_DEVICE);
    if (d >= DISTRIBUTED_MIN_SCORE && single < d) {
      String p =
          f.phrase(Cue.DISTRIBUTED) != null
              ? f.phrase(Cue.DISTRIBUTED)
              : f.phrase(Cue.DISTRIBUTED_WEAK);
      return Label.predicted(true, Math.min(0.9, 0.5 + d / 20), "distributed words ('" + p + "')");
    }
    if (single > 0) {
      return Label.predicted(
          false, 0.5, "single-device words ('" + f.phrase(Cue.SINGLE_DEVICE) + "')");
    }
    if (!c.pr() && d == 0 && (s == Symptom.RUNTIME_CRASH || s == Symptom.FEATURE_MALFUNCTION)) {
      return Label.predicted(false, 0.4, "no distributed words at all");
    }
    return Label.predicted(
        null,
        0.3,
        String.format(
            Locale.ROOT,
            "cannot tell whether it needs several devices (distributed words score %.1f, below %.0f)",
            d,
            DISTRIBUTED_MIN_SCORE));
  }
}
