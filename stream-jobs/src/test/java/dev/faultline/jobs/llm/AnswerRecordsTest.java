package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.jobs.LlmFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnswerRecordsTest {
  private static final String KEY = "ab".repeat(32);

  @Test
  void aRecordIsTheCliCacheFileAndReadsBackAsTheSameEntry(@TempDir Path dir) throws Exception {
    AnswerCache.Entry e =
        new AnswerCache.Entry(
            KEY,
            "p1",
            LlmFixtures.MODEL,
            new ObjectMapper().readTree(LlmFixtures.ANSWER).toString(),
            120,
            30,
            "stream");
    byte[] value = AnswerRecords.encode(e);
    assertEquals(e, AnswerRecords.decode(value).orElseThrow());
    AnswerCache cache = new AnswerCache(dir);
    cache.put(e);
    try (Stream<Path> files = Files.walk(dir)) {
      Path file = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      ObjectMapper json = new ObjectMapper();
      assertEquals(
          json.readTree(Files.readString(file)),
          json.readTree(new String(value, StandardCharsets.UTF_8)));
    }
  }

  @Test
  void anythingElseIsNoEntry() {
    assertTrue(AnswerRecords.decode(null).isEmpty(), "tombstone");
    assertTrue(AnswerRecords.decode("not json".getBytes(StandardCharsets.UTF_8)).isEmpty());
    assertTrue(
        AnswerRecords.decode(
                "{\"key\": \"short\", \"answer\": {}}".getBytes(StandardCharsets.UTF_8))
            .isEmpty());
    assertTrue(
        AnswerRecords.decode(
                ("{\"key\": \"" + KEY + "\", \"answer\": \"text\"}")
                    .getBytes(StandardCharsets.UTF_8))
            .isEmpty());
  }
}
