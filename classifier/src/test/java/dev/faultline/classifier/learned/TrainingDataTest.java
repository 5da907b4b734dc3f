package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingDataTest {

  private static final String GOOD =
      "{\"url\":\"https://github.com/acme/trainer/issues/4\",\"repo\":\"acme/trainer\",\"number\":4,"
          + "\"title\":\"Hang in allreduce\",\"state\":\"open\",\"labels\":[\"bug\"],"
          + "\"text\":\"acme/trainer · issue #4 · open\\n# Hang in allreduce\\n\\nana · description · 2025-01-02\\nstuck\","
          + "\"gold\":{\"kind\":\"BUG\",\"symptom\":\"HANG\",\"root_cause\":\"UNKNOWN\",\"fix_pattern\":\"UNKNOWN\","
          + "\"stage\":\"COMMUNICATION\",\"phase\":\"TRAINING\",\"distributed_specific\":true,\"framework\":\"X\","
          + "\"versions\":{}}}";

  @TempDir Path dir;

  @Test
  void readsARecordWithItsGold() throws Exception {
    Path f = Files.writeString(dir.resolve("a.jsonl"), GOOD + "\n\n");
    List<TrainingData.Item> items = TrainingData.read(f);
    assertEquals(1, items.size());
    assertEquals("acme/trainer#4", items.get(0).id());
    assertEquals("HANG", items.get(0).gold().get(Target.SYMPTOM));
    assertEquals("true", items.get(0).gold().get(Target.of(Dimension.DISTRIBUTED_SPECIFIC)));
    assertEquals(List.of("bug"), items.get(0).text().labels());
  }

  @Test
  void aChangeKeepsItsFilesAndDiff() throws Exception {
    String change =
        GOOD.replace("issues/4", "pull/9")
            .replace("stuck", "changed files:\\nsrc/comm.py+3-1\\ntests/t.py+10-0")
            .replace("\"labels\"", "\"diff\":\"+ if group is None:\\n-    pass\",\"labels\"");
    TrainingData.Item it =
        TrainingData.read(Files.writeString(dir.resolve("c.jsonl"), change)).get(0);
    assertTrue(it.change());
    assertEquals("acme/trainer#9", it.id());
    assertEquals(2, it.details().files().size());
    assertEquals(new ChangeDetails.ChangedFile("src/comm.py", 3, 1), it.details().files().get(0));
    assertTrue(it.details().diff().startsWith("+ if group"));
  }

  @Test
  void badInputNamesTheFileAndLine() throws Exception {
    Path f = Files.writeString(dir.resolve("bad.jsonl"), GOOD + "\n{not json\n");
    TrainingData.BadInput e = assertThrows(TrainingData.BadInput.class, () -> TrainingData.read(f));
    assertTrue(e.getMessage().startsWith(f + ":2: not a JSON object"), e.getMessage());

    Path g = Files.writeString(dir.resolve("code.jsonl"), GOOD.replace("\"HANG\"", "\"STUCK\""));
    e = assertThrows(TrainingData.BadInput.class, () -> TrainingData.read(g));
    assertTrue(e.getMessage().startsWith(g + ":1: unknown symptom code 'STUCK'"), e.getMessage());

    Path h = Files.writeString(dir.resolve("field.jsonl"), GOOD.replace("\"title\"", "\"name\""));
    e = assertThrows(TrainingData.BadInput.class, () -> TrainingData.read(h));
    assertEquals(h + ":1: missing field 'title'", e.getMessage());

    e =
        assertThrows(
            TrainingData.BadInput.class, () -> TrainingData.read(dir.resolve("none.jsonl")));
    assertEquals(dir.resolve("none.jsonl") + ": no such file", e.getMessage());
  }
}
