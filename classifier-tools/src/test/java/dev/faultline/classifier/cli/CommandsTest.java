package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.batch.ThreadText;
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
  void classifyWritesOneOutputLinePerInputWithEveryCodebookField(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    Path outFile = dir.resolve("out.jsonl");
    Files.writeString(in, ISSUE + "}\n" + PR + "}\n");
    int code =
        ClassifyCommand.run(
            new String[] {"--input", in.toString(), "--output", outFile.toString()}, out, err);
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
    String text = errBytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        text.contains("Missing required options: '--input=IN.jsonl', '--output=OUT.jsonl'"), text);
    assertTrue(text.contains("Usage: classify"), text);
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    assertEquals(0, ClassifyCommand.run(new String[] {"--help"}, out, err));
    assertEquals(0, EvalCommand.run(new String[] {"--help"}, out, err));
    String text = outBytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("Usage: classify") && text.contains("Usage: eval"), text);
    assertTrue(
        text.contains("Default: learned") && text.contains("Default: 2000"),
        "defaults shown: " + text);
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
    int code =
        EvalCommand.run(new String[] {"--gold", gold.toString(), "--errors", "symptom"}, out, err);
    assertEquals(0, code, errBytes.toString(StandardCharsets.UTF_8));
    String report = outBytes.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains("macro-F1"), report);
    // The row's figures are computed from the one record (n 1, accuracy and macro-F1 1.000), not
    // the targets beside
    // them (a constant of the command).
    assertTrue(
        java.util.regex.Pattern.compile("(?m)^symptom\\s+1\\s+1\\.000\\s+1\\.000\\s")
            .matcher(report)
            .find(),
        report);
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

  @Test
  void bootstrapIntervalsAreDegenerateForPerfectAgreementAndSpanThePointOtherwise() {
    Agreement perfect = new Agreement();
    Agreement mixed = new Agreement();
    for (int i = 0; i < 60; i++) {
      String g = i % 3 == 0 ? "A" : i % 3 == 1 ? "B" : "C";
      perfect.add(g, g);
      mixed.add(g, i % 5 == 0 ? "A" : g);
    }
    double[][] p = EvalCommand.bootstrap(perfect, 200, new java.util.SplittableRandom(1));
    assertEquals(1.0, p[0][0], 1e-9);
    assertEquals(1.0, p[1][1], 1e-9);
    double[][] m = EvalCommand.bootstrap(mixed, 500, new java.util.SplittableRandom(1));
    assertTrue(
        m[0][0] < mixed.macroF1() && mixed.macroF1() < m[0][1], java.util.Arrays.toString(m[0]));
    assertTrue(m[1][0] < mixed.kappa() && mixed.kappa() < m[1][1], java.util.Arrays.toString(m[1]));
  }

  @Test
  void evalHalvesSplitTheGoldFileByUrlAndRejectAnUnknownHalf(@TempDir Path dir) throws Exception {
    String gold =
        ",\"gold\":{\"kind\":\"BUG\",\"symptom\":\"OUT_OF_MEMORY\",\"root_cause\":\"UNKNOWN\","
            + "\"fix_pattern\":\"UNKNOWN\",\"stage\":\"MEMORY\",\"phase\":\"TRAINING\","
            + "\"distributed_specific\":null,\"framework\":\"Colossal-AI\",\"versions\":{}}}";
    StringBuilder lines = new StringBuilder();
    int inA = 0;
    for (int i = 1; i <= 9; i++) {
      String url = "https://example.org/acme/issues/" + i;
      inA += EvalCommand.inHalf(url) == 'a' ? 1 : 0;
      lines
          .append(ISSUE.replace("https://example.org/acme/issues/1", url))
          .append(gold)
          .append('\n');
    }
    assertTrue(inA > 0 && inA < 9, "the fixture needs records in both halves: " + inA);
    Path file = dir.resolve("gold.jsonl");
    Files.writeString(file, lines.toString());
    assertEquals(
        0, EvalCommand.run(new String[] {"--gold", file.toString(), "--half", "a"}, out, err));
    assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains(inA + " gold records (half a)"));
    outBytes.reset();
    assertEquals(
        0,
        EvalCommand.run(
            new String[] {"--gold", file.toString(), "--half", "B", "--resamples", "0"}, out, err));
    String b = outBytes.toString(StandardCharsets.UTF_8);
    assertTrue(b.contains((9 - inA) + " gold records (half b)"), b);
    assertTrue(!b.contains("95% interval"), "no intervals without resamples: " + b);
    assertEquals(
        2, EvalCommand.run(new String[] {"--gold", file.toString(), "--half", "c"}, out, err));
    assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("--half must be a or b"));
  }
}
