package dev.faultline.classifier;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A person's label of one dimension conditions the dimensions that only a bug report has (symptom,
 * symptom class, root cause, fix pattern, distributed-specific), so every reader of the stored
 * distributions (graph, statistics job, classified topic) sees one coherent item. By the codebook a
 * non-bug item's symptom is NONE, its root cause and fix pattern UNKNOWN and its
 * distributed-specific flag null ("cannot tell"), and only a bug report has a symptom.
 *
 * <ul>
 *   <li>A person's kind BUG, or a person's symptom (a code other than NONE and UNKNOWN, which makes
 *       the kind BUG): the item is a bug report. The symptom's distribution drops NONE and is
 *       renormalised (a NONE answer becomes UNKNOWN: the tier gave no symptom for a bug report);
 *       root cause, fix pattern and distributed-specific drop the part of their UNKNOWN (null) that
 *       non-bugs account for, the tier's own P(not a bug) (the symptom's NONE, else one minus the
 *       kind's BUG), and are renormalised; each label's confidence becomes its code's conditioned
 *       probability, its calibration marker stays the tier's. A kind that a person's symptom
 *       decides becomes BUG with certainty ({@code human}).
 *   <li>A person's kind other than BUG (UNKNOWN excepted), or a person's symptom NONE: not a bug
 *       report. Symptom and its class NONE, root cause and fix pattern UNKNOWN,
 *       distributed-specific null, each with certainty and the marker {@code human}; a kind decided
 *       by a symptom NONE drops BUG and is renormalised.
 * </ul>
 *
 * A person's own label of a dimension is never changed. Applying it twice gives the same
 * classification.
 */
public final class HumanConditioning {

  private HumanConditioning() {}

  /** The classification with the bug-only dimensions conditioned on people's labels. */
  public static Classification apply(Classification c) {
    Label<Kind> kind = c.kind();
    Label<Symptom> symptom = c.symptom();
    Boolean bug = null;
    String why = null;
    if (kind.humanGiven() && kind.value() != Kind.UNKNOWN) {
      bug = kind.value() == Kind.BUG;
      why = "a person's kind " + kind.value();
    } else if (symptom.humanGiven() && symptom.value() != Symptom.UNKNOWN) {
      bug = symptom.value() != Symptom.NONE;
      why = "a person's symptom " + symptom.value();
    }
    if (bug == null) {
      return c;
    }
    double notBug = tierNotBug(c);
    String note = " (given " + why + ")";
    Map<Dimension, Label<?>> labels = new LinkedHashMap<>(c.labels());
    if (bug) {
      asBug(labels, notBug, note);
    } else {
      asNotBug(labels, note);
    }
    Label<?> s = labels.get(Dimension.SYMPTOM);
    if (!labels.get(Dimension.SYMPTOM_CLASS).humanGiven()) {
      labels.put(Dimension.SYMPTOM_CLASS, symptomClass(s));
    }
    return new Classification(labels, c.framework(), c.versions(), c.provenance());
  }

  /**
   * The tier's own probability that the item is not a bug report: the symptom's NONE when a tier
   * gave the symptom, else one minus the kind's BUG when a tier gave the kind, else 0.
   */
  private static double tierNotBug(Classification c) {
    if (!isPeoples(c.symptom())) {
      return Distributions.of(Dimension.SYMPTOM, c.symptom()).get(Symptom.NONE.name());
    }
    if (!isPeoples(c.kind())) {
      return 1.0 - Distributions.of(Dimension.KIND, c.kind()).get(Kind.BUG.name());
    }
    return 0.0;
  }

  /** A person's label, or one a person's label decided. */
  private static boolean isPeoples(Label<?> l) {
    return l.humanGiven() || Calibrations.HUMAN.equals(l.calibration());
  }

  private static void asBug(Map<Dimension, Label<?>> labels, double notBug, String note) {
    Label<?> kind = labels.get(Dimension.KIND);
    if (!kind.humanGiven()) {
      labels.put(Dimension.KIND, certain(Kind.BUG, "a bug report" + note));
    }
    Label<?> symptom = labels.get(Dimension.SYMPTOM);
    if (!symptom.humanGiven()) {
      Object value = symptom.value() == Symptom.NONE ? Symptom.UNKNOWN : symptom.value();
      labels.put(
          Dimension.SYMPTOM,
          dropped(Dimension.SYMPTOM, symptom, value, Symptom.NONE.name(), 1.0, note));
    }
    for (Dimension d : List.of(Dimension.ROOT_CAUSE, Dimension.FIX_PATTERN)) {
      Label<?> l = labels.get(d);
      if (!l.humanGiven()) {
        labels.put(d, dropped(d, l, l.value(), "UNKNOWN", notBug, note));
      }
    }
    Label<?> flag = labels.get(Dimension.DISTRIBUTED_SPECIFIC);
    if (!flag.humanGiven()) {
      labels.put(
          Dimension.DISTRIBUTED_SPECIFIC,
          dropped(Dimension.DISTRIBUTED_SPECIFIC, flag, flag.value(), "null", notBug, note));
    }
  }

  private static void asNotBug(Map<Dimension, Label<?>> labels, String note) {
    Label<?> kind = labels.get(Dimension.KIND);
    if (!kind.humanGiven()) {
      Map<String, Double> p = without(Dimension.KIND, kind, Kind.BUG.name(), 1.0);
      Object value = kind.value() == Kind.BUG ? Kind.valueOf(argmax(p)) : kind.value();
      labels.put(Dimension.KIND, relabel(kind, value, p, note));
    }
    String why = "not a bug report" + note;
    putIfTiers(labels, Dimension.SYMPTOM, certain(Symptom.NONE, why));
    putIfTiers(labels, Dimension.ROOT_CAUSE, certain(Dimension.ROOT_CAUSE.parse("UNKNOWN"), why));
    putIfTiers(labels, Dimension.FIX_PATTERN, certain(Dimension.FIX_PATTERN.parse("UNKNOWN"), why));
    putIfTiers(labels, Dimension.DISTRIBUTED_SPECIFIC, certain(null, why));
  }

  private static void putIfTiers(Map<Dimension, Label<?>> labels, Dimension d, Label<?> l) {
    if (!labels.get(d).humanGiven()) {
      labels.put(d, l);
    }
  }

  /** A value a person's label decides for certain: a point mass, marked {@code human}. */
  private static Label<Object> certain(Object value, String evidence) {
    return new Label<>(value, 1.0, evidence, false, null, Calibrations.HUMAN);
  }

  /**
   * The label with {@code share} of its code {@code gone}'s probability (at most all of it) taken
   * out and the rest renormalised; its value {@code value}, its confidence that value's
   * probability.
   */
  private static Label<?> dropped(
      Dimension d, Label<?> l, Object value, String gone, double share, String note) {
    return relabel(l, value, without(d, l, gone, share), note);
  }

  private static Label<?> relabel(Label<?> l, Object value, Map<String, Double> p, String note) {
    String evidence = l.evidence() == null ? note.strip() : l.evidence() + note;
    Label<Object> out =
        new Label<>(value, l.confidence(), evidence, false, l.distribution(), l.calibration());
    if (l.distribution() == null) {
      // A label without a distribution of its own stays a point mass on its (new) value.
      return out.value() == l.value() ? l : new Label<>(value, 1.0, evidence, false, null, null);
    }
    return out.calibrated(p, l.calibration());
  }

  /**
   * The label's distribution with {@code share} of code {@code gone}'s probability removed (capped
   * at what it has) and renormalised; all of it on UNKNOWN (or null) if nothing is left.
   */
  private static Map<String, Double> without(Dimension d, Label<?> l, String gone, double share) {
    Map<String, Double> p = new LinkedHashMap<>(Distributions.of(d, l));
    double cut = Math.min(p.get(gone), Math.min(Math.max(share, 0.0), 1.0));
    if (cut <= 0) {
      return p; // nothing to take out: the distribution as it is (so conditioning twice is exact)
    }
    p.put(gone, p.get(gone) - cut);
    double total = 0;
    for (double v : p.values()) {
      total += v;
    }
    if (total <= 1e-12) {
      String fallback = d.coded() ? "UNKNOWN" : "null";
      p.replaceAll((code, v) -> code.equals(fallback) ? 1.0 : 0.0);
      return p;
    }
    double t = total;
    p.replaceAll((code, v) -> v / t);
    return p;
  }

  private static String argmax(Map<String, Double> p) {
    return p.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
  }

  /** The symptom class that follows a (conditioned) symptom label. */
  private static Label<?> symptomClass(Label<?> s) {
    String code = Distributions.symptomClassOf(Dimension.codeOf(s.value()));
    String evidence =
        s.value() == Symptom.NONE || s.value() == Symptom.UNKNOWN
            ? s.evidence()
            : "class of " + s.value();
    return new Label<>(
        SymptomClass.valueOf(code),
        s.confidence(),
        evidence,
        s.humanGiven(),
        s.distribution() == null ? null : Distributions.symptomClasses(s.distribution()),
        s.calibration());
  }
}
