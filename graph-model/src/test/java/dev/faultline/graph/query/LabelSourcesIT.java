package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.schemas.taxonomy.Dimension;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code label-sources}: each dimension's labels by the source and version that gave them, read per
 * label ({@code <key>Source}, {@code <key>Version}, {@code <key>LabelledAt}) with the fallbacks of
 * older data (the issue's tier and classifier version; {@code human} for a person's label; {@code
 * unknown} when the issue records no source).
 */
class LabelSourcesIT extends QueryITBase {
  private static final String SET_PROPS =
      "UNWIND $rows AS r MATCH (i:Issue {id: r.id}) SET i += r.props";

  private void mixedProvenance() {
    graph.create(
        // written before provenance: no source at all, a person's symptom
        issue("o/ds#1").symptom("HANG").humanGiven("symptom"),
        issue("o/ds#2").symptom("HANG"),
        issue("o/ds#3").symptom("OUT_OF_MEMORY"),
        issue("o/mg#4").framework("megatron").symptom("HANG"));
    graph.write(
        SET_PROPS,
        List.of(
            provenance("o/ds#2", "model", "learned-2", 0.9, "learned-1", "2024-01-01T00:00:00Z"),
            provenance("o/ds#3", "model", "learned-2", 0.3, "learned-1", "2024-02-01T00:00:00Z"),
            provenance("o/mg#4", "llm:m", "llm:m/p1", 0.9, null, null)));
    // a node made by a pull request's closing keyword: not classified, not counted
    graph.write(
        "UNWIND $rows AS r MERGE (i:Issue {id: r.id}) SET i.state = 'open'",
        List.of(Map.of("id", "o/ds#9")));
  }

  /**
   * An issue labelled by {@code source} at {@code classifierVersion}; its symptom label with its
   * own version and time when given (else none recorded).
   */
  private static Map<String, Object> provenance(
      String id,
      String source,
      String classifierVersion,
      double symptomConfidence,
      String symptomVersion,
      String symptomAt) {
    Map<String, Object> props = new HashMap<>();
    props.put("labelSource", source);
    props.put("classifierVersion", classifierVersion);
    for (Dimension d : Dimension.LABELLED) {
      props.put(d.sourceProperty(), source);
    }
    props.put(Dimension.SYMPTOM.confidenceProperty(), symptomConfidence);
    props.put(Dimension.SYMPTOM.versionProperty(), symptomVersion);
    props.put(
        Dimension.SYMPTOM.labelledAtProperty(),
        symptomAt == null ? null : ZonedDateTime.parse(symptomAt));
    return Map.of("id", id, "props", props);
  }

  @Test
  void countsALabelUnderItsOwnVersionWithWhenItWasGivenAndAPersonsAsHuman() {
    mixedProvenance();
    assertEquals(
        List.of(
            row(
                "dimension",
                "symptom",
                "source",
                "model",
                "version",
                "learned-1",
                "labels",
                2L,
                "share",
                0.6667,
                "labelled",
                1L,
                "coverage",
                0.5,
                "firstLabelledAt",
                "2024-01-01T00:00:00Z",
                "lastLabelledAt",
                "2024-02-01T00:00:00Z"),
            row(
                "dimension",
                "symptom",
                "source",
                "human",
                "version",
                "human",
                "labels",
                1L,
                "share",
                0.3333,
                "labelled",
                1L,
                "coverage",
                1.0,
                "firstLabelledAt",
                null,
                "lastLabelledAt",
                null)),
        // the symptom class's labels are its symptom's
        run(
            "label-sources",
            "dimension",
            "symptomClass",
            "framework",
            "deepspeed",
            "minConfidence",
            "0.5"));
  }

  @Test
  void fallsBackToTheIssuesTierAndClassifierVersionAndNamesAMissingSourceUnknown() {
    mixedProvenance();
    assertEquals(
        List.of("model learned-2 2", "llm:m llm:m/p1 1", "unknown rules-test 1"),
        sources(run("label-sources", "dimension", "kind")));
    assertEquals(
        List.of("llm:m llm:m/p1 1"),
        sources(run("label-sources", "dimension", "kind", "framework", "megatron")));
    assertEquals(List.of(), run("label-sources", "kind", "FEATURE_REQUEST"));
  }

  @Test
  void givesEveryLabelledDimensionInDimensionOrder() {
    mixedProvenance();
    List<Object> dimensions =
        new ArrayList<>(
            new LinkedHashSet<>(
                run("label-sources").stream().map(r -> r.get("dimension")).toList()));
    assertEquals(Dimension.LABELLED.stream().map(Dimension::key).toList(), dimensions);
  }

  private static List<String> sources(List<Map<String, Object>> rows) {
    return rows.stream()
        .map(r -> r.get("source") + " " + r.get("version") + " " + r.get("labels"))
        .toList();
  }
}
