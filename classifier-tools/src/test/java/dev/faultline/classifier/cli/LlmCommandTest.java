package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.Fixtures;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Batch API round trip (export, import, classify from the cache) and the published request
 * formats.
 */
class LlmCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Two items in the classify input format, written for this test. */
  private static final String HANG =
      "{\"url\":\"https://example.org/acme/trainer/issues/21\",\"repo\":\"acme/trainer\",\"number\":21,"
          + "\"title\":\"All ranks stop in all_reduce after step 300\",\"state\":\"open\",\"labels\":[],"
          + "\"text\":\"acme/trainer · issue #21 · open · Python\\n# All ranks stop in all_reduce after step 300\\n\\n"
          + "kim · description · 2024-05-02\\nWith 4 nodes the job stops making progress in all_reduce; nothing is"
          + " logged and GPU utilisation drops to zero.\"}";

  private static final String QUESTION =
      "{\"url\":\"https://example.org/acme/trainer/issues/22\",\"repo\":\"acme/trainer\",\"number\":22,"
          + "\"title\":\"How should I size gradient buckets?\",\"state\":\"open\",\"labels\":[],"
          + "\"text\":\"acme/trainer · issue #22 · open · Python\\n# How should I size gradient buckets?\\n\\n"
          + "lee · description · 2024-05-03\\nIs there a rule of thumb for a 16 GPU job?\"}";

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  private static Set<String> fields(JsonNode n) {
    Set<String> s = new TreeSet<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      s.add(it.next());
    }
    return s;
  }

  private static List<JsonNode> lines(Path f) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(f)) {
      out.add(JSON.readTree(l));
    }
    return out;
  }

  /** Checks a chat-completions request body against the published fields this tier sends. */
  private static void assertChatRequest(JsonNode body, String model) {
    assertEquals(
        Set.of("model", "messages", "response_format", "temperature"),
        fields(body),
        body.toString());
    assertEquals(model, body.get("model").asText());
    assertEquals(2, body.get("messages").size());
    for (JsonNode m : body.get("messages")) {
      assertEquals(Set.of("role", "content"), fields(m));
      assertTrue(m.get("content").isTextual());
    }
    assertEquals("system", body.at("/messages/0/role").asText());
    assertEquals("user", body.at("/messages/1/role").asText());
    JsonNode rf = body.get("response_format");
    assertEquals(Set.of("type", "json_schema"), fields(rf));
    assertEquals("json_schema", rf.get("type").asText());
    assertEquals(Set.of("name", "strict", "schema"), fields(rf.get("json_schema")));
    assertTrue(rf.at("/json_schema/strict").asBoolean());
    JsonNode schema = rf.at("/json_schema/schema");
    assertEquals("object", schema.get("type").asText());
    Taxonomy taxonomy = Taxonomy.load();
    List<String> symptoms = new ArrayList<>();
    schema.at("/properties/symptom/enum").forEach(n -> symptoms.add(n.asText()));
    assertEquals(taxonomy.dimension(Dimension.SYMPTOM).allSymbols(), symptoms);
    String system = body.at("/messages/0/content").asText();
    for (Dimension d :
        List.of(
            Dimension.KIND,
            Dimension.SYMPTOM,
            Dimension.ROOT_CAUSE,
            Dimension.FIX_PATTERN,
            Dimension.STAGE,
            Dimension.PHASE)) {
      for (String code : taxonomy.codes(d)) {
        assertTrue(system.contains(code), "the prompt lacks " + code);
      }
    }
  }

  private static String result(String customId, String content) throws Exception {
    ObjectNode o = JSON.createObjectNode();
    o.put("id", "batch_req_" + Math.abs(customId.hashCode()));
    o.put("custom_id", customId);
    ObjectNode resp = o.putObject("response");
    resp.put("status_code", 200);
    resp.put("request_id", "req_1");
    ObjectNode body = resp.putObject("body");
    body.put("object", "chat.completion");
    body.put("model", "gpt-test-2026");
    body.putArray("choices")
        .addObject()
        .put("index", 0)
        .put("finish_reason", "stop")
        .putObject("message")
        .put("role", "assistant")
        .put("content", content);
    body.putObject("usage").put("prompt_tokens", 1800).put("completion_tokens", 60);
    o.putNull("error");
    return o.toString();
  }

  @Test
  void exportWritesOneBatchApiLinePerItemWithThePublishedFields(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    Path batch = dir.resolve("batch.jsonl");
    Files.writeString(
        in, HANG + "\n" + QUESTION + "\n" + HANG.replace("issues/21", "issues/21?again") + "\n");
    int code =
        LlmCommand.run(
            new String[] {
              "export",
              "--input",
              in.toString(),
              "--output",
              batch.toString(),
              "--llm-model",
              "gpt-test"
            },
            Map.of(),
            out,
            err);
    assertEquals(0, code, err());
    List<JsonNode> lines = lines(batch);
    assertEquals(2, lines.size(), "repeated content is asked once: " + out());
    assertTrue(out().contains("1 repeated content"), out());
    for (JsonNode l : lines) {
      assertEquals(Set.of("custom_id", "method", "url", "body"), fields(l));
      assertEquals("POST", l.get("method").asText());
      assertEquals("/v1/chat/completions", l.get("url").asText());
      assertChatRequest(l.get("body"), "gpt-test");
    }
    assertTrue(
        lines
            .get(0)
            .get("custom_id")
            .asText()
            .startsWith("https://example.org/acme/trainer/issues/21#"));
    assertTrue(
        lines
            .get(1)
            .get("custom_id")
            .asText()
            .startsWith("https://example.org/acme/trainer/issues/22#"));
    assertTrue(lines.get(0).at("/body/messages/1/content").asText().contains("nothing is logged"));
  }

  @Test
  void importStoresEachAnswersIssueAndTheExportsModelAndPromptVersion(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    Path batch = dir.resolve("batch.jsonl");
    Files.writeString(
        in,
        HANG.replace(
                    "https://example.org/acme/trainer/issues/21",
                    "https://github.com/Acme/Trainer/issues/21")
                .replace("\"labels\":[]", "\"labels\":[],\"updated_at\":\"2025-05-20T08:00:00Z\"")
            + "\n"
            + QUESTION.replace(
                "https://example.org/acme/trainer/issues/22",
                "https://github.com/acme/trainer/pull/22")
            + "\n");
    String[] model = {"--llm-model", "gpt-test"};
    assertEquals(
        0,
        LlmCommand.run(
            concat(
                new String[] {
                  "export",
                  "--input",
                  in.toString(),
                  "--output",
                  batch.toString(),
                  "--as-of",
                  "2025-06-01T00:00:00Z"
                },
                model),
            Map.of(),
            out,
            err),
        err());
    List<JsonNode> requests = lines(batch);
    Path results = dir.resolve("results.jsonl");
    Files.writeString(
        results,
        result(requests.get(0).get("custom_id").asText(), Fixtures.HANG_ANSWER)
            + "\n"
            + result(requests.get(1).get("custom_id").asText(), Fixtures.QUESTION_ANSWER)
            + "\n");
    String[] keys = new String[2];
    for (int i = 0; i < 2; i++) {
      String id = requests.get(i).get("custom_id").asText();
      keys[i] = id.substring(id.lastIndexOf('#') + 1);
    }

    Path cache = dir.resolve("cache");
    outBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            concat(
                new String[] {
                  "import", "--results", results.toString(), "--cache", cache.toString()
                },
                model),
            Map.of(),
            out,
            err),
        err());
    assertTrue(out().contains("2 with their issue"), out());
    assertFalse(
        err().contains("another model"), "gpt-test-2026 is a snapshot of gpt-test: " + err());
    AnswerCache c = new AnswerCache(cache);
    String prompt = new Prompt(Taxonomy.load(), 0).version();
    AnswerCache.Entry hang = c.get(keys[0]).orElseThrow();
    assertEquals("acme/trainer#21", hang.item());
    assertEquals("gpt-test", hang.model(), "the model the key was made with");
    assertEquals(prompt, hang.promptVersion());
    assertEquals("acme/trainer#22", c.get(keys[1]).orElseThrow().item());
    assertEquals(
        java.time.Instant.parse("2025-05-20T08:00:00Z"),
        hang.asOf(),
        "the state exported: the record's updated_at");
    assertEquals(
        java.time.Instant.parse("2025-06-01T00:00:00Z"),
        c.get(keys[1]).orElseThrow().asOf(),
        "a record without updated_at: the export's --as-of");
    assertFalse(err().contains("not the time of the state"), err());

    // Without the export's settings: its custom_id names the model and prompt version.
    Path bare = dir.resolve("bare");
    errBytes.reset();
    outBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {"import", "--results", results.toString(), "--cache", bare.toString()},
            Map.of(),
            out,
            err));
    AnswerCache.Entry named = new AnswerCache(bare).get(keys[0]).orElseThrow();
    assertEquals("acme/trainer#21", named.item());
    assertEquals("gpt-test", named.model(), "the export's model, from the custom_id");
    assertEquals(prompt, named.promptVersion(), "the export's prompt version, from the custom_id");
    assertFalse(err().contains("no model named"), err());
    assertTrue(out().contains("as the export wrote them"), out());

    // An older export's custom_id (<url>#<key>) without flags: the issue, but no prompt version.
    Path old = dir.resolve("old");
    Path oldResults = dir.resolve("old-results.jsonl");
    String oldId = "https://github.com/Acme/Trainer/issues/21#" + keys[0];
    Files.writeString(oldResults, result(oldId, Fixtures.HANG_ANSWER) + "\n");
    errBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {"import", "--results", oldResults.toString(), "--cache", old.toString()},
            Map.of(),
            out,
            err));
    AnswerCache.Entry unnamed = new AnswerCache(old).get(keys[0]).orElseThrow();
    assertEquals("acme/trainer#21", unnamed.item());
    assertEquals("", unnamed.promptVersion());
    assertEquals("gpt-test-2026", unnamed.model(), "the model the provider reports");
    assertTrue(err().contains("no model named"), err());

    // An export that wrote no as-of (<url>#<model>#<prompt version>#<key>): none is stored.
    Path noTime = dir.resolve("no-time");
    Path noTimeResults = dir.resolve("no-time-results.jsonl");
    Files.writeString(
        noTimeResults,
        result(
                "https://github.com/Acme/Trainer/issues/21#gpt-test#" + prompt + "#" + keys[0],
                Fixtures.HANG_ANSWER)
            + "\n");
    errBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {
              "import", "--results", noTimeResults.toString(), "--cache", noTime.toString()
            },
            Map.of(),
            out,
            err));
    AnswerCache.Entry untimed = new AnswerCache(noTime).get(keys[0]).orElseThrow();
    assertEquals("gpt-test", untimed.model());
    assertEquals(prompt, untimed.promptVersion());
    assertEquals(null, untimed.asOf());
    assertTrue(err().contains("not the time of the state they answer"), err());
  }

  /** An answer of {@link Fixtures#HANG_ANSWER}'s labels with a {@code versions} field. */
  private static String hangWithVersions(String versions) {
    return Fixtures.HANG_ANSWER.replace("}", ",\"versions\":" + versions + "}");
  }

  @Test
  void importKeepsTheLabelsOfAnswersWhoseVersionsAreHashesRangesOrProductNames(@TempDir Path dir)
      throws Exception {
    String prompt = new Prompt(Taxonomy.load(), 0).version();
    String[] versions = {
      "[{\"component\":\"megatron-lm\",\"version\":\"cafda95\"},"
          + "{\"component\":\"torch\",\"version\":\"2.3.0\"}]",
      "[{\"component\":\"megatron-core\",\"version\":\"core-0.12/core-0.11\"}]",
      "[{\"component\":\"ngc docker\",\"version\":\"24.01\"},"
          + "{\"component\":\"deepspeed\",\"version\":\"v0.14.2\"}]"
    };
    StringBuilder results = new StringBuilder();
    String[] keys = new String[versions.length];
    for (int n = 0; n < versions.length; n++) {
      keys[n] = AnswerCache.key(prompt, "gpt-test", "item " + n);
      String id = "https://github.com/acme/trainer/issues/" + (30 + n) + "#gpt-test#" + prompt;
      results.append(result(id + "#" + keys[n], hangWithVersions(versions[n]))).append('\n');
    }
    Path file = dir.resolve("results.jsonl");
    Files.writeString(file, results);
    Path cache = dir.resolve("cache");
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {"import", "--results", file.toString(), "--cache", cache.toString()},
            Map.of(),
            out,
            err),
        err());
    assertTrue(out().contains("3 answers accepted"), out());
    assertTrue(out().contains("0 rejected"), out());
    assertTrue(
        out().contains("versions: 1 kept as written, 2 normalised, 2 dropped"), out() + err());
    assertTrue(err().contains("'cafda95' dropped: a commit hash"), err());
    assertTrue(err().contains("'ngc docker' is not a component key"), err());
    AnswerCache c = new AnswerCache(cache);
    JsonNode labels = JSON.readTree(Fixtures.HANG_ANSWER);
    List<Map<String, String>> stored = new ArrayList<>();
    for (String key : keys) {
      JsonNode answer = JSON.readTree(c.get(key).orElseThrow().answer());
      for (Iterator<String> it = labels.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        assertEquals(labels.get(f), answer.get(f), key + " keeps its " + f);
      }
      Map<String, String> v = new java.util.LinkedHashMap<>();
      answer
          .get("versions")
          .forEach(e -> v.put(e.get("component").asText(), e.get("version").asText()));
      stored.add(v);
    }
    assertEquals(
        List.of(
            Map.of("torch", "2.3.0"),
            Map.of("megatron-core", "0.12/0.11"),
            Map.of("deepspeed", "0.14.2")),
        stored);
  }

  private static String[] concat(String[] a, String[] b) {
    String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void importedAnswersBecomeExactlyTheLabelsAndBrokenOnesFallBackWithAReason(@TempDir Path dir)
      throws Exception {
    Path in = dir.resolve("in.jsonl");
    Path batch = dir.resolve("batch.jsonl");
    Path cache = dir.resolve("cache");
    Files.writeString(in, HANG + "\n" + QUESTION + "\n");
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {
              "export",
              "--input",
              in.toString(),
              "--output",
              batch.toString(),
              "--llm-model",
              "gpt-test",
              "--cache",
              cache.toString()
            },
            Map.of(),
            out,
            err),
        err());
    List<JsonNode> requests = lines(batch);
    String hangId = requests.get(0).get("custom_id").asText();
    String questionId = requests.get(1).get("custom_id").asText();

    Path results = dir.resolve("results.jsonl");
    String errorLine =
        "{\"id\":\"batch_req_9\",\"custom_id\":\""
            + questionId
            + "\",\"response\":null,"
            + "\"error\":{\"code\":\"batch_expired\",\"message\":\"This request could not be executed before the"
            + " completion window expired.\"}}";
    String status500 =
        "{\"id\":\"batch_req_8\",\"custom_id\":\""
            + questionId
            + "\",\"response\":{\"status_code\":500,"
            + "\"request_id\":\"r\",\"body\":{\"error\":{\"message\":\"server error\"}}},\"error\":null}";
    Files.writeString(
        results,
        String.join(
                "\n",
                result(hangId, Fixtures.HANG_ANSWER),
                result(questionId, Fixtures.QUESTION_ANSWER.replace("\"QUESTION\"", "\"INQUIRY\"")),
                result(questionId, "I think this is a question."),
                result(questionId, Fixtures.QUESTION_ANSWER.replace(",\"stage\":\"UNKNOWN\"", "")),
                errorLine,
                status500,
                result("https://example.org/acme/trainer/issues/22", Fixtures.QUESTION_ANSWER),
                "not json at all")
            + "\n");
    outBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {"import", "--results", results.toString(), "--cache", cache.toString()},
            Map.of(),
            out,
            err),
        err());
    assertTrue(out().contains("1 answers accepted"), out());
    assertTrue(out().contains("7 rejected"), out());
    for (String reason :
        List.of(
            "unknown kind code",
            "unparsable JSON",
            "missing field 'stage'",
            "error batch_expired",
            "response status 500: server error",
            "does not end with #<cache key>",
            "line is not JSON")) {
      assertTrue(out().contains(reason), "no '" + reason + "' in\n" + out());
    }

    Path pred = dir.resolve("pred.jsonl");
    assertEquals(
        0,
        ClassifyCommand.run(
            new String[] {
              "--input",
              in.toString(),
              "--output",
              pred.toString(),
              "--tier",
              "llm",
              "--llm-cache",
              cache.toString(),
              "--llm-model",
              "gpt-test"
            },
            out,
            err),
        err());
    List<JsonNode> p = lines(pred);
    JsonNode answer = JSON.readTree(Fixtures.HANG_ANSWER);
    for (Iterator<String> it = answer.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      assertEquals(answer.get(f), p.get(0).get(f), f);
    }
    assertEquals("llm:gpt-test", p.get(0).get("source").asText());
    assertFalse(p.get(0).has("fallback_reason"));
    assertTrue(
        p.get(0)
            .at("/evidence/symptom")
            .asText()
            .startsWith(
                "llm:gpt-test prompt " + dev.faultline.classifier.llm.Prompt.PROMPT_VERSION + "."));
    assertEquals("fallback", p.get(1).get("source").asText());
    assertTrue(
        p.get(1).get("fallback_reason").asText().startsWith("no cached answer"),
        p.get(1).toString());
    assertTrue(p.get(1).at("/evidence/kind").asText().startsWith("fallback: no cached answer"));

    outBytes.reset();
    assertEquals(
        0,
        LlmCommand.run(
            new String[] {
              "export",
              "--input",
              in.toString(),
              "--output",
              batch.toString(),
              "--llm-model",
              "gpt-test",
              "--cache",
              cache.toString()
            },
            Map.of(),
            out,
            err),
        err());
    assertEquals(1, lines(batch).size(), "the answered item is not exported again");
    assertTrue(out().contains("1 already cached"), out());
  }

  @Test
  void classifyAsksTheEndpointWithTheSameRequestAndEvalReportsCostPerThousand(@TempDir Path dir)
      throws Exception {
    try (StubChatServer stub = new StubChatServer()) {
      stub.otherwise(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
      Path props = dir.resolve("llm.properties");
      Files.writeString(
          props,
          String.join(
                  "\n",
                  "FAULTLINE_LLM_ENDPOINT=" + stub.endpoint(),
                  "FAULTLINE_LLM_MODEL=stub-model",
                  "FAULTLINE_LLM_PRICE_INPUT_PER_1K=0.001",
                  "FAULTLINE_LLM_PRICE_OUTPUT_PER_1K=0.002",
                  "FAULTLINE_LLM_CONCURRENCY=2")
              + "\n");
      Path in = dir.resolve("in.jsonl");
      Path batch = dir.resolve("batch.jsonl");
      Files.writeString(in, HANG + "\n" + QUESTION + "\n");
      Path pred = dir.resolve("pred.jsonl");
      Path cache = dir.resolve("cache");
      assertEquals(
          0,
          ClassifyCommand.run(
              new String[] {
                "--input",
                in.toString(),
                "--output",
                pred.toString(),
                "--tier",
                "llm",
                "--llm-config",
                props.toString(),
                "--llm-cache",
                cache.toString()
              },
              out,
              err),
          err());
      assertEquals(2, stub.requests().size());
      for (StubChatServer.Recorded r : stub.requests()) {
        assertChatRequest(r.body(), "stub-model");
      }
      List<JsonNode> p = lines(pred);
      assertEquals(
          List.of(
              "https://example.org/acme/trainer/issues/21",
              "https://example.org/acme/trainer/issues/22"),
          p.stream().map(n -> n.get("url").asText()).toList(),
          "input order kept");
      assertEquals("HANG", p.get(1).get("symptom").asText());

      assertEquals(
          0,
          LlmCommand.run(
              new String[] {
                "export",
                "--input",
                in.toString(),
                "--output",
                batch.toString(),
                "--llm-config",
                props.toString()
              },
              Map.of(),
              out,
              err),
          err());
      List<JsonNode> exported = lines(batch);
      assertEquals(2, exported.size(), "without --cache every item is exported");
      for (JsonNode line : exported) {
        String user = line.at("/body/messages/1/content").asText();
        JsonNode sent =
            stub.requests().stream()
                .map(StubChatServer.Recorded::body)
                .filter(b -> b.at("/messages/1/content").asText().equals(user))
                .findFirst()
                .orElseThrow();
        assertEquals(
            sent, line.get("body"), "a Batch API line carries the very request the endpoint gets");
      }

      Path gold = dir.resolve("gold.jsonl");
      Files.writeString(
          gold,
          HANG.substring(0, HANG.length() - 1)
              + ",\"gold\":"
              + Fixtures.HANG_ANSWER.replace("}", ",\"framework\":null,\"versions\":{}}")
              + "}\n");
      outBytes.reset();
      assertEquals(
          0,
          EvalCommand.run(
              new String[] {
                "--gold",
                gold.toString(),
                "--tier",
                "llm",
                "--resamples",
                "0",
                "--llm-config",
                props.toString(),
                "--llm-cache",
                cache.toString()
              },
              out,
              err),
          err());
      assertEquals(2, stub.requests().size(), "eval found the answer in the cache");
      String report = out();
      assertTrue(report.contains("1 answered by the model (1 from the cache)"), report);
      assertTrue(report.contains("per 1,000 items"), report);
      assertTrue(report.contains("symptom"), report);
    }
  }

  @Test
  void usageErrorsExitWithTwoAndHelpWithZero(@TempDir Path dir) {
    assertEquals(2, LlmCommand.run(new String[0], Map.of(), out, err));
    assertEquals(2, LlmCommand.run(new String[] {"frobnicate"}, Map.of(), out, err));
    assertEquals(
        2, LlmCommand.run(new String[] {"export", "--input", "x.jsonl"}, Map.of(), out, err));
    assertEquals(
        2,
        LlmCommand.run(
            new String[] {"export", "--input", "x", "--output", "y"}, Map.of(), out, err),
        "no model named");
    assertTrue(err().contains("--llm-model"), err());
    assertEquals(
        2, LlmCommand.run(new String[] {"import", "--results", "r.jsonl"}, Map.of(), out, err));
    assertEquals(
        2,
        LlmCommand.run(
            new String[] {"import", "--results", "r", "--cache", "c", "--bogus"},
            Map.of(),
            out,
            err));
    assertEquals(
        2,
        LlmCommand.run(
            new String[] {"export", "--input", "x", "--output", "y", "--llm-model", "m"},
            Map.of("FAULTLINE_LLM_TIMEOUT_MS", "soon"),
            out,
            err),
        "a bad setting is a usage error");
    assertTrue(err().contains("FAULTLINE_LLM_TIMEOUT_MS must be a whole number"), err());
    assertEquals(0, LlmCommand.run(new String[] {"--help"}, Map.of(), out, err));
    assertEquals(0, LlmCommand.run(new String[] {"import", "--help"}, Map.of(), out, err));
    assertTrue(
        out().contains("Usage: llm [-h] [COMMAND]") && out().contains("Usage: llm import"), out());
    assertEquals(
        2,
        ClassifyCommand.run(
            new String[] {
              "--input",
              "a",
              "--output",
              "b",
              "--tier",
              "llm",
              "--llm-config",
              dir.resolve("missing.properties").toString()
            },
            out,
            err));
  }
}
