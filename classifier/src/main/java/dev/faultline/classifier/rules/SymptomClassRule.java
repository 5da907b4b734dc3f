package dev.faultline.classifier.rules;

import dev.faultline.classifier.Distributions;
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

  /**
   * The top-level class of a symptom label, with its confidence and calibration; its distribution
   * sums the symptom distribution's probabilities per class ({@link Distributions#symptomClasses});
   * its confidence stays the symptom's (the class shares its symptom's label).
   */
  public Label<SymptomClass> decide(Label<Symptom> s) {
    Label<SymptomClass> c = classOf(s).withCalibration(s.calibration());
    if (s.distribution() == null) {
      return c;
    }
    return c.withDistribution(Distributions.symptomClasses(s.distribution()));
  }

  private Label<SymptomClass> classOf(Label<Symptom> s) {
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
