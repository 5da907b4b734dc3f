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
 * @param versions component (lower-case) to version as written (no leading "v"), only versions the
 *     text states; null when the answer has no versions field (an answer of an earlier prompt)
 */
public record Answer(
    Kind kind,
    Symptom symptom,
    RootCause rootCause,
    FixPattern fixPattern,
    Stage stage,
    Phase phase,
    Boolean distributedSpecific,
    java.util.Map<String, String> versions) {

  /** An answer without versions (an answer of an earlier prompt). */
  public Answer(
      Kind kind,
      Symptom symptom,
      RootCause rootCause,
      FixPattern fixPattern,
      Stage stage,
      Phase phase,
      Boolean distributedSpecific) {
    this(kind, symptom, rootCause, fixPattern, stage, phase, distributedSpecific, null);
  }

  public Answer {
    versions =
        versions == null
            ? null
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(versions));
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(symptom, "symptom");
    Objects.requireNonNull(rootCause, "rootCause");
    Objects.requireNonNull(fixPattern, "fixPattern");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(phase, "phase");
  }
}
