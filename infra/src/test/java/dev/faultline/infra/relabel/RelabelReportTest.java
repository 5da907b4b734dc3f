package dev.faultline.infra.relabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelabelReportTest {

  private static RelabelReport.Labels l(String id, String fw, String symptom, String stage) {
    return new RelabelReport.Labels(id, fw, Map.of("symptom", symptom, "stage", stage));
  }

  /**
   * Five DeepSpeed items before; after: a's symptom HANG → CRASH, d's UNKNOWN → HANG (and its
   * stage), e is gone, f is new; one Megatron item unchanged.
   */
  private static final List<RelabelReport.Labels> BEFORE =
      List.of(
          l("a", "DeepSpeed", "HANG", "COMMUNICATION"),
          l("b", "DeepSpeed", "HANG", "COMMUNICATION"),
          l("c", "DeepSpeed", "CRASH", "MEMORY"),
          l("d", "DeepSpeed", "UNKNOWN", "UNKNOWN"),
          l("e", "DeepSpeed", "CRASH", "MEMORY"),
          l("m", "Megatron-LM", "HANG", "INITIALIZATION"));

  private static final List<RelabelReport.Labels> AFTER =
      List.of(
          l("a", "DeepSpeed", "CRASH", "COMMUNICATION"),
          l("b", "DeepSpeed", "HANG", "COMMUNICATION"),
          l("c", "DeepSpeed", "CRASH", "MEMORY"),
          l("d", "DeepSpeed", "HANG", "INITIALIZATION"),
          l("f", "DeepSpeed", "CRASH", "MEMORY"),
          l("m", "Megatron-LM", "HANG", "INITIALIZATION"));

  @Test
  void countsTransitionsAndTheShareChangedPerFrameworkAndDimension() {
    RelabelReport r = RelabelReport.of(BEFORE, AFTER);
    RelabelReport.Cell s = r.cells().get("DeepSpeed").get("symptom");
    assertEquals(Map.of("HANG", 2, "CRASH", 2, "UNKNOWN", 1), s.before());
    assertEquals(Map.of("HANG", 2, "CRASH", 3), s.after());
    assertEquals(4, s.compared(), "a, b, c, d were labelled both times");
    assertEquals(2, s.changed(), "a HANG→CRASH, d UNKNOWN→HANG");
    assertEquals(0.5, s.shareChanged(), 1e-12);
    assertEquals(1, s.added());
    assertEquals(1, s.gone());
    assertEquals(1, s.transitions().get("HANG").get("CRASH"));
    assertEquals(1, s.transitions().get("HANG").get("HANG"));
    assertEquals(1, s.transitions().get("UNKNOWN").get("HANG"));
    assertEquals(1, s.transitions().get("CRASH").get("CRASH"));
    RelabelReport.Cell st = r.cells().get("DeepSpeed").get("stage");
    assertEquals(1, st.changed(), "only d's stage moved");
    assertEquals(0.25, st.shareChanged(), 1e-12);
    RelabelReport.Cell m = r.cells().get("Megatron-LM").get("symptom");
    assertEquals(0, m.changed());
    assertEquals(1, m.compared());
    // The counts reconcile: before = compared + gone, after = compared + added, transitions =
    // compared.
    for (Map<String, RelabelReport.Cell> dims : r.cells().values()) {
      for (RelabelReport.Cell c : dims.values()) {
        int before = c.before().values().stream().mapToInt(Integer::intValue).sum();
        int after = c.after().values().stream().mapToInt(Integer::intValue).sum();
        int moved =
            c.transitions().values().stream()
                .flatMap(t -> t.values().stream())
                .mapToInt(Integer::intValue)
                .sum();
        assertEquals(c.compared() + c.gone(), before);
        assertEquals(c.compared() + c.added(), after);
        assertEquals(c.compared(), moved);
      }
    }
  }

  @Test
  void writesMarkdownAndJson() {
    RelabelReport r = RelabelReport.of(BEFORE, AFTER);
    String md = r.toMarkdown();
    assertTrue(md.contains("## DeepSpeed"), md);
    assertTrue(
        md.contains(
            "2 of 4 items labelled both times changed (50.0%); 1 newly labelled, 1 no longer."),
        md);
    assertTrue(md.contains("| CRASH | 2 | 3 |"), md);
    assertTrue(md.contains("| HANG | CRASH | 1 |"), md);
    assertTrue(!md.contains("| HANG | HANG |"), "unchanged pairs are not listed as moves");
    JsonNode j = r.toJson(new ObjectMapper());
    JsonNode s = j.at("/DeepSpeed/symptom");
    assertEquals(3, s.at("/after/CRASH").asInt());
    assertEquals(0.5, s.get("shareChanged").asDouble(), 1e-12);
    assertEquals(
        4, s.get("transitions").size(), "HANG→CRASH, HANG→HANG, CRASH→CRASH, UNKNOWN→HANG");
  }

  @Test
  void aSecondRunThatChangesNothingReportsNoChangeAndDuplicatesAreRefused() {
    RelabelReport same = RelabelReport.of(AFTER, AFTER);
    same.cells().values().forEach(d -> d.values().forEach(c -> assertEquals(0, c.changed())));
    assertThrows(
        IllegalArgumentException.class,
        () -> RelabelReport.of(List.of(BEFORE.get(0), BEFORE.get(0)), AFTER));
  }
}
