package dev.faultline.schemas.taxonomy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Avro-generated category enums and the taxonomy resource must list exactly the same symbols. */
class TaxonomyResourceTest {

  private final Taxonomy taxonomy = Taxonomy.load();

  private static List<String> names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).toList();
  }

  private void assertSameSymbols(TaxonomyDimension d, Enum<?>[] values) {
    assertEquals(
        taxonomy.dimension(d).allSymbols(),
        names(values),
        "enum for " + d + " differs from " + Taxonomy.RESOURCE + " (proper codes, then NONE, then UNKNOWN)");
  }

  @Test
  void kindEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.KIND, Kind.values());
  }

  @Test
  void symptomClassEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.SYMPTOM_CLASS, SymptomClass.values());
  }

  @Test
  void symptomEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.SYMPTOM, Symptom.values());
  }

  @Test
  void rootCauseEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.ROOT_CAUSE, RootCause.values());
  }

  @Test
  void fixPatternEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.FIX_PATTERN, FixPattern.values());
  }

  @Test
  void stageEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.STAGE, Stage.values());
  }

  @Test
  void phaseEnumMatchesResource() {
    assertSameSymbols(TaxonomyDimension.PHASE, Phase.values());
  }

  @Test
  void everySymptomMapsToAProperSymptomClass() {
    Set<String> classes = new HashSet<>(taxonomy.codes(TaxonomyDimension.SYMPTOM_CLASS));
    for (String symptom : taxonomy.codes(TaxonomyDimension.SYMPTOM)) {
      String cls = taxonomy.symptomClassOf(symptom).orElseThrow();
      assertTrue(classes.contains(cls), symptom + " maps to unknown class " + cls);
      SymptomClass.valueOf(cls);
    }
    assertEquals("CRASH", taxonomy.symptomClassOf("OUT_OF_MEMORY").orElseThrow());
    assertEquals("HANG", taxonomy.symptomClassOf("HANG").orElseThrow());
  }

  @Test
  void everyRootCauseHasAGroupAndTheFourDistributedCausesAreDistributed() {
    for (String rc : taxonomy.codes(TaxonomyDimension.ROOT_CAUSE)) {
      assertNotNull(taxonomy.rootCauseGroup(rc).orElse(null), rc + " has no group");
    }
    List<String> distributed =
        taxonomy.codes(TaxonomyDimension.ROOT_CAUSE).stream()
            .filter(rc -> taxonomy.rootCauseGroup(rc).orElseThrow() == RootCauseGroup.DISTRIBUTED)
            .toList();
    assertEquals(
        List.of(
            "ALLOCATION_STRATEGY_ERROR",
            "DISTRIBUTED_COMMUNICATION_ERROR",
            "DISTRIBUTED_TENSOR_ERROR",
            "CONCURRENCY_ERROR"),
        distributed);
  }

  @Test
  void everyCodeHasANameAndADefinition() {
    for (TaxonomyDimension d : TaxonomyDimension.values()) {
      for (Taxonomy.Code c : taxonomy.dimension(d).codes()) {
        assertFalse(c.name() == null || c.name().isBlank(), d + " " + c.code() + " has no name");
        assertFalse(c.definition() == null || c.definition().isBlank(), d + " " + c.code() + " has no definition");
      }
    }
  }

  @Test
  void stageHintsNameOnlyStages() {
    Set<String> stages = new HashSet<>(taxonomy.codes(TaxonomyDimension.STAGE));
    assertTrue(stages.containsAll(taxonomy.stageHints().keySet()));
    assertFalse(taxonomy.distributedHints().isEmpty());
  }

  @Test
  void decisionRulesAreStatedAndNameOnlyCodesOfTheTaxonomy() {
    assertTrue(taxonomy.decisionRules().size() >= 8, "the codebook's decision rules belong in " + Taxonomy.RESOURCE);
    Set<String> symbols = new HashSet<>();
    for (TaxonomyDimension d : TaxonomyDimension.values()) {
      symbols.addAll(taxonomy.dimension(d).allSymbols());
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\b[A-Z]+(?:_[A-Z]+)+\\b").matcher(String.join("\n", taxonomy.decisionRules()));
    while (m.find()) {
      assertTrue(symbols.contains(m.group()), "decision rule names " + m.group() + ", which is no code of the taxonomy");
    }
  }

  @Test
  void versionIsStatedAndLoadedTaxonomyIsImmutable() {
    assertEquals("taxonomy-v1", taxonomy.version());
    assertThrows(UnsupportedOperationException.class, () -> taxonomy.distributedHints().add("x"));
    assertThrows(
        UnsupportedOperationException.class,
        () -> taxonomy.dimension(TaxonomyDimension.KIND).codes().clear());
  }

  @Test
  void missingResourceFailsWithItsName() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> Taxonomy.load("/dev/faultline/taxonomy/nope.json"));
    assertTrue(e.getMessage().contains("nope.json"));
  }
}
