package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.Set;

/**
 * Phase: training, inference or both. Depends on the kind, the symptom and the repository's
 * framework.
 */
public final class PhaseRule {

  /** Frameworks used for training only: without inference words, their defects show in training. */
  private static final Set<String> TRAINING_FRAMEWORKS =
      Set.of("Megatron-LM", "Megatron-DeepSpeed", "Horovod", "NeMo");

  /** Frameworks that only serve models: without training words, their defects show in inference. */
  private static final Set<String> INFERENCE_FRAMEWORKS = Set.of("vLLM");

  /**
   * @param kind the kind, as the rules decided it
   * @param s the symptom after the confidence threshold
   * @param framework the framework of the repository, or null when the repository is not a known
   *     framework's
   */
  public Label<Phase> decide(Evidence c, Kind kind, Symptom s, String framework) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(Phase.UNKNOWN, 0.8, "nothing reported (OTHER): no phase");
    }
    if (f.reporter(Cue.BOTH_PHASES) > 0) {
      return Label.predicted(Phase.BOTH, 0.6, "both phases ('" + f.phrase(Cue.BOTH_PHASES) + "')");
    }
    double tr = f.score(Cue.TRAINING);
    double inf = 1.3 * f.score(Cue.INFERENCE);
    if (tr < 1.0 && inf < 1.0) {
      if (framework != null
          && TRAINING_FRAMEWORKS.contains(framework)
          && (kind == Kind.BUG || kind == Kind.QUESTION || kind == Kind.FEATURE_REQUEST)
          && s != Symptom.BUILD_INSTALL_FAILURE
          && s != Symptom.IMPORT_ERROR) {
        return Label.predicted(
            Phase.TRAINING, 0.5, framework + " is a training framework; no inference words");
      }
      if (framework != null && INFERENCE_FRAMEWORKS.contains(framework) && kind == Kind.BUG) {
        return Label.predicted(
            Phase.INFERENCE, 0.5, framework + " is an inference engine; no training words");
      }
      return Label.predicted(Phase.UNKNOWN, 0.3, "text never says training or inference");
    }
    if (inf > tr) {
      return Label.predicted(
          Phase.INFERENCE,
          0.5 + 0.4 * (inf - tr) / inf,
          "inference words ('" + f.phrase(Cue.INFERENCE) + "')");
    }
    return Label.predicted(
        Phase.TRAINING,
        0.5 + 0.4 * (tr - inf) / tr,
        "training words ('" + f.phrase(Cue.TRAINING) + "')");
  }
}
