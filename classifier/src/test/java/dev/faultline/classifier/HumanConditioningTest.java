package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A person's label conditions the dimensions only a bug report has; sums done by hand. */
class HumanConditioningTest {

  private static final String CV = "cv:test-1";

  private static Map<String, Double> p(Object... codeThenP) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (int i = 0; i < codeThenP.length; i += 2) {
      m.put((String) codeThenP[i], (Double) codeThenP[i + 1]);
    }
    return m;
  }

  private static Label<?> tier(Object value, Map<String, Double> distribution) {
    return Label.predicted(value, 0.0, "tier").calibrated(distribution, CV);
  }

  /** A tier's classification: kind BUG .6 / QUESTION .4, symptom mostly NONE, the rest below. */
  private static Map<Dimension, Label<?>> tierLabels() {
    Map<Dimension, Label<?>> l = new EnumMap<>(Dimension.class);
    l.put(Dimension.KIND, tier(Kind.BUG, p("BUG", .6, "QUESTION", .4)));
    Label<?> symptom =
        tier(Symptom.NONE, p("HANG", .3, "RUNTIME_CRASH", .2, "NONE", .4, "UNKNOWN", .1));
    l.put(Dimension.SYMPTOM, symptom);
    l.put(
        Dimension.SYMPTOM_CLASS,
        tier(
            dev.faultline.schemas.taxonomy.SymptomClass.NONE,
            Distributions.symptomClasses(symptom.distribution())));
    l.put(
        Dimension.ROOT_CAUSE, tier(RootCause.UNKNOWN, p("CONFIGURATION_ERROR", .1, "UNKNOWN", .9)));
    l.put(Dimension.FIX_PATTERN, tier(FixPattern.UNKNOWN, p("UNKNOWN", 1.0)));
    l.put(Dimension.STAGE, tier(Stage.MEMORY, p("MEMORY", .7, "UNKNOWN", .3)));
    l.put(Dimension.PHASE, tier(Phase.TRAINING, p("TRAINING", 1.0)));
    l.put(Dimension.DISTRIBUTED_SPECIFIC, tier(null, p("true", .2, "false", .1, "null", .7)));
    return l;
  }

  private static Classification with(Dimension d, Label<?> person) {
    Map<Dimension, Label<?>> l = tierLabels();
    l.put(d, person);
    return new Classification(
        l, Label.predicted("trainer", 1.0, "repo"), Map.of(), Provenance.rules("rules-t"));
  }

  private static Map<String, Double> dist(Classification c, Dimension d) {
    return Distributions.of(d, c.label(d));
  }

  @Test
  void aPersonsBugRenormalisesTheSymptomWithoutNoneAndDropsTheNonBugShareOfUnknown() {
    Classification c =
        with(Dimension.KIND, Label.human(Kind.BUG, "GitHub label 'bug'")).conditionedOnPeople();
    Map<String, Double> s = dist(c, Dimension.SYMPTOM);
    assertEquals(0.5, s.get("HANG"), 1e-12); // .3 / .6
    assertEquals(1.0 / 3, s.get("RUNTIME_CRASH"), 1e-12);
    assertEquals(1.0 / 6, s.get("UNKNOWN"), 1e-12);
    assertEquals(0.0, s.get("NONE"));
    assertEquals(Symptom.UNKNOWN, c.symptom().value(), "a bug report has a symptom, if unknown");
    assertEquals(1.0 / 6, c.symptom().confidence(), 1e-12);
    assertEquals(CV, c.symptom().calibration(), "still the tier's calibration");
    // the tier's P(not a bug) is the symptom's NONE, .4: UNKNOWN .9 - .4 = .5, then renormalised
    assertEquals(5.0 / 6, dist(c, Dimension.ROOT_CAUSE).get("UNKNOWN"), 1e-12);
    assertEquals(1.0 / 6, dist(c, Dimension.ROOT_CAUSE).get("CONFIGURATION_ERROR"), 1e-12);
    assertEquals(5.0 / 6, c.rootCause().confidence(), 1e-12);
    Map<String, Double> flag = dist(c, Dimension.DISTRIBUTED_SPECIFIC);
    assertEquals(0.5, flag.get("null"), 1e-12); // (.7 - .4) / .6
    assertEquals(1.0 / 3, flag.get("true"), 1e-12);
    // fix pattern: all UNKNOWN, nothing else to move to: stays
    assertEquals(1.0, dist(c, Dimension.FIX_PATTERN).get("UNKNOWN"), 1e-12);
    // the symptom class follows the symptom
    Map<String, Double> cls = dist(c, Dimension.SYMPTOM_CLASS);
    assertEquals(0.5, cls.get("HANG"), 1e-12);
    assertEquals(1.0 / 3, cls.get("CRASH"), 1e-12);
    assertEquals(0.0, cls.get("NONE"));
    assertEquals("UNKNOWN", c.symptomClass().value().name());
    // the stage does not depend on the kind
    assertEquals(0.7, dist(c, Dimension.STAGE).get("MEMORY"), 1e-12);
  }

  @Test
  void aPersonsNonBugKindMakesTheBugOnlyDimensionsCertainNone() {
    Classification c =
        with(Dimension.KIND, Label.human(Kind.QUESTION, "GitHub label 'question'"))
            .conditionedOnPeople();
    assertEquals(Symptom.NONE, c.symptom().value());
    assertEquals(1.0, dist(c, Dimension.SYMPTOM).get("NONE"));
    assertEquals("human", c.symptom().calibration());
    assertEquals("NONE", c.symptomClass().value().name());
    assertEquals(1.0, dist(c, Dimension.SYMPTOM_CLASS).get("NONE"));
    assertEquals(RootCause.UNKNOWN, c.rootCause().value());
    assertEquals(1.0, dist(c, Dimension.ROOT_CAUSE).get("UNKNOWN"));
    assertEquals(1.0, dist(c, Dimension.FIX_PATTERN).get("UNKNOWN"));
    assertEquals(null, c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
    assertEquals(1.0, dist(c, Dimension.DISTRIBUTED_SPECIFIC).get("null"));
    assertEquals("human", c.label(Dimension.DISTRIBUTED_SPECIFIC).calibration());
    assertTrue(!c.symptom().humanGiven(), "decided by a person's label, not given by one");
    assertEquals(Stage.MEMORY, c.stage().value(), "the stage is not bug-only");
  }

  @Test
  void aPersonsSymptomMakesTheKindBug() {
    Classification c =
        with(Dimension.SYMPTOM, Label.human(Symptom.HANG, "GitHub label 'hang'"))
            .conditionedOnPeople();
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(1.0, dist(c, Dimension.KIND).get("BUG"));
    assertEquals("human", c.kind().calibration());
    assertEquals(Symptom.HANG, c.symptom().value(), "a person's label is never changed");
    assertTrue(c.symptom().humanGiven());
    // the tier's P(not a bug) is now 1 - its kind's BUG, .4: root cause UNKNOWN .5 / .6
    assertEquals(5.0 / 6, dist(c, Dimension.ROOT_CAUSE).get("UNKNOWN"), 1e-12);
  }

  @Test
  void conditioningTwiceChangesNothingAndWithoutPeoplesLabelsNothingAtAll() {
    Classification once =
        with(Dimension.KIND, Label.human(Kind.BUG, "GitHub label 'bug'")).conditionedOnPeople();
    Classification twice = once.conditionedOnPeople();
    for (Dimension d : Dimension.values()) {
      assertEquals(dist(once, d), dist(twice, d), d + "");
      assertEquals(once.label(d).value(), twice.label(d).value(), d + "");
    }
    Classification symptom =
        with(Dimension.SYMPTOM, Label.human(Symptom.HANG, "GitHub label 'hang'"))
            .conditionedOnPeople();
    assertEquals(
        dist(symptom, Dimension.ROOT_CAUSE),
        dist(symptom.conditionedOnPeople(), Dimension.ROOT_CAUSE));
    Classification none =
        new Classification(
            tierLabels(),
            Label.predicted("trainer", 1.0, "repo"),
            Map.of(),
            Provenance.rules("rules-t"));
    assertSame(none, none.conditionedOnPeople());
    Classification phase =
        with(Dimension.PHASE, Label.human(Phase.INFERENCE, "GitHub label 'inference'"));
    assertSame(phase, phase.conditionedOnPeople(), "a person's phase conditions nothing");
  }
}
