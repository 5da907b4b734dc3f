package dev.faultline.classifier.llm;

import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.Objects;

/**
 * A validated answer of the language model: one code per dimension.
 *
 * @param distributedSpecific null: the text cannot tell
 */
public record Answer(
    Kind kind,
    Symptom symptom,
    RootCause rootCause,
    FixPattern fixPattern,
    Stage stage,
    Phase phase,
    Boolean distributedSpecific) {

  public Answer {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(symptom, "symptom");
    Objects.requireNonNull(rootCause, "rootCause");
    Objects.requireNonNull(fixPattern, "fixPattern");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(phase, "phase");
  }
}
