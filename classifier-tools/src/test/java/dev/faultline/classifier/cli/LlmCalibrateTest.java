package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llm calibrate} on a labelled file answered by a synthetic "model": the answers are the
 * gold labels with errors injected on purpose (no capable language model runs on this machine), so
 * the confusion it must find is known by hand.
 */
class LlmCalibrateTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MODEL = "synthetic-model";

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  /** A labelled record written for this test (gold under the codebook). */
  private static String labelled(int n, String title, String kind, String symptom) {
    ObjectNode o = JSON.createObjectNode();
    o.put("url", "https://github.com/acme/trainer/issues/" + n);
    o.put("repo", "acme/trainer");
    o.put("number", n);
    o.put("title", title);
    o.put("state", "open");
    o.putArray("labels");
    o.put(
        "text",
        "acme/trainer · issue #"
            + n
            + " · open · Python\n# "
            + title
            + "\n\nkim · description · 2024-05-02\n"
            + title
            + ", seen on 4 nodes.");
    ObjectNode g = o.putObject("gold");
    boolean bug = kind.equals("BUG");
    g.put("kind", kind);
    g.put("symptom", symptom);
    g.put("root_cause", "UNKNOWN");
    g.put("fix_pattern", "UNKNOWN");
    g.put("stage", bug ? "COMMUNICATION" : "INITIALIZATION");
    g.put("phase", "TRAINING");
    if (bug) {
      g.put("distributed_specific", true);
    } else {
      g.putNull("distributed_specific");
    }
    g.put("framework", "trainer");
    g.putObject("versions");
    return o.toString();
  }

  private static String answer(String kind, String symptom) {
    ObjectNode o = JSON.createObjectNode();
    boolean bug = kind.equals("BUG");
    o.put("kind", kind);
    o.put("symptom", symptom);
    o.put("root_cause", "UNKNOWN");
    o.put("fix_pattern", "UNKNOWN");
    o.put("stage", bug ? "COMMUNICATION" : "INITIALIZATION");
    o.put("phase", "TRAINING");
    if (bug) {
      o.put("distributed_specific", true);
    } else {
      o.putNull("distributed_specific");
    }
    return o.toString();
  }

  private static String result(String customId, String content) {
    ObjectNode o = JSON.createObjectNode();
    o.put("custom_id", customId);
    ObjectNode resp = o.putObject("response");
    resp.put("status_code", 200);
    ObjectNode body = resp.putObject("body");
    body.put("model", MODEL);
    body.putArray("choices").addObject().putObject("message").put("content", content);
    o.putNull("error");
    return o.toString();
  }

  @Test
  void fitsTheInjectedErrorsStoresThemAndClassifyMapsEachAnswerThroughItsRow(@TempDir Path dir)
      throws Exception {
    Path gold = dir.resolve("labelled.jsonl");
    Files.writeString(
        gold,
        String.join(
                "\n",
                labelled(1, "Training stops in all_reduce after step 300", "BUG", "HANG"),
                labelled(2, "Barrier never returns on rank 3", "BUG", "HANG"),
                labelled(
                    3,
                    "NCCL error unhandled system error in all_gather",
                    "BUG",
                    "COMMUNICATION_FAILURE"),
                labelled(4, "KeyError while building the engine", "BUG", "RUNTIME_CRASH"),
                labelled(5, "How do I size gradient buckets?", "QUESTION", "NONE"),
                labelled(6, "Which launcher flag pins a process to a socket?", "QUESTION", "NONE"))
            + "\n");
    Path batch = dir.resolve("batch.jsonl");
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {
              "export",
              "--input",
              gold.toString(),
              "--output",
              batch.toString(),
              "--llm-model",
              MODEL
            },
            Map.of(),
            out,
            err),
        errBytes.toString());
    List<String> ids = new ArrayList<>();
    for (String l : Files.readAllLines(batch)) {
      ids.add(JSON.readTree(l).get("custom_id").asText());
    }
    // The synthetic model: right on 1, 2, 4, 5; item 3 answered HANG (truth COMMUNICATION_FAILURE),
    // item 6 answered BUG/HANG (truth QUESTION/NONE).
    String[] answers = {
      answer("BUG", "HANG"),
      answer("BUG", "HANG"),
      answer("BUG", "HANG"),
      answer("BUG", "RUNTIME_CRASH"),
      answer("QUESTION", "NONE"),
      answer("BUG", "HANG")
    };
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      lines.add(result(ids.get(i), answers[i]));
    }
    lines.add(result(ids.get(0), "not an answer")); // skipped, the valid one stays
    lines.add(
        result(
            "https://github.com/acme/trainer/issues/99#" + MODEL + "#p#" + "0".repeat(64),
            answer("BUG", "HANG")));
    Path results = dir.resolve("results.jsonl");
    Files.writeString(results, String.join("\n", lines) + "\n");
    Path cache = dir.resolve("cache");

    assertEquals(
        0,
        LlmCommand.run(
            new String[] {
              "calibrate",
              "--gold",
              gold.toString(),
              "--results",
              results.toString(),
              "--cache",
              cache.toString()
            },
            Map.of(),
            out,
            err),
        errBytes.toString());
    String printed = outBytes.toString(StandardCharsets.UTF_8);
    String prompt = ids.get(0).split("#")[2];
    assertTrue(printed.contains("model " + MODEL + ", prompt " + prompt), printed);
    assertTrue(printed.contains("6 labelled items answered, of 6"), printed);
    // kind: BUG answered 5 times, 4 right: (4 + 2 * 0.9) / 7 = 0.83; QUESTION once, right:
    // (1 + 1.8) / 3 = 0.93; accuracy 5 / 6
    assertTrue(printed.contains("BUG 0.83 (5), QUESTION 0.93 (1)"), printed);
    assertTrue(printed.matches("(?s).*kind\\s+6\\s+0\\.833.*"), printed);
    // symptom: HANG answered 4 times, 2 right: (2 + 1.8) / 6 = 0.63; accuracy 4 / 6
    assertTrue(printed.contains("HANG 0.63 (4)"), printed);
    assertTrue(printed.matches("(?s).*symptom\\s+6\\s+0\\.667.*"), printed);
    assertTrue(errBytes.toString().contains("1 lines of"), errBytes.toString());

    LlmCalibration stored = new AnswerCache(cache).calibration(MODEL, prompt).orElseThrow();
    assertEquals(3.8 / 6, stored.row(Dimension.SYMPTOM, "HANG").get("HANG"), 1e-12);
    // item 6's NONE: (1 + 2 * 0.1 * mix(NONE) / (1 - mix(HANG))) / 6
    Map<String, Double> mix = dev.faultline.classifier.Distributions.prior(Dimension.SYMPTOM);
    assertEquals(
        (1 + 0.2 * mix.get("NONE") / (1 - mix.get("HANG"))) / 6,
        stored.row(Dimension.SYMPTOM, "HANG").get("NONE"),
        1e-12);

    // The same answers imported into the cache: classify --tier llm gives each its row.
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {"import", "--results", results.toString(), "--cache", cache.toString()},
            Map.of(),
            out,
            err));
    Path pred = dir.resolve("pred.jsonl");
    assertEquals(
        0,
        ClassifyCommand.run(
            new String[] {
              "--input",
              gold.toString(),
              "--output",
              pred.toString(),
              "--tier",
              "llm",
              "--llm-cache",
              cache.toString(),
              "--llm-model",
              MODEL
            },
            out,
            err),
        errBytes.toString());
    JsonNode first = JSON.readTree(Files.readAllLines(pred).get(0));
    assertEquals("HANG", first.get("symptom").asText());
    assertEquals(0.6333, first.at("/probabilities/symptom/HANG").asDouble(), 1e-9);
    assertEquals(0.633, first.at("/confidence/symptom").asDouble(), 1e-9);
    assertEquals("confusion:" + MODEL + "/" + prompt, first.at("/calibration/symptom").asText());
    assertEquals("confusion:" + MODEL + "/" + prompt, first.at("/calibration/kind").asText());
  }

  @Test
  void sayWhatItNeedsWhenNoLabelledItemWasAnswered(@TempDir Path dir) throws Exception {
    Path gold = dir.resolve("labelled.jsonl");
    Files.writeString(gold, labelled(1, "Barrier never returns", "BUG", "HANG") + "\n");
    assertEquals(
        1,
        LlmCommand.run(
            new String[] {
              "calibrate", "--gold", gold.toString(), "--cache", dir.resolve("c").toString()
            },
            Map.of(),
            out,
            err));
    assertTrue(errBytes.toString().contains("no answer to any item"), errBytes.toString());
    assertTrue(errBytes.toString().contains("--llm-model"), errBytes.toString());
    assertEquals(
        2,
        LlmCommand.run(
            new String[] {
              "calibrate",
              "--gold",
              gold.toString(),
              "--cache",
              dir.toString(),
              "--prior-strength",
              "0"
            },
            Map.of(),
            out,
            err));
  }
}
