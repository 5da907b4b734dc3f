package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.schemas.ClassifiedIssue;
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
    e.symptom = "HANG";
    e.symptomClass = "HANG";
    e.rootCause = "CONCURRENCY_ERROR";
    e.fixPattern = "UNKNOWN";
    e.stage = "COMMUNICATION";
    e.phase = "TRAINING";
    e.distributedSpecific = "TRUE";
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
    assertEquals("HANG", e.symptom);
    assertEquals("HANG", e.symptomClass);
    assertEquals("UNKNOWN", e.rootCause, "0.40 < 0.8");
    assertEquals("COMMUNICATION", e.stage, "0.50, but given by a person");
    assertEquals("TRAINING", e.phase);
    assertEquals("UNKNOWN", e.distributedSpecific, "0.30 < 0.8");
  }

  @Test
  void withoutABarEveryLabelCounts() {
    ClassifiedEvent e = ClassifiedEvent.fromAvro(record(), ConfidencePolicy.all());
    assertEquals("CONCURRENCY_ERROR", e.rootCause);
    assertEquals("TRUE", e.distributedSpecific);
    assertEquals(e.rootCause, ClassifiedEvent.fromAvro(record()).rootCause);
  }
}
