package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.records.ClassifiedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassifiedEventTest {

  private static ClassifiedIssue record() {
    ClassifiedEvent e = new ClassifiedEvent();
    e.id = "acme/trainer#7";
    e.framework = "DeepSpeed";
    e.state = "open";
    e.createdAt = 1_700_000_000_000L;
    e.updatedAt = 1_700_000_100_000L;
    e.category(Dimension.SYMPTOM, "HANG");
    e.category(Dimension.SYMPTOM_CLASS, "HANG");
    e.category(Dimension.ROOT_CAUSE, "CONCURRENCY_ERROR");
    e.category(Dimension.FIX_PATTERN, "UNKNOWN");
    e.category(Dimension.STAGE, "COMMUNICATION");
    e.category(Dimension.PHASE, "TRAINING");
    e.category(Dimension.DISTRIBUTED_SPECIFIC, "TRUE");
    ClassifiedIssue c = Fixtures.toAvro(e);
    c.setConfidence(
        Map.of(
            "symptom",
            0.95,
            "rootCause",
            0.40,
            "fixPattern",
            0.9,
            "stage",
            0.50,
            "phase",
            0.99,
            "distributedSpecific",
            0.30));
    c.setHumanGiven(List.of("stage"));
    return c;
  }

  @Test
  void aLabelBelowItsBarCountsAsUnknownUnlessAPersonGaveIt() {
    ClassifiedEvent e = ClassifiedEvent.fromAvro(record(), ConfidencePolicy.atLeast(0.8));
    assertEquals("HANG", e.category(Dimension.SYMPTOM));
    assertEquals("HANG", e.category(Dimension.SYMPTOM_CLASS));
    assertEquals("UNKNOWN", e.category(Dimension.ROOT_CAUSE), "0.40 < 0.8");
    assertEquals("COMMUNICATION", e.category(Dimension.STAGE), "0.50, but given by a person");
    assertEquals("TRAINING", e.category(Dimension.PHASE));
    assertEquals("UNKNOWN", e.category(Dimension.DISTRIBUTED_SPECIFIC), "0.30 < 0.8");
  }

  @Test
  void withoutABarEveryLabelCounts() {
    ClassifiedEvent e = ClassifiedEvent.fromAvro(record(), ConfidencePolicy.all());
    assertEquals("CONCURRENCY_ERROR", e.category(Dimension.ROOT_CAUSE));
    assertEquals("TRUE", e.category(Dimension.DISTRIBUTED_SPECIFIC));
    assertEquals(
        e.category(Dimension.ROOT_CAUSE),
        ClassifiedEvent.fromAvro(record()).category(Dimension.ROOT_CAUSE));
  }

  @Test
  void theRecordsDistributionsAndItsChanceOfBeingABugReportReachTheEvent() {
    ClassifiedIssue c = record();
    c.setProbabilities(
        Map.of(
            "kind",
            Map.of("BUG", 0.8, "QUESTION", 0.2),
            "symptom",
            Map.of("HANG", 0.6, "OUT_OF_MEMORY", 0.2, "NONE", 0.2),
            "stage",
            Map.of("COMMUNICATION", 0.7, "MEMORY", 0.3),
            "distributedSpecific",
            Map.of("true", 0.9, "null", 0.1)));
    ClassifiedEvent e = ClassifiedEvent.fromAvro(c, ConfidencePolicy.atLeast(0.8));
    assertEquals(0.8, e.bug, 1e-12);
    List<String> symptoms = Dimension.SYMPTOM.distributionCodes();
    double[] symptom = e.bugProbabilities(Dimension.SYMPTOM);
    // a dimension given bug reports only holds P(bug and code) already (NONE: the rest)
    assertEquals(0.6, symptom[symptoms.indexOf("HANG")], 1e-12);
    assertEquals(0.2, symptom[symptoms.indexOf("NONE")], 1e-12);
    assertEquals(1.0, java.util.Arrays.stream(symptom).sum(), 1e-12);
    // the stage is given other kinds too: P(code) × P(bug)
    double[] stage = e.bugProbabilities(Dimension.STAGE);
    assertEquals(0.7 * 0.8, stage[Dimension.STAGE.distributionCodes().indexOf("COMMUNICATION")]);
    assertEquals(0.3 * 0.8, stage[Dimension.STAGE.distributionCodes().indexOf("MEMORY")], 1e-12);
    // below the bar the label counts as UNKNOWN; its distribution is still the classifier's
    assertEquals("UNKNOWN", e.category(Dimension.DISTRIBUTED_SPECIFIC));
    assertEquals(0.9, e.bugProbabilities(Dimension.DISTRIBUTED_SPECIFIC)[0], 1e-12);
    // no distribution stored: a point mass on the label (the root cause's, though below the bar)
    double[] cause = ClassifiedEvent.fromAvro(c).bugProbabilities(Dimension.ROOT_CAUSE);
    assertEquals(1.0, cause[Dimension.ROOT_CAUSE.distributionCodes().indexOf("CONCURRENCY_ERROR")]);
    assertEquals(1.0, java.util.Arrays.stream(cause).sum(), 1e-12);
  }

  @Test
  void withoutAKindDistributionTheKindLabelSaysWhetherItIsABugReport() {
    ClassifiedIssue c = record();
    c.setKind(dev.faultline.schemas.taxonomy.Kind.FEATURE_REQUEST);
    ClassifiedEvent e = ClassifiedEvent.fromAvro(c);
    assertEquals(0.0, e.bug);
    assertEquals(0.0, java.util.Arrays.stream(e.bugProbabilities(Dimension.STAGE)).sum());
    assertEquals(1.0, ClassifiedEvent.fromAvro(record()).bug);
  }
}
