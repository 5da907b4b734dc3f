package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {

  private static final String ISSUE =
      "{\"url\":\"https://example.org/acme/issues/1\",\"repo\":\"hpcaitech/ColossalAI\",\"number\":1,"
          + "\"title\":\"[BUG]: CUDA out of memory with gemini\",\"state\":\"open\",\"labels\":[\"bug\"],"
          + "\"text\":\"hpcaitech/ColossalAI · issue #1 · open · Python\\nlabels: bug\\n"
          + "# [BUG]: CUDA out of memory with gemini\\n\\nalice · description · 2024-01-02\\n"
          + "Training a 7B model on 8 GPUs: torch.cuda.OutOfMemoryError: CUDA out of memory.\\n"
          + "Python version: 3.10.4\\n\\nbob · comment · 2024-01-03\\nsame here\"";

  private static final String PR =
      "{\"url\":\"https://example.org/acme/pull/2\",\"repo\":\"deepspeedai/DeepSpeed\",\"number\":2,"
          + "\"title\":\"Fix README typo in docs\",\"state\":\"merged\",\"labels\":[],"
          + "\"text\":\"deepspeedai/DeepSpeed · pull request #2 · merged · Python\\n# Fix README typo in docs\\n\\n"
          + "carol · description · 2024-02-02\\nFixes the docs.\"";

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  @Test
  void classifyWritesOneOutputLinePerInputWithEveryCodebookField(@TempDir Path dir) throws Exception {
    Path in = dir.resolve("in.jsonl");
    Path outFile = dir.resolve("out.jsonl");
    Files.writeString(in, ISSUE + "}\n" + PR + "}\n");
    int code = ClassifyCommand.run(new String[] {"--input", in.toString(), "--output", outFile.toString()}, out, err);
    assertEquals(0, code, errBytes.toString(StandardCharsets.UTF_8));
    List<String> lines = Files.readAllLines(outFile);
    assertEquals(2, lines.size());
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    for (String f : Records.FIELDS) {
      assertTrue(first.has(f), "missing " + f + " in " + first);
    }
    assertEquals("https://example.org/acme/issues/1", first.get("url").asText());
    assertEquals("OUT_OF_MEMORY", first.get("symptom").asText());
    assertEquals("Colossal-AI", first.get("framework").asText());
    assertEquals("3.10.4", first.get("versions").get("python").asText());
    assertTrue(first.get("confidence").has("symptom"));
    assertTrue(first.get("evidence").get("symptom").asText().length() > 0);
    JsonNode second = new ObjectMapper().readTree(lines.get(1));
    assertEquals("DOCUMENTATION", second.get("kind").asText());
    assertTrue(second.get("distributed_specific").isNull());
  }

  @Test
  void classifyWithoutArgumentsIsAUsageError() {
    assertEquals(2, ClassifyCommand.run(new String[0], out, err));
    assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("usage: classify"));
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    assertEquals(0, ClassifyCommand.run(new String[] {"--help"}, out, err));
    assertEquals(0, EvalCommand.run(new String[] {"--help"}, out, err));
    String text = outBytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("usage: classify") && text.contains("usage: eval"));
  }

  @Test
  void evalPrintsAgreementBesideTargetsAndConfusion(@TempDir Path dir) throws Exception {
    Path gold = dir.resolve("gold.jsonl");
    String goldIssue =
        ISSUE
            + ",\"gold\":{\"kind\":\"BUG\",\"symptom\":\"OUT_OF_MEMORY\",\"root_cause\":\"UNKNOWN\","
            + "\"fix_pattern\":\"UNKNOWN\",\"stage\":\"MEMORY\",\"phase\":\"TRAINING\",\"distributed_specific\":null,"
            + "\"framework\":\"Colossal-AI\",\"versions\":{\"python\":\"3.10.4\"}}}";
    Files.writeString(gold, goldIssue + "\n");
    int code = EvalCommand.run(new String[] {"--gold", gold.toString(), "--errors", "symptom"}, out, err);
    assertEquals(0, code, errBytes.toString(StandardCharsets.UTF_8));
    String report = outBytes.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains("macro-F1"), report);
    assertTrue(report.contains("0.96 / 0.97"), report);
    assertTrue(report.contains("symptom confusion"), report);
    assertTrue(report.contains("precision 1.000"), report);
  }

  @Test
  void threadTextSplitsOpeningPostFromComments() {
    var issue =
        ThreadText.parse(
            "https://example.org/x/issues/3",
            "a/b",
            3,
            "t",
            "open",
            List.of(),
            "a/b · issue #3 · open · Python\n# t\n\nann · description · 2024-01-01\nbody line\n\n"
                + "ben · comment · 2024-01-02\nfirst reply\n");
    assertEquals("body line", issue.body());
    assertEquals(1, issue.comments().size());
    assertEquals("first reply", issue.comments().get(0).body());
    assertEquals("ben", issue.comments().get(0).author());
  }
}
