package dev.faultline.infra.relabel;

import static dev.faultline.infra.relabel.ScopedHistory.concat;
import static dev.faultline.infra.relabel.ScopedHistory.liveJob;
import static dev.faultline.infra.relabel.ScopedHistory.producer;
import static dev.faultline.infra.relabel.ScopedHistory.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.cli.Cli;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * A Batch API backfill reaches history without a request, on real parts (in-process Kafka and
 * Neo4j, Flink mini clusters): issues (opened, then a comment each) are labelled by the offline
 * tier; answers given for each issue's text <em>as exported</em> (deliberately not the text the
 * pipeline renders from the deliveries, so no content key matches) are imported with {@code llm
 * import} and sent with {@code llm push}; {@code faultline reclassify} with the language-model tier
 * on gives every issue its answer's labels, and the endpoint (a local server that counts and fails
 * every request) is never asked. A second push brings a newer answer for one issue: the newest
 * wins.
 */
class BatchAnswersReclassifyIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "batch-answers-it-pw";
  private static final String REPO = "Acme-Labs/Trainer";
  private static final String MODEL = "backfill-model";

  /** The answers, written for this test: one per issue, and a newer one for issue 1. */
  private static final Map<Integer, String> ANSWERS =
      Map.of(
          1,
          answer("BUG", "CHECKPOINT_FAILURE", "CONCURRENCY_ERROR", "FAULT_TOLERANCE", "TRAINING"),
          2,
          answer("QUESTION", "NONE", "UNKNOWN", "UNKNOWN", "INFERENCE"),
          3,
          answer("BUG", "RUNTIME_CRASH", "UNKNOWN", "COMMUNICATION", "TRAINING"));

  private static final String NEWER_ANSWER_1 =
      answer("BUG", "HANG", "CONCURRENCY_ERROR", "COMMUNICATION", "TRAINING");

  private static String answer(
      String kind, String symptom, String rootCause, String stage, String phase) {
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", kind);
    o.put("symptom", symptom);
    o.put("root_cause", rootCause);
    o.put("fix_pattern", "UNKNOWN");
    o.put("stage", stage);
    o.put("phase", phase);
    o.put("distributed_specific", !"QUESTION".equals(kind));
    return o.toString();
  }

  @Test
  void reclassifyGivesEveryIssueItsBatchAnswerWithoutARequest(@TempDir Path tmp) throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpServer endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    endpoint.createContext(
        "/",
        x -> {
          requests.incrementAndGet();
          byte[] b = "{\"error\":{\"message\":\"no requests expected\"}}".getBytes();
          x.sendResponseHeaders(500, b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    endpoint.start();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
      // The answers topic is left to llm push, which creates it compacted.
      kafka.createTopics(
          2,
          Arrays.stream(Topic.values())
              .filter(t -> t != Topic.LLM_ANSWERS)
              .map(Topic::topicName)
              .toList());
      new GraphSchema(driver, "neo4j").migrate();
      String[] conn = {
        "--kafka-bootstrap",
        kafka.bootstrapServers(),
        "--neo4j-uri",
        neo4j.boltUri().toString(),
        "--neo4j-user",
        EmbeddedNeo4j.USER,
        "--neo4j-password",
        PASSWORD
      };

      // 1. History labelled by the offline tier: each issue opened, then commented on.
      JobClient live = liveJob(conn, ClassifierTier.RULES); // the offline tier, quickly
      for (int n = 1; n <= 3; n++) {
        send(producer, opened(n));
        send(producer, comment(n));
      }
      Poll.until(
          Duration.ofMinutes(4),
          "three issues with their comment, labelled offline",
          () ->
              count(
                      driver,
                      "MATCH (i:Issue) WHERE i.labelSource IN ['rules', 'model'] AND i.commentCount = 1")
                  == 3);
      live.cancel().get();

      // 2. The batch answers: given for the text exported, which is not the pipeline's.
      String prompt = new Prompt(Taxonomy.load(), 0).version();
      Path results = tmp.resolve("results.jsonl");
      StringBuilder lines = new StringBuilder();
      for (int n = 1; n <= 3; n++) {
        lines.append(result(n, prompt, "as exported on an earlier day", ANSWERS.get(n)));
      }
      Files.writeString(results, lines);
      Path cache = tmp.resolve("cache");
      Map<String, String> env = new HashMap<>(Map.of(ClassifierTier.ENV, "rules"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(
          0,
          run(
              env,
              out,
              "llm",
              "import",
              "--results",
              results.toString(),
              "--cache",
              cache.toString()),
          out.toString());
      assertTrue(out.toString().contains("3 answers accepted"), out.toString());
      assertTrue(out.toString().contains("3 with their issue"), out.toString());
      assertEquals(
          0,
          run(env, out, "llm", "push", "--cache", cache.toString(), "--kafka-bootstrap", conn[1]),
          out.toString());

      // A later backfill answered issue 1 again, for yet another text: pushed after, it wins.
      Path later = tmp.resolve("results-later.jsonl");
      Files.writeString(later, result(1, prompt, "as exported again later", NEWER_ANSWER_1));
      Path laterCache = tmp.resolve("cache-later");
      assertEquals(
          0,
          run(
              env,
              out,
              "llm",
              "import",
              "--results",
              later.toString(),
              "--cache",
              laterCache.toString(),
              "--llm-model",
              MODEL),
          out.toString());
      assertEquals(
          0,
          run(
              env,
              out,
              "llm",
              "push",
              "--cache",
              laterCache.toString(),
              "--kafka-bootstrap",
              conn[1]),
          out.toString());
      Properties props = new Properties();
      props.put("bootstrap.servers", conn[1]);
      try (KafkaAnswerStore store = KafkaAnswerStore.open(props, Topic.LLM_ANSWERS.topicName())) {
        assertEquals(4, store.size());
        assertEquals(
            JSON.readTree(NEWER_ANSWER_1),
            JSON.readTree(
                store.forItem(prompt, MODEL, "acme-labs/trainer#1").orElseThrow().answer()),
            "the topic's newest answer for the issue");
      }

      // 3. Reclassify with the language-model tier on; the endpoint fails every request.
      env.put("FAULTLINE_LLM_ENDPOINT", "http://127.0.0.1:" + endpoint.getAddress().getPort());
      env.put("FAULTLINE_LLM_MODEL", MODEL);
      env.put("FAULTLINE_LLM_MAX_RETRIES", "0");
      env.put("FAULTLINE_LLM_TIMEOUT_MS", "5000");
      Path report = tmp.resolve("report");
      assertEquals(
          0,
          run(
              env,
              out,
              concat(new String[] {"reclassify", "--report-dir", report.toString()}, conn)),
          out.toString());
      assertTrue(out.toString().contains("reclassify: done"), out.toString());

      Map<Integer, String> expected = new LinkedHashMap<>(ANSWERS);
      expected.put(1, NEWER_ANSWER_1);
      String source = "llm:" + MODEL;
      Poll.until(
          Duration.ofMinutes(2),
          "every issue labelled by " + source,
          () -> count(driver, "MATCH (i:Issue) WHERE i.labelSource = '" + source + "'") == 3);
      for (var e : expected.entrySet()) {
        String id = REPO + "#" + e.getKey();
        Map<String, Object> issue =
            driver
                .session()
                .run(
                    "MATCH (i:Issue) WHERE toLower(i.id) = toLower($id) RETURN properties(i) AS p",
                    Map.of("id", id))
                .single()
                .get("p")
                .asMap();
        JsonNode a = JSON.readTree(e.getValue());
        for (Dimension d : Dimension.LABELLED) {
          assertEquals(
              a.get(d.field()).asText(),
              String.valueOf(issue.get(d.property())),
              id + " " + d.key() + " is the answer's");
          assertEquals(source, issue.get(d.sourceProperty()), id + " " + d.sourceProperty());
        }
        assertEquals(source, issue.get("labelSource"), id);
        assertEquals(prompt, issue.get("promptVersion"), id);
        // kind has no edge: its evidence is on the issue
        String evidence = String.valueOf(issue.get(Dimension.KIND.evidenceProperty()));
        assertTrue(evidence.endsWith("(batch answer for the item)"), id + " evidence: " + evidence);
      }
      assertEquals(0, requests.get(), "requests sent to the endpoint");
    } finally {
      endpoint.stop(0);
    }
  }

  /** A Batch API output line answering issue {@code n} as if its text had been {@code text}. */
  private static String result(int n, String prompt, String text, String answer) {
    String key = AnswerCache.key(prompt, MODEL, "issue " + n + " " + text);
    ObjectNode o = JSON.createObjectNode();
    o.put("id", "batch_req_" + n);
    // as llm export writes it: <url>#<model>#<prompt version>#<key>
    o.put(
        "custom_id",
        "https://github.com/" + REPO + "/issues/" + n + "#" + MODEL + "#" + prompt + "#" + key);
    ObjectNode response = o.putObject("response");
    response.put("status_code", 200);
    ObjectNode body = response.putObject("body");
    body.put("model", MODEL + "-2026-01-01");
    body.putArray("choices")
        .addObject()
        .putObject("message")
        .put("role", "assistant")
        .put("content", answer);
    body.putObject("usage").put("prompt_tokens", 900).put("completion_tokens", 40);
    o.putNull("error");
    return o + "\n";
  }

  private static int run(Map<String, String> env, ByteArrayOutputStream out, String... args) {
    out.reset();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    return Cli.execute(Faultline.commandLine(env), args, p, p);
  }

  private static long count(Driver driver, String match) {
    return driver.session().run(match + " RETURN count(i) AS n").single().get("n").asLong();
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
    issue.put(
        "body", "Seen on 4 nodes with 8 GPUs each; the steps to reproduce follow in a comment.");
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + n);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels");
    issue.put("created_at", "2025-05-01T10:00:00Z");
    issue.put("updated_at", "2025-05-01T10:00:00Z");
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", REPO);
    return delivery("issues", "opened", payload);
  }

  private static Delivery comment(int n) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "created");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", n);
    issue.put("title", TITLES[n]);
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + n);
    issue.put("created_at", "2025-05-01T10:00:00Z");
    issue.put("updated_at", "2025-05-01T11:00:00Z");
    ObjectNode comment = payload.putObject("comment");
    comment.put("id", 9000 + n);
    comment.put("body", "Reproduced again after a restart; the logs stop at the same step.");
    comment.put("author_association", "MEMBER");
    comment.putObject("user").put("login", "maintainer");
    comment.put("created_at", "2025-05-01T11:00:00Z");
    comment.put("updated_at", "2025-05-01T11:00:00Z");
    payload.putObject("repository").put("full_name", REPO);
    return delivery("issue_comment", "created", payload);
  }

  private static Delivery delivery(String event, String action, ObjectNode payload) {
    return new Delivery(
        "d-" + UUID.randomUUID(),
        event,
        action,
        REPO,
        Instant.now(),
        DeliverySource.WEBHOOK,
        payload.toString());
  }
}
