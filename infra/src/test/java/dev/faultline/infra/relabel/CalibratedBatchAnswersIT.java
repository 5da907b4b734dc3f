package dev.faultline.infra.relabel;

import static dev.faultline.infra.relabel.RelabelFixtures.cli;
import static dev.faultline.infra.relabel.RelabelFixtures.count;
import static dev.faultline.infra.relabel.RelabelFixtures.delivery;
import static dev.faultline.infra.relabel.ScopedHistory.concat;
import static dev.faultline.infra.relabel.ScopedHistory.liveJob;
import static dev.faultline.infra.relabel.ScopedHistory.producer;
import static dev.faultline.infra.relabel.ScopedHistory.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * A calibrated model's batch answers reach the graph with their confusion rows, on real parts
 * (in-process Kafka and Neo4j, Flink mini clusters): a labelled set of eight items written for this
 * test is "answered" by a synthetic model (the gold labels with errors injected on purpose: no
 * capable language model runs on this machine), {@code llm calibrate} fits its confusion, the
 * answers for three delivered issues are imported and pushed with the calibration, and {@code
 * faultline reclassify} with the language-model tier writes, for every label, the row P(true |
 * answered) computed here by hand from the injected errors and the marker {@code
 * confusion:<model>/<prompt>} ({@code human} for a person's phase).
 */
class CalibratedBatchAnswersIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "calibrated-it-pw";
  private static final String REPO = "Acme-Labs/Trainer";
  private static final String MODEL = "calibrated-model";
  private static final double EPSILON = 0.1; // FAULTLINE_LLM_CONFIDENCE's default 0.9
  private static final double STRENGTH = 2.0; // llm calibrate's default

  /** Codes of an answer or a gold record: kind, symptom, stage (the rest follows the kind). */
  private record Codes(String kind, String symptom, String stage) {}

  /**
   * The labelled set: gold, then the synthetic model's answer. Injected errors: L4's symptom (HANG
   * answered CHECKPOINT_FAILURE), L6's symptom (COMMUNICATION_FAILURE answered RUNTIME_CRASH), L7's
   * stage (INITIALIZATION answered UNKNOWN), L8 entirely (a bug answered as a question).
   */
  private static final List<Codes[]> LABELLED =
      List.of(
          pair(
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE",
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE"),
          pair(
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE",
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE"),
          pair(
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE",
              "BUG",
              "CHECKPOINT_FAILURE",
              "FAULT_TOLERANCE"),
          pair("BUG", "HANG", "FAULT_TOLERANCE", "BUG", "CHECKPOINT_FAILURE", "FAULT_TOLERANCE"),
          pair("BUG", "RUNTIME_CRASH", "COMMUNICATION", "BUG", "RUNTIME_CRASH", "COMMUNICATION"),
          pair(
              "BUG",
              "COMMUNICATION_FAILURE",
              "COMMUNICATION",
              "BUG",
              "RUNTIME_CRASH",
              "COMMUNICATION"),
          pair("QUESTION", "NONE", "INITIALIZATION", "QUESTION", "NONE", "UNKNOWN"),
          pair("BUG", "RUNTIME_CRASH", "MEMORY", "QUESTION", "NONE", "UNKNOWN"));

  /** The answers for the delivered issues 1 to 3. */
  private static final Map<Integer, Codes> ANSWERS =
      Map.of(
          1, new Codes("BUG", "CHECKPOINT_FAILURE", "FAULT_TOLERANCE"),
          2, new Codes("QUESTION", "NONE", "UNKNOWN"),
          3, new Codes("BUG", "RUNTIME_CRASH", "COMMUNICATION"));

  private static Codes[] pair(String... s) {
    return new Codes[] {new Codes(s[0], s[1], s[2]), new Codes(s[3], s[4], s[5])};
  }

  private static ObjectNode codes(Codes c) {
    boolean bug = c.kind().equals("BUG");
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", c.kind());
    o.put("symptom", c.symptom());
    o.put("root_cause", "UNKNOWN");
    o.put("fix_pattern", "UNKNOWN");
    o.put("stage", c.stage());
    o.put("phase", "TRAINING");
    if (bug) {
      o.put("distributed_specific", true);
    } else {
      o.putNull("distributed_specific");
    }
    return o;
  }

  /** P(true = c | answered a) by hand: (count + strength * prior(c)) / (answers + strength). */
  private static double row(
      Dimension d, String answered, String truth, List<String> truthsOfTheAnswer) {
    Map<String, Double> mix = Distributions.prior(d);
    double prior =
        truth.equals(answered) ? 1 - EPSILON : EPSILON * mix.get(truth) / (1 - mix.get(answered));
    long n = truthsOfTheAnswer.stream().filter(truth::equals).count();
    return (n + STRENGTH * prior) / (truthsOfTheAnswer.size() + STRENGTH);
  }

  /** The gold codes of the labelled items the model answered {@code answered} in {@code field}. */
  private static List<String> truths(
      java.util.function.Function<Codes, String> field, String answered) {
    List<String> out = new ArrayList<>();
    for (Codes[] p : LABELLED) {
      if (field.apply(p[1]).equals(answered)) {
        out.add(field.apply(p[0]));
      }
    }
    return out;
  }

  @Test
  void aCalibratedModelsBatchAnswersLandWithTheirConfusionRowsAndMarkers(@TempDir Path tmp)
      throws Exception {
    System.setProperty("faultline.classifier.tier", "rules"); // the offline tier, quickly
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
      kafka.createTopics(
          2,
          Arrays.stream(Topic.values())
              .filter(t -> t != Topic.LLM_ANSWERS)
              .map(Topic::topicName)
              .toList());
      new GraphSchema(driver, "neo4j").migrate();
      String[] conn =
          ScopedHistory.conn(
              kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);
      JobClient live = liveJob(conn, ClassifierTier.LEARNED);
      for (int n = 1; n <= 3; n++) {
        send(producer, opened(n));
      }
      Poll.until(
          Duration.ofMinutes(4),
          "three issues labelled offline",
          () -> count(driver, "MATCH (i:Issue) WHERE i.labelSource IN ['rules', 'model']") == 3);
      live.cancel().get();

      // 1. The synthetic model's answers to the labelled set; llm calibrate fits its confusion.
      String prompt = new Prompt(Taxonomy.load(), 0).version();
      Path gold = tmp.resolve("labelled.jsonl");
      Path labelledResults = tmp.resolve("labelled-results.jsonl");
      StringBuilder g = new StringBuilder();
      StringBuilder r = new StringBuilder();
      for (int i = 0; i < LABELLED.size(); i++) {
        String url = "https://github.com/acme-labs/labelled/issues/" + (i + 1);
        g.append(labelled(i + 1, url, LABELLED.get(i)[0])).append('\n');
        r.append(result(url, prompt, "labelled " + i, codes(LABELLED.get(i)[1]).toString()));
      }
      Files.writeString(gold, g);
      Files.writeString(labelledResults, r);
      Path cache = tmp.resolve("cache");
      Map<String, String> env = new HashMap<>();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(
          0,
          cli(
              env,
              out,
              "llm",
              "calibrate",
              "--gold",
              gold.toString(),
              "--results",
              labelledResults.toString(),
              "--cache",
              cache.toString()),
          out.toString());
      assertTrue(out.toString().contains("8 labelled items answered, of 8"), out.toString());

      // 2. The answers for the delivered issues, imported and pushed with the calibration.
      Path results = tmp.resolve("results.jsonl");
      StringBuilder lines = new StringBuilder();
      for (int n = 1; n <= 3; n++) {
        lines.append(
            result(
                "https://github.com/" + REPO + "/issues/" + n,
                prompt,
                "issue " + n + " as exported",
                codes(ANSWERS.get(n)).toString()));
      }
      Files.writeString(results, lines);
      assertEquals(
          0,
          cli(
              env,
              out,
              "llm",
              "import",
              "--results",
              results.toString(),
              "--cache",
              cache.toString()),
          out.toString());
      assertEquals(
          0,
          cli(env, out, "llm", "push", "--cache", cache.toString(), "--kafka-bootstrap", conn[1]),
          out.toString());
      assertTrue(out.toString().contains("1 calibrations: 1 sent"), out.toString());

      // 3. Reclassify with the language-model tier on (no endpoint request is needed).
      env.put("FAULTLINE_LLM_ENDPOINT", "http://127.0.0.1:9");
      env.put("FAULTLINE_LLM_MODEL", MODEL);
      env.put("FAULTLINE_LLM_MAX_RETRIES", "0");
      assertEquals(
          0,
          cli(
              env,
              out,
              concat(
                  new String[] {"reclassify", "--report-dir", tmp.resolve("r").toString()}, conn)),
          out.toString());
      Poll.until(
          Duration.ofMinutes(2),
          "every issue labelled by the model",
          () -> count(driver, "MATCH (i:Issue) WHERE i.labelSource = 'llm:" + MODEL + "'") == 3);

      String marker = "confusion:" + MODEL + "/" + prompt;
      for (int n = 1; n <= 3; n++) {
        Map<String, Object> issue = issue(driver, n);
        Codes a = ANSWERS.get(n);
        for (Dimension d : Dimension.values()) {
          String expected = n == 2 && d == Dimension.PHASE ? "human" : marker;
          assertEquals(expected, issue.get(d.calibrationProperty()), "#" + n + " " + d.key());
        }
        assertProbability(issue, Dimension.KIND, a.kind(), a.kind(), truths(Codes::kind, a.kind()));
        assertProbability(
            issue,
            Dimension.SYMPTOM,
            a.symptom(),
            a.symptom(),
            truths(Codes::symptom, a.symptom()));
        assertProbability(
            issue, Dimension.STAGE, a.stage(), a.stage(), truths(Codes::stage, a.stage()));
        assertEquals(
            row(Dimension.SYMPTOM, a.symptom(), a.symptom(), truths(Codes::symptom, a.symptom())),
            ((Number) issue.get(Dimension.SYMPTOM.confidenceProperty())).doubleValue(),
            1e-9,
            "#" + n + ": the confidence is the row's probability of the answer");
      }
      // the injected errors, cell by cell: CHECKPOINT_FAILURE was a HANG once in four
      assertProbability(
          issue(driver, 1),
          Dimension.SYMPTOM,
          "CHECKPOINT_FAILURE",
          "HANG",
          truths(Codes::symptom, "CHECKPOINT_FAILURE"));
      // a QUESTION was a bug once in two
      assertProbability(
          issue(driver, 2), Dimension.KIND, "QUESTION", "BUG", truths(Codes::kind, "QUESTION"));
      // a person's phase stays a point mass
      List<?> phase = (List<?>) issue(driver, 2).get(Dimension.PHASE.probabilitiesProperty());
      assertEquals(1.0, phase.get(Dimension.PHASE.distributionCodes().indexOf("INFERENCE")));
      Object edge =
          driver
              .session()
              .run(
                  "MATCH (i:Issue)-[e:HAS_SYMPTOM]->() WHERE toLower(i.id) = toLower($id)"
                      + " RETURN e.calibration AS c",
                  Map.of("id", REPO + "#1"))
              .single()
              .get("c")
              .asString();
      assertEquals(marker, edge, "the edge carries the marker too");
    } finally {
      System.clearProperty("faultline.classifier.tier");
    }
  }

  private static void assertProbability(
      Map<String, Object> issue, Dimension d, String answered, String truth, List<String> truths) {
    List<?> p = (List<?>) issue.get(d.probabilitiesProperty());
    double expected = Math.round(row(d, answered, truth, truths) * 10_000) / 10_000.0;
    assertEquals(
        expected,
        ((Number) p.get(d.distributionCodes().indexOf(truth))).doubleValue(),
        1e-9,
        issue.get("id") + " " + d.key() + " P(" + truth + " | " + answered + ")");
  }

  private static Map<String, Object> issue(Driver driver, int n) {
    return driver
        .session()
        .run(
            "MATCH (i:Issue) WHERE toLower(i.id) = toLower($id) RETURN properties(i) AS p",
            Map.of("id", REPO + "#" + n))
        .single()
        .get("p")
        .asMap();
  }

  /** A labelled record written for this test. */
  private static String labelled(int n, String url, Codes gold) {
    ObjectNode o = JSON.createObjectNode();
    o.put("url", url);
    o.put("repo", "acme-labs/labelled");
    o.put("number", n);
    o.put("title", "Labelled item " + n);
    o.put("state", "closed");
    o.putArray("labels");
    o.put("text", "acme-labs/labelled · issue #" + n + " · closed · Python\n# Labelled item " + n);
    ObjectNode g = codes(gold);
    g.put("framework", "labelled");
    g.putObject("versions");
    o.set("gold", g);
    return o.toString();
  }

  /** A Batch API output line, as llm export's custom_id names it. */
  private static String result(String url, String prompt, String text, String answer) {
    String key = AnswerCache.key(prompt, MODEL, text);
    ObjectNode o = JSON.createObjectNode();
    o.put("custom_id", url + "#" + MODEL + "#" + prompt + "#" + key);
    ObjectNode response = o.putObject("response");
    response.put("status_code", 200);
    ObjectNode body = response.putObject("body");
    body.put("model", MODEL);
    body.putArray("choices").addObject().putObject("message").put("content", answer);
    o.putNull("error");
    return o + "\n";
  }

  private static final String[] TITLES = {
    "",
    "Saving a sharded checkpoint never finishes on rank 5",
    "Which launcher flag pins each process to its socket?",
    "Segfault inside the collective library when the ring is rebuilt",
  };

  private static Delivery opened(int n) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "opened");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", n);
    issue.put("title", TITLES[n]);
    issue.put("body", "Seen on 4 nodes with 8 GPUs each.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + n);
    issue.putObject("user").put("login", "reporter");
    var labels = issue.putArray("labels");
    if (n == 2) {
      labels.addObject().put("name", "inference"); // a person's phase (classifier config)
    }
    issue.put("created_at", "2025-05-01T10:00:00Z");
    issue.put("updated_at", "2025-05-01T10:00:00Z");
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", REPO);
    return delivery("issues", "opened", REPO, payload);
  }
}
