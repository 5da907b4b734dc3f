package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import dev.faultline.schemas.taxonomy.Taxonomy;

/**
 * Symptom class: the taxonomy's top-level class of the final symptom (a person's label included).
 */
public final class SymptomClassRule {
  private final Taxonomy taxonomy;

  public SymptomClassRule(Taxonomy taxonomy) {
    this.taxonomy = taxonomy;
  }

  /** The top-level class of a symptom label, with its confidence. */
  public Label<SymptomClass> decide(Label<Symptom> s) {
    Symptom v = s.value();
    if (v == Symptom.NONE || v == Symptom.UNKNOWN) {
      return new Label<>(
          SymptomClass.valueOf(v.name()), s.confidence(), s.evidence(), s.humanGiven());
    }
    String cls = taxonomy.symptomClassOf(v.name()).orElse("UNKNOWN");
    return new Label<>(
        SymptomClass.valueOf(cls),
        s.confidence(),
        "class of " + v + " in " + taxonomy.version(),
        s.humanGiven());
  }
}
