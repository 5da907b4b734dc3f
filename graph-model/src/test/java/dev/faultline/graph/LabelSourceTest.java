package dev.faultline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.testing.Codes;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSourceTest {

  @Test
  void aLanguageModelsRowOutranksAnOfflineRow() {
    assertEquals(LabelSource.LLM_RANK, LabelSource.rankOf("llm:m"));
    assertEquals(LabelSource.OFFLINE_RANK, LabelSource.rankOf("model"));
    assertEquals(LabelSource.OFFLINE_RANK, LabelSource.rankOf("rules"));
  }

  @Test
  void aDimensionAPersonLabelledIsHumanWhateverTheTier() {
    IssueRow.ClassificationRow c = row(List.of(Dimension.KIND), "llm:m/p1", "llm:m", "p1");
    assertEquals("human", c.sourceOf(Dimension.KIND));
    assertEquals("llm:m", c.sourceOf(Dimension.SYMPTOM));
    assertEquals(1, c.rank());
    IssueRow.ClassificationRow offline =
        row(List.of(), "rules-1.3.1+taxonomy-v1", LabelSource.RULES, null);
    assertEquals("rules", offline.labelSource());
    assertEquals(null, offline.promptVersion());
    assertEquals(0, offline.rank());
  }

  /** A communication hang in training, labelled by {@code classifierVersion}. */
  private static IssueRow.ClassificationRow row(
      List<Dimension> human, String classifierVersion, String labelSource, String promptVersion) {
    return new IssueRow.ClassificationRow(
        Codes.of(
            Kind.BUG,
            Symptom.HANG,
            SymptomClass.valueOf("HANG"),
            RootCause.UNKNOWN,
            FixPattern.UNKNOWN,
            Stage.COMMUNICATION,
            Phase.TRAINING,
            Boolean.TRUE),
        null,
        Map.of(),
        Map.of(),
        Map.of(),
        human,
        classifierVersion,
        0L,
        labelSource,
        promptVersion);
  }
}
