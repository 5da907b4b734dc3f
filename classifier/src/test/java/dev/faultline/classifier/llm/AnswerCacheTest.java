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
}
