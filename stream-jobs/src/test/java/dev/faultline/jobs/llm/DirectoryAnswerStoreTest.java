package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.jobs.LlmFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache directory as the stream's store: its item index. */
class DirectoryAnswerStoreTest {

  private static AnswerCache.Entry entry(String content, String answer, String item) {
    AnswerCache.Entry e =
        new AnswerCache.Entry(
            AnswerCache.key("p1", "m1", content), "p1", "m1", answer, 1, 1, "batch");
    return item == null ? e : e.withItem(item);
  }

  private static void touch(Path dir, AnswerCache.Entry e, String at) throws Exception {
    Files.setLastModifiedTime(
        dir.resolve(e.key().substring(0, 2)).resolve(e.key() + ".json"),
        FileTime.from(Instant.parse(at)));
  }

  @Test
  void findsTheNewestAnswerOfAnItemAmongTheFilesAndThosePutSince(@TempDir Path dir)
      throws Exception {
    AnswerCache cache = new AnswerCache(dir);
    AnswerCache.Entry older = entry("older text", LlmFixtures.OTHER_ANSWER, "Acme/T#1");
    AnswerCache.Entry newer = entry("newer text", LlmFixtures.ANSWER, "acme/t#1");
    AnswerCache.Entry none = entry("no item", LlmFixtures.ANSWER, null);
    // written newest first: the files' times, not the order they are read in, decide
    cache.put(newer);
    cache.put(older);
    cache.put(none);
    touch(dir, older, "2026-01-01T00:00:00Z");
    touch(dir, newer, "2026-02-01T00:00:00Z");

    try (DirectoryAnswerStore store = new DirectoryAnswerStore(new AnswerCache(dir))) {
      assertEquals(newer.key(), store.forItem("p1", "m1", "acme/t#1").orElseThrow().key());
      assertTrue(store.forItem("p2", "m1", "acme/t#1").isEmpty(), "another prompt version");
      assertTrue(store.forItem("p1", "m2", "acme/t#1").isEmpty(), "another model");
      assertTrue(store.forItem("p1", "m1", "acme/t#2").isEmpty(), "another issue");
      assertEquals(3, store.size());

      AnswerCache.Entry latest = entry("text after a comment", LlmFixtures.ANSWER, "acme/t#1");
      store.put(latest);
      assertEquals(
          latest.key(),
          store.forItem("p1", "m1", "acme/t#1").orElseThrow().key(),
          "an answer put since wins");
      assertEquals(latest.key(), store.get(latest.key()).orElseThrow().key());
    }
  }
}
