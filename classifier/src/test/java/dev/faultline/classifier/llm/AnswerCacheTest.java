package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnswerCacheTest {

  @Test
  void keyDependsOnPromptVersionModelAndContent() {
    String k = AnswerCache.key("p1", "m1", "text");
    assertTrue(AnswerCache.isKey(k));
    assertEquals(k, AnswerCache.key("p1", "m1", "text"));
    assertNotEquals(k, AnswerCache.key("p2", "m1", "text"));
    assertNotEquals(k, AnswerCache.key("p1", "m2", "text"));
    assertNotEquals(k, AnswerCache.key("p1", "m1", "text!"));
  }

  @Test
  void storesAndReadsAnAnswerLeavingNoTemporaryFiles(@TempDir Path dir) throws Exception {
    AnswerCache cache = new AnswerCache(dir.resolve("cache"));
    String key = AnswerCache.key("p1", "m1", "text");
    assertFalse(cache.contains(key));
    cache.put(new AnswerCache.Entry(key, "p1", "m1", Fixtures.HANG_ANSWER, 120, 30, "endpoint"));
    cache.put(new AnswerCache.Entry(key, "p1", "m1", Fixtures.HANG_ANSWER, 120, 30, "endpoint"));
    AnswerCache.Entry e = new AnswerCache(dir.resolve("cache")).get(key).orElseThrow();
    assertEquals("m1", e.model());
    assertEquals(120, e.promptTokens());
    assertEquals(
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(Fixtures.HANG_ANSWER),
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(e.answer()));
    try (Stream<Path> files = Files.walk(dir)) {
      assertEquals(
          1, files.filter(Files::isRegularFile).count(), "one answer file, no temporary file");
    }
    assertFalse(cache.get("../../etc/passwd").isPresent(), "only well-formed keys are looked up");
  }

  @Test
  void anItemIsOwnerRepoAndNumberLowerCasedFromAUrlOrAnId() {
    assertEquals(
        "acme-ai/trainer.x#42",
        AnswerCache.item("https://github.com/Acme-AI/Trainer.X/issues/42").orElseThrow());
    assertEquals(
        "acme-ai/trainer.x#42",
        AnswerCache.item("https://github.com/acme-ai/trainer.x/pull/42").orElseThrow(),
        "a pull request shares its repository's numbers");
    assertEquals(
        "acme/t#7",
        AnswerCache.item("http://www.github.com/ACME/T/issues/007#issuecomment-1").orElseThrow());
    assertEquals("acme/t#7", AnswerCache.item("ACME/T#7").orElseThrow());
    assertEquals("acme/t#7", AnswerCache.item("Acme/T", 7));
    assertTrue(AnswerCache.item("https://gitlab.com/acme/t/issues/7").isEmpty());
    assertTrue(AnswerCache.item("https://github.com/acme/t/discussions/7").isEmpty());
    assertTrue(AnswerCache.item("https://github.com/acme/t/issues/0").isEmpty());
    assertTrue(AnswerCache.item("acme#7").isEmpty());
    assertTrue(AnswerCache.item((String) null).isEmpty());
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> AnswerCache.item("acme", 7));
  }

  @Test
  void theItemRoundTripsThroughTheFileAndAnOlderFileHasNone(@TempDir Path dir) throws Exception {
    AnswerCache cache = new AnswerCache(dir);
    String withItem = AnswerCache.key("p1", "m1", "text");
    String without = AnswerCache.key("p1", "m1", "other text");
    cache.put(
        new AnswerCache.Entry(withItem, "p1", "m1", Fixtures.HANG_ANSWER, 1, 1, "batch")
            .withItem("https://github.com/Acme/T/issues/3"));
    cache.put(new AnswerCache.Entry(without, "p1", "m1", Fixtures.HANG_ANSWER, 1, 1, "batch"));
    assertEquals("acme/t#3", cache.get(withItem).orElseThrow().item());
    assertEquals(null, cache.get(without).orElseThrow().item());
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    assertFalse(
        cache.get(without).orElseThrow().toJson(json).has("item"), "no item field when none");
    assertEquals(
        null,
        AnswerCache.Entry.fromJson(withItem, json.readTree("{\"item\": \"not an item\"}")).item());
  }

  @Test
  void keepsOneCalibrationPerModelAndPromptBesideTheAnswers(@TempDir Path dir) throws Exception {
    AnswerCache cache = new AnswerCache(dir.resolve("cache"));
    Answer hang =
        ((AnswerParser.Accepted)
                new AnswerParser(new AnswerSchema(dev.faultline.schemas.taxonomy.Taxonomy.load()))
                    .parse(Fixtures.HANG_ANSWER))
            .answer();
    var gold =
        java.util.Map.of(
            dev.faultline.schemas.taxonomy.Dimension.KIND,
            "QUESTION",
            dev.faultline.schemas.taxonomy.Dimension.SYMPTOM,
            "NONE");
    LlmCalibration first =
        LlmCalibration.fit(
            "org/model-7b",
            "p1",
            java.util.List.of(java.util.Map.entry(hang, gold)),
            0.1,
            2,
            "t",
            "d");
    LlmCalibration second =
        LlmCalibration.fit(
            "org/model-7b",
            "p1",
            java.util.List.of(java.util.Map.entry(hang, gold), java.util.Map.entry(hang, gold)),
            0.1,
            2,
            "t",
            "d");
    Path file = cache.putCalibration(first);
    assertEquals("org_model-7b@p1.json", file.getFileName().toString());
    cache.putCalibration(second);
    Files.writeString(cache.calibrationDir().resolve("notes.json"), "{\"type\": \"other\"}");
    assertEquals(1, cache.calibrations().size(), "the second replaced the first; notes skipped");
    LlmCalibration read = cache.calibration("org/model-7b", "p1").orElseThrow();
    var kind = dev.faultline.schemas.taxonomy.Dimension.KIND;
    assertEquals(second.row(kind, dev.faultline.schemas.taxonomy.Kind.BUG), read.row(kind, "BUG"));
    // (0 + 2 * 0.9) / (2 + 2) on BUG: the model answered BUG twice and was wrong twice
    assertEquals(1.8 / 4, read.row(kind, "BUG").get("BUG"), 1e-12);
    assertEquals(2, read.confusions().get(kind).items(java.util.List.of()));
    assertTrue(cache.calibration("org/model-7b", "p2").isEmpty(), "another prompt version");
    assertTrue(cache.calibration("model-7b", "p1").isEmpty(), "another model");
    assertFalse(cache.contains(file.getFileName().toString().replace(".json", "")));
  }
}
