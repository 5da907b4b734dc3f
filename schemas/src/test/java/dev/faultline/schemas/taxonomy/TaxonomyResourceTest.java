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

/**
 * The Avro-generated category enums and the taxonomy resource must list exactly the same symbols.
 */
class TaxonomyResourceTest {

  private final Taxonomy taxonomy = Taxonomy.load();

  private static List<String> names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).toList();
  }

  private void assertSameSymbols(Dimension d, Enum<?>[] values) {
    assertEquals(
        taxonomy.dimension(d).allSymbols(),
        names(values),
        "enum for "
            + d
            + " differs from "
            + Taxonomy.RESOURCE
            + " (proper codes, then NONE, then UNKNOWN)");
  }

  @Test
  void kindEnumMatchesResource() {
    assertSameSymbols(Dimension.KIND, Kind.values());
  }

  @Test
  void symptomClassEnumMatchesResource() {
    assertSameSymbols(Dimension.SYMPTOM_CLASS, SymptomClass.values());
  }

  @Test
  void symptomEnumMatchesResource() {
    assertSameSymbols(Dimension.SYMPTOM, Symptom.values());
  }

  @Test
  void rootCauseEnumMatchesResource() {
    assertSameSymbols(Dimension.ROOT_CAUSE, RootCause.values());
  }

  @Test
  void fixPatternEnumMatchesResource() {
    assertSameSymbols(Dimension.FIX_PATTERN, FixPattern.values());
  }

  @Test
  void stageEnumMatchesResource() {
    assertSameSymbols(Dimension.STAGE, Stage.values());
  }

  @Test
  void phaseEnumMatchesResource() {
    assertSameSymbols(Dimension.PHASE, Phase.values());
  }

  @Test
  void everySymptomMapsToAProperSymptomClass() {
    Set<String> classes = new HashSet<>(taxonomy.codes(Dimension.SYMPTOM_CLASS));
    for (String symptom : taxonomy.codes(Dimension.SYMPTOM)) {
      String cls = taxonomy.symptomClassOf(symptom).orElseThrow();
      assertTrue(classes.contains(cls), symptom + " maps to unknown class " + cls);
      SymptomClass.valueOf(cls);
    }
    assertEquals("CRASH", taxonomy.symptomClassOf("OUT_OF_MEMORY").orElseThrow());
    assertEquals("HANG", taxonomy.symptomClassOf("HANG").orElseThrow());
  }

  @Test
  void everyRootCauseHasAGroupAndTheFourDistributedCausesAreDistributed() {
    for (String rc : taxonomy.codes(Dimension.ROOT_CAUSE)) {
      assertNotNull(taxonomy.rootCauseGroup(rc).orElse(null), rc + " has no group");
    }
    List<String> distributed =
        taxonomy.codes(Dimension.ROOT_CAUSE).stream()
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
    for (Dimension d : Dimension.CODED) {
      for (Taxonomy.Code c : taxonomy.dimension(d).codes()) {
        assertFalse(c.name() == null || c.name().isBlank(), d + " " + c.code() + " has no name");
        assertFalse(
            c.definition() == null || c.definition().isBlank(),
            d + " " + c.code() + " has no definition");
      }
    }
  }

  @Test
  void stageHintsNameOnlyStages() {
    Set<String> stages = new HashSet<>(taxonomy.codes(Dimension.STAGE));
    assertTrue(stages.containsAll(taxonomy.stageHints().keySet()));
    assertFalse(taxonomy.distributedHints().isEmpty());
  }

  @Test
  void decisionRulesAreStatedAndNameOnlyCodesOfTheTaxonomy() {
    assertTrue(
        taxonomy.decisionRules().size() >= 8,
        "the codebook's decision rules belong in " + Taxonomy.RESOURCE);
    Set<String> symbols = new HashSet<>();
    for (Dimension d : Dimension.CODED) {
      symbols.addAll(taxonomy.dimension(d).allSymbols());
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\b[A-Z]+(?:_[A-Z]+)+\\b")
            .matcher(String.join("\n", taxonomy.decisionRules()));
    while (m.find()) {
      assertTrue(
          symbols.contains(m.group()),
          "decision rule names " + m.group() + ", which is no code of the taxonomy");
    }
  }

  @Test
  void versionIsStatedAndLoadedTaxonomyIsImmutable() {
    assertEquals("taxonomy-v1", taxonomy.version());
    assertThrows(UnsupportedOperationException.class, () -> taxonomy.distributedHints().add("x"));
    assertThrows(
        UnsupportedOperationException.class,
        () -> taxonomy.dimension(Dimension.KIND).codes().clear());
  }

  @Test
  void missingResourceFailsWithItsName() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> Taxonomy.load("/dev/faultline/taxonomy/nope.json"));
    assertTrue(e.getMessage().contains("nope.json"));
  }

  @Test
  void everyCodedDimensionsEnumHasTheResourcesSymbolsAndTheFlagHasNone() {
    for (Dimension d : Dimension.CODED) {
      assertEquals(
          taxonomy.dimension(d).allSymbols(), d.symbols(), d + ": enum and resource disagree");
      assertTrue(d.coded());
      assertEquals(d, Dimension.ofKey(d.key()).orElseThrow());
      assertEquals(d, Dimension.ofField(d.field()).orElseThrow());
    }
    for (Dimension d : Dimension.CODED) {
      Taxonomy.DimensionCodes codes = taxonomy.dimension(d);
      for (Enum<?> symbol : d.codeType().orElseThrow().getEnumConstants()) {
        boolean special =
            symbol.name().equals(codes.none()) || symbol.name().equals(codes.unknown());
        assertEquals(!special, Dimension.isCategory(symbol), d + " " + symbol);
      }
    }
    assertFalse(Dimension.DISTRIBUTED_SPECIFIC.coded());
    assertTrue(Dimension.DISTRIBUTED_SPECIFIC.symbols().isEmpty());
    assertEquals(Dimension.values().length, Dimension.CODED.size() + 1);
    assertEquals(
        Arrays.stream(Dimension.values()).filter(d -> d != Dimension.SYMPTOM_CLASS).toList(),
        Dimension.LABELLED);
  }
}
