package dev.faultline.classifier.llm;

import dev.faultline.classifier.Calibrations;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.EnumMap;
import java.util.Map;

/**
 * A language model's answer as labels, the one mapping the CLI's tier ({@link LlmClassifier}) and
 * the stream's upgrade share. Each labelled dimension's distribution is the answered code's row of
 * the model's calibration ({@link LlmCalibration}, marker {@code confusion:<model>/<prompt>}) when
 * one is known for the model and prompt version, else the stated prior error ({@link
 * Distributions#priorError}: {@code 1 - epsilon} on the answered code, marker {@code
 * prior:<epsilon>}); the label's confidence is its distribution's probability of the answered code.
 * The symptom class is the answered symptom's, its distribution the symptom distribution summed per
 * class.
 */
public final class AnswerLabels {

  private AnswerLabels() {}

  /**
   * The labels of an answer, every dimension.
   *
   * @param calibration the model's calibration for this prompt version, or null
   * @param epsilon the prior error of an answer without calibration
   */
  public static Map<Dimension, Label<?>> of(
      Answer a, LlmCalibration calibration, double epsilon, String evidence) {
    Map<Dimension, Label<?>> out = new EnumMap<>(Dimension.class);
    String marker = calibration == null ? Calibrations.prior(epsilon) : calibration.marker();
    for (Dimension d : Dimension.LABELLED) {
      Object v = a.code(d);
      Map<String, Double> p =
          calibration == null ? Distributions.priorError(d, v, epsilon) : calibration.row(d, v);
      out.put(d, Label.predicted(v, 0.0, evidence).calibrated(p, marker));
    }
    out.put(Dimension.SYMPTOM_CLASS, symptomClass(out.get(Dimension.SYMPTOM)));
    return out;
  }

  /** The class of a symptom label: its class, its confidence, its symptoms' summed distribution. */
  static Label<?> symptomClass(Label<?> s) {
    String code = Distributions.symptomClassOf(Dimension.codeOf(s.value()));
    String evidence =
        s.value() == Symptom.NONE || s.value() == Symptom.UNKNOWN
            ? s.evidence()
            : "class of " + s.value() + "; " + s.evidence();
    return new Label<>(
        SymptomClass.valueOf(code),
        s.confidence(),
        evidence,
        false,
        Distributions.symptomClasses(s.distribution()),
        s.calibration());
  }

  /**
   * The offline classification with the model's labels wherever no person gave one (a person's
   * symptom keeps its class too), the answer's versions when it has them (the framework stays the
   * offline tier's), made by {@code llm:<model>/<prompt>}, and the bug-only dimensions conditioned
   * on people's labels.
   */
  public static Classification merge(
      Classification offline,
      Answer a,
      String model,
      String promptVersion,
      LlmCalibration calibration,
      double epsilon,
      String evidence) {
    Map<Dimension, Label<?>> given = of(a, calibration, epsilon, evidence);
    boolean humanSymptom = offline.symptom().humanGiven();
    Classification merged =
        offline
            .mapLabels(
                (d, l) ->
                    l.humanGiven() || (d == Dimension.SYMPTOM_CLASS && humanSymptom)
                        ? l
                        : given.get(d))
            .withProvenance(Provenance.llm(model, promptVersion));
    if (a.versions() != null) {
      // The answer's versions replace the offline extractor's (an answer of an earlier prompt has
      // none: the offline ones stay).
      merged =
          new Classification(
              merged.labels(), merged.framework(), a.versions(), merged.provenance());
    }
    return merged.conditionedOnPeople();
  }
}
