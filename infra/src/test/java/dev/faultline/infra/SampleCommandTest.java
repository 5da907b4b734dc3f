package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.sample.ValidationSamples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample file's lines: what draw writes, and how import reads a filled-in file. */
class SampleCommandTest {
  @TempDir Path dir;

  @Test
  void aDrawnLineHasEveryCodebookFieldEmptyAndAFilledInLineReadsBackAsLabels() throws Exception {
    ValidationSamples.Drawn drawn =
        new ValidationSamples.Drawn(
            "sample-0123456789ab",
            new ValidationSamples.Scope("DeepSpeed", null, null),
            7,
            300,
            List.of(new ValidationSamples.DrawnIssue("o/r#1", "https://x/1", "A title", "Body")));
    Map<String, Object> line = SampleCommand.Draw.line(drawn, drawn.issues().get(0));
    for (String field :
        List.of(
            "kind",
            "symptom",
            "root_cause",
            "fix_pattern",
            "stage",
            "phase",
            "distributed_specific")) {
      assertEquals("", line.get(field), field);
    }
    assertEquals("sample-0123456789ab", line.get("sample"));

    // a person fills in kind, symptom, stage and "cannot tell" for distributed_specific; the rest
    // stays empty
    line.put("kind", "BUG");
    line.put("symptom", "HANG");
    line.put("stage", "COMMUNICATION");
    line.put("distributed_specific", null);
    Path file = dir.resolve("s.jsonl");
    Files.writeString(file, SampleCommand.JSON.writeValueAsString(line) + "\n\n");
    List<ValidationSamples.LabelLine> read = SampleCommand.Import.read(file);
    assertEquals(1, read.size());
    assertEquals(
        Map.of(
            "kind",
            "BUG",
            "symptom",
            "HANG",
            "stage",
            "COMMUNICATION",
            "distributedSpecific",
            "null"),
        read.get(0).labels());
    assertEquals("o/r#1", read.get(0).id());
  }

  @Test
  void aBrokenLineIsNamedWithItsFileAndNumber() throws Exception {
    Path file = dir.resolve("bad.jsonl");
    Files.writeString(file, "{\"sample\":\"s\",\"id\":\"o/r#1\",\"kind\":\"BUG\"}\nnot json\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SampleCommand.Import.read(file));
    assertTrue(e.getMessage().endsWith("bad.jsonl:2: not a JSON object"), e.getMessage());
    Files.writeString(file, "{\"kind\":\"BUG\"}\n");
    e = assertThrows(IllegalArgumentException.class, () -> SampleCommand.Import.read(file));
    assertTrue(
        e.getMessage().contains("bad.jsonl:1: 'sample' and 'id' are missing"), e.getMessage());
  }
}
