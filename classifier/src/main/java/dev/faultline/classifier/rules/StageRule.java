package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.EnumMap;
import java.util.Locale;

/** Stage: where in a distributed run the defect shows. Depends on the kind and the symptom. */
public final class StageRule {

  /**
   * @param kind the kind, as the rules decided it
   * @param s the symptom after the confidence threshold (UNKNOWN below it)
   */
  public Label<Stage> decide(Evidence c, Kind kind, Symptom s) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(Stage.UNKNOWN, 0.8, "nothing reported (OTHER): no stage");
    }
    Zone titleZone = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (kind != Kind.OTHER
        && s != Symptom.BUILD_INSTALL_FAILURE
        && s != Symptom.IMPORT_ERROR
        && f.count(Cue.CHECKPOINT, titleZone) > f.count(Cue.ACT_CHECKPOINT, titleZone)) {
      return Label.predicted(
          Stage.FAULT_TOLERANCE,
          0.75,
          "checkpoint in the title ('" + f.phrase(Cue.CHECKPOINT) + "')");
    }
    if (kind == Kind.BUG && f.in(Cue.ACT_CHECKPOINT, titleZone)) {
      return Label.predicted(
          Stage.MEMORY, 0.7, "activation checkpointing is a memory-stage feature");
    }
    switch (s) {
      case BUILD_INSTALL_FAILURE, IMPORT_ERROR, SETUP_FAILURE:
        return Label.predicted(Stage.INITIALIZATION, 0.85, s + " happens before the run starts");
      case CHECKPOINT_FAILURE:
        return Label.predicted(Stage.FAULT_TOLERANCE, 0.85, "checkpoint save/load/convert/resume");
      case OUT_OF_MEMORY, MEMORY_ANOMALY:
        return Label.predicted(Stage.MEMORY, 0.8, s + " is a memory-stage defect");
      case COMMUNICATION_FAILURE:
        return initOr(c, Stage.COMMUNICATION, "error raised by the communication library");
      case HANG:
        if (f.in(Cue.CHECKPOINT, c.pr() ? Zone.PR_TITLE : Zone.TITLE)) {
          return Label.predicted(
              Stage.FAULT_TOLERANCE, 0.7, "hang while saving or loading a checkpoint");
        }
        return initOr(c, Stage.COMMUNICATION, "hang during the run, in collectives");
      default:
        break;
    }
    EnumMap<Stage, Double> score = new EnumMap<>(Stage.class);
    score.put(Stage.SCHEDULING, 1.3 * f.score(Cue.SCHEDULING));
    // codebook 9: activation checkpointing is a memory-stage feature, whatever engine it runs in
    score.put(Stage.MEMORY, 1.0 * f.score(Cue.MEMORY) + 2.0 * f.score(Cue.ACT_CHECKPOINT));
    score.put(Stage.COMMUNICATION, 1.0 * f.score(Cue.COMMUNICATION));
    score.put(
        Stage.FAULT_TOLERANCE,
        1.2 * Math.max(0, f.score(Cue.CHECKPOINT) - f.score(Cue.ACT_CHECKPOINT))
            + f.score(Cue.FAULT_TOLERANCE));
    // engine/model/process-group construction calls; for questions and requests, installing is
    // start-up too
    double install =
        kind == Kind.BUG
            ? 0
            : f.score(Cue.INSTALL) + f.score(Cue.BUILD_STRONG) + f.score(Cue.IMPORT);
    score.put(
        Stage.INITIALIZATION,
        1.0 * f.score(Cue.INIT)
            + 3.0 * f.score(Cue.INIT_STRONG)
            + install
            + (kind == Kind.FEATURE_REQUEST ? 2.0 : 0));
    // wrong numbers (NaN, divergence, wrong gradients) show in the computation, whatever memory
    // scheme runs,
    // unless the title blames a communication feature
    boolean numerics = s == Symptom.INCORRECT_OUTPUT && !f.in(Cue.COMMUNICATION, titleZone);
    score.put(
        Stage.COMPUTATION,
        0.8 * f.score(Cue.COMPUTE)
            + (kind == Kind.BUG && !c.pr() ? 1.0 : 0)
            + (numerics ? 3.0 : 0));
    Ranking<Stage> ranking = Ranking.of(score, Stage.UNKNOWN);
    Stage best = ranking.best();
    double b = ranking.top();
    double second = ranking.second();
    double min = c.pr() ? 4.0 : kind == Kind.BUG ? 1.0 : 2.0;
    if (b < min) {
      return Label.predicted(Stage.UNKNOWN, 0.3, "no stage words");
    }
    double conf = 0.4 + 0.5 * (b - second) / b;
    return Label.predicted(
        best, conf, String.format(Locale.ROOT, "stage words score %.1f vs %.1f", b, second));
  }

  private Label<Stage> initOr(Evidence c, Stage later, String why) {
    Features f = c.f();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (f.in(Cue.INIT, title)
        || f.in(Cue.INIT_STRONG, title)
        || f.count(Cue.INIT, Zone.BODY) >= 3) {
      return Label.predicted(
          Stage.INITIALIZATION, 0.65, "at start-up ('" + f.phrase(Cue.INIT) + "')");
    }
    return Label.predicted(later, 0.7, why);
  }
}
