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
}
