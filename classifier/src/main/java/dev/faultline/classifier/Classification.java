package dev.faultline.classifier;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.Map;

/**
 * The classifier's answer for one issue: one label per codebook dimension, the versions found, and
 * the version of the classifier that produced it.
 *
 * @param distributedSpecific value null means the text cannot tell (and for items that report no
 *     defect)
 * @param versions component (lower-case) to version as written, in order of first mention
 */
public record Classification(
    Label<Kind> kind,
    Label<Symptom> symptom,
    Label<SymptomClass> symptomClass,
    Label<RootCause> rootCause,
    Label<FixPattern> fixPattern,
    Label<Stage> stage,
    Label<Phase> phase,
    Label<Boolean> distributedSpecific,
    Label<String> framework,
    Map<String, String> versions,
    String classifierVersion) {

  public Classification {
    versions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(versions));
  }

  /** The label of one dimension. */
  public Label<?> label(Dimension d) {
    return switch (d) {
      case KIND -> kind;
      case SYMPTOM -> symptom;
      case SYMPTOM_CLASS -> symptomClass;
      case ROOT_CAUSE -> rootCause;
      case FIX_PATTERN -> fixPattern;
      case STAGE -> stage;
      case PHASE -> phase;
      case DISTRIBUTED_SPECIFIC -> distributedSpecific;
    };
  }
}
