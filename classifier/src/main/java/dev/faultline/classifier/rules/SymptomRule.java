package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.EnumMap;
import java.util.Locale;

/** Symptom: what the reporter observed. Asked for bug reports only (the kind decides that). */
public final class SymptomRule {

  /** Title cues in priority order: what a reader sees first decides. */
  private static final Cue[] TITLE_ORDER = {
    Cue.OOM,
    Cue.HANG,
    Cue.IMPORT,
    Cue.BUILD_STRONG,
    Cue.COMM_ERROR,
    Cue.CHECKPOINT,
    Cue.INCONSISTENT,
    Cue.MALFUNCTION,
    Cue.MEMORY_ANOMALY,
    Cue.INCORRECT,
    Cue.PERFORMANCE,
    Cue.SETUP,
    Cue.INSTALL
  };

  /** The symptom of a bug report (the orchestrator answers NONE for other kinds without asking). */
  public Label<Symptom> decide(Evidence c) {
    Features f = c.f();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    Zone body = c.pr() ? Zone.PR_BODY : Zone.BODY;
    if (c.pr() && f.in(Cue.CI, title)) {
      return Label.predicted(
          Symptom.CI_TEST_FAILURE, 0.7, "pull request fixes tests ('" + f.phrase(Cue.CI) + "')");
    }
    for (Cue cue : TITLE_ORDER) {
      if (!f.in(cue, title)) {
        continue;
      }
      if (cue == Cue.CHECKPOINT
          && f.count(Cue.ACT_CHECKPOINT, title) >= f.count(Cue.CHECKPOINT, title)) {
        continue;
      }
      if (cue == Cue.MEMORY_ANOMALY && f.any(Cue.OOM)) {
        return Label.predicted(
            Symptom.OUT_OF_MEMORY, 0.7, "memory growth in the title ends in an OOM");
      }
      if (cue == Cue.SETUP && !(f.any(Cue.ERROR) || f.any(Cue.TRACEBACK))) {
        continue;
      }
      Symptom s = symptomOf(cue);
      return Label.predicted(s, 0.8, "title says '" + f.phrase(cue) + "'");
    }
    // body: score each symptom, the reporter's own post counts most
    EnumMap<Symptom, Double> score = new EnumMap<>(Symptom.class);
    score.put(Symptom.OUT_OF_MEMORY, 3.0 * f.score(Cue.OOM));
    score.put(Symptom.HANG, 2.0 * f.score(Cue.HANG));
    score.put(Symptom.IMPORT_ERROR, 2.5 * f.score(Cue.IMPORT));
    score.put(
        Symptom.BUILD_INSTALL_FAILURE,
        2.0 * f.score(Cue.BUILD_STRONG) + 0.5 * f.score(Cue.INSTALL));
    score.put(Symptom.COMMUNICATION_FAILURE, 2.5 * f.score(Cue.COMM_ERROR));
    score.put(
        Symptom.CHECKPOINT_FAILURE,
        1.5 * Math.max(0, f.score(Cue.CHECKPOINT) - f.score(Cue.ACT_CHECKPOINT)));
    score.put(Symptom.OUTPUT_INCONSISTENCY_ACROSS_DEVICES, 2.5 * f.score(Cue.INCONSISTENT));
    score.put(Symptom.MEMORY_ANOMALY, f.any(Cue.OOM) ? 0 : 2.0 * f.score(Cue.MEMORY_ANOMALY));
    score.put(Symptom.PERFORMANCE_DEGRADATION, 1.2 * f.score(Cue.PERFORMANCE));
    score.put(Symptom.SETUP_FAILURE, 1.0 * f.score(Cue.SETUP) + 0.3 * f.score(Cue.SETUP_WEAK));
    score.put(Symptom.INCORRECT_OUTPUT, 1.2 * f.score(Cue.INCORRECT));
    score.put(Symptom.FEATURE_MALFUNCTION, 1.0 * f.score(Cue.MALFUNCTION));
    score.put(
        Symptom.RUNTIME_CRASH,
        (f.any(Cue.TRACEBACK) ? 3.0 : 0)
            + 1.5 * f.score(Cue.HARD_CRASH)
            + 0.5 * f.score(Cue.ERROR));
    Ranking<Symptom> ranking = Ranking.of(score, null);
    Symptom best = ranking.best();
    double b = ranking.top();
    double second = ranking.second();
    if (best == null || b < 1.0) {
      if (!c.pr() && (f.any(Cue.ERROR) || f.any(Cue.NOT_WORKING))) {
        return Label.predicted(
            Symptom.RUNTIME_CRASH,
            0.4,
            "a failure without a more specific symptom ('"
                + Evidence.firstOf(f, f.any(Cue.ERROR) ? Cue.ERROR : Cue.NOT_WORKING)
                + "')");
      }
      return Label.predicted(Symptom.UNKNOWN, 0.3, "no observable symptom stated");
    }
    double conf = c.pr() ? 0.4 + 0.4 * (b - second) / b : 0.45 + 0.45 * (b - second) / b;
    Cue cue = cueOf(best);
    String phrase = cue == null ? null : f.phrase(cue);
    if (phrase == null && best == Symptom.BUILD_INSTALL_FAILURE) {
      phrase = f.phrase(Cue.INSTALL);
    }
    String words = phrase == null ? "" : " ('" + phrase + "')";
    return Label.predicted(
        best,
        conf,
        "body signals "
            + best
            + words
            + String.format(Locale.ROOT, " score %.1f vs %.1f", b, second));
  }

  private static Symptom symptomOf(Cue cue) {
    return switch (cue) {
      case OOM -> Symptom.OUT_OF_MEMORY;
      case HANG -> Symptom.HANG;
      case IMPORT -> Symptom.IMPORT_ERROR;
      case BUILD_STRONG, INSTALL -> Symptom.BUILD_INSTALL_FAILURE;
      case COMM_ERROR -> Symptom.COMMUNICATION_FAILURE;
      case CHECKPOINT -> Symptom.CHECKPOINT_FAILURE;
      case INCONSISTENT -> Symptom.OUTPUT_INCONSISTENCY_ACROSS_DEVICES;
      case MEMORY_ANOMALY -> Symptom.MEMORY_ANOMALY;
      case PERFORMANCE -> Symptom.PERFORMANCE_DEGRADATION;
      case SETUP -> Symptom.SETUP_FAILURE;
      case INCORRECT -> Symptom.INCORRECT_OUTPUT;
      case MALFUNCTION -> Symptom.FEATURE_MALFUNCTION;
      case CI -> Symptom.CI_TEST_FAILURE;
      default -> Symptom.RUNTIME_CRASH;
    };
  }

  private static Cue cueOf(Symptom s) {
    return switch (s) {
      case OUT_OF_MEMORY -> Cue.OOM;
      case HANG -> Cue.HANG;
      case IMPORT_ERROR -> Cue.IMPORT;
      case BUILD_INSTALL_FAILURE -> Cue.BUILD_STRONG;
      case COMMUNICATION_FAILURE -> Cue.COMM_ERROR;
      case CHECKPOINT_FAILURE -> Cue.CHECKPOINT;
      case OUTPUT_INCONSISTENCY_ACROSS_DEVICES -> Cue.INCONSISTENT;
      case MEMORY_ANOMALY -> Cue.MEMORY_ANOMALY;
      case PERFORMANCE_DEGRADATION -> Cue.PERFORMANCE;
      case SETUP_FAILURE -> Cue.SETUP;
      case INCORRECT_OUTPUT -> Cue.INCORRECT;
      case FEATURE_MALFUNCTION -> Cue.MALFUNCTION;
      case CI_TEST_FAILURE -> Cue.CI;
      case RUNTIME_CRASH -> Cue.ERROR;
      default -> null;
    };
  }
}
