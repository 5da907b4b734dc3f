package dev.faultline.classifier.learned;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns each dimension's calibrated class probabilities into one answer per dimension with the
 * probability that it is right. The codebook's one dependency between dimensions is kept: only a
 * bug report has a symptom, so the symptom of an item is NONE unless its kind is BUG, and a
 * symptom's confidence is P(kind = BUG) times P(symptom | bug). Below its dimension's threshold an
 * answer abstains ({@link Target#abstain}) with the probability of the abstention as its
 * confidence.
 */
public final class Decision {

  /**
   * One dimension's answer.
   *
   * @param code the code answered
   * @param confidence the calibrated probability that the code is right
   * @param abstained whether the answer is an abstention below the threshold
   */
  public record Answer(String code, double confidence, boolean abstained) {}

  private Decision() {}

  /** Answers for every dimension, with each model's threshold. */
  public static Map<Target, Answer> decide(
      Map<Target, DimensionModel> models, Map<Target, double[]> probabilities) {
    Map<Target, Double> thresholds = new TreeMap<>();
    models.forEach((t, m) -> thresholds.put(t, m.threshold()));
    return decide(models, probabilities, thresholds);
  }

  /** Answers for every dimension, with the given thresholds. */
  public static Map<Target, Answer> decide(
      Map<Target, DimensionModel> models,
      Map<Target, double[]> probabilities,
      Map<Target, Double> thresholds) {
    Map<Target, Answer> out = new TreeMap<>();
    DimensionModel km = models.get(Target.KIND);
    double[] kp = probabilities.get(Target.KIND);
    Answer kind = argmax(km.classes(), kp, null, 1.0, 0.0);
    out.put(Target.KIND, kind);
    double pBug = DimensionModel.probabilityOf(km.classes(), kp, "BUG");
    for (Target t : Target.values()) {
      if (t == Target.KIND || !models.containsKey(t)) {
        continue;
      }
      DimensionModel m = models.get(t);
      double[] p = probabilities.get(t);
      double threshold = thresholds.getOrDefault(t, 0.0);
      if (t == Target.SYMPTOM) {
        if (!"BUG".equals(kind.code())) {
          out.put(t, new Answer("NONE", 1.0 - pBug, false));
          continue;
        }
        double notNone = 1.0 - DimensionModel.probabilityOf(m.classes(), p, "NONE");
        double scale = notNone <= 1e-12 ? 0.0 : pBug / notNone;
        out.put(t, argmax(m.classes(), p, "NONE", scale, threshold, t.abstain));
      } else {
        out.put(t, argmax(m.classes(), p, null, 1.0, threshold, t.abstain));
      }
    }
    return out;
  }

  private static Answer argmax(
      List<String> classes, double[] p, String excluded, double scale, double threshold) {
    return argmax(classes, p, excluded, scale, threshold, null);
  }

  private static Answer argmax(
      List<String> classes,
      double[] p,
      String excluded,
      double scale,
      double threshold,
      String abstain) {
    int best = -1;
    for (int k = 0; k < p.length; k++) {
      if (classes.get(k).equals(excluded)) {
        continue;
      }
      if (best < 0 || p[k] > p[best]) {
        best = k;
      }
    }
    String code = classes.get(best);
    double conf = Math.min(1.0, p[best] * scale);
    if (abstain != null && !code.equals(abstain) && conf < threshold) {
      return new Answer(
          abstain, Math.min(1.0, DimensionModel.probabilityOf(classes, p, abstain) * scale), true);
    }
    return new Answer(code, conf, false);
  }
}
