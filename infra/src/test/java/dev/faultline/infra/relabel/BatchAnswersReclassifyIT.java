package dev.faultline.infra.relabel;

import static dev.faultline.infra.relabel.RelabelFixtures.cli;
import static dev.faultline.infra.relabel.RelabelFixtures.count;
import static dev.faultline.infra.relabel.RelabelFixtures.delivery;
import static dev.faultline.infra.relabel.RelabelFixtures.mergedPullRequest;
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
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.relabel.RelabelFixtures.MergedChange;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
 * on gives every issue its answer's labels (the replay's states are no newer than the answers), and
 * the endpoint (a local server that counts and fails every request) is never asked. A second push
 * brings a newer answer for one issue: the newest wins. Then, live with the endpoint answering, an
 * issue edited after its batch answer was made gets the endpoint's answer, and its evidence says
 * why; and an issue closed by a merged fix after its batch answer was made is labelled from the
 * fix's text (the endpoint answers differently when it reads it), not by the older answer.
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

  /** What the endpoint answers once it answers (step 4): unlike every batch answer. */
  private static final String ENDPOINT_ANSWER =
      answer("BUG", "OUT_OF_MEMORY", "CONFIGURATION_ERROR", "MEMORY", "TRAINING");

  /**
   * What the endpoint answers when the request carries the merged fix's text (step 5): a root cause
   * and fix pattern only the fix tells.
   */
  private static final String FIX_ANSWER =
      answer(
          "BUG",
          "RUNTIME_CRASH",
          "CONCURRENCY_ERROR",
          "COMMUNICATION",
          "TRAINING",
          "CONDITIONAL_LOGIC");

  /** The merged fix's title (step 5): the endpoint answers {@link #FIX_ANSWER} when it reads it. */
  private static final String FIX_TITLE =
      "Rebuild the ring only after every rank left the collective";

  /** The time of the states the first batch answers were made for (after the comments). */
  private static final String EXPORTED_AS_OF = "2025-05-02T00:00:00Z";

  private static String answer(
      String kind, String symptom, String rootCause, String stage, String phase) {
    return answer(kind, symptom, rootCause, stage, phase, "UNKNOWN");
  }

  private static String answer(
      String kind, String symptom, String rootCause, String stage, String phase, String fix) {
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", kind);
    o.put("symptom", symptom);
    o.put("root_cause", rootCause);
    o.put("fix_pattern", fix);
    o.put("stage", stage);
    o.put("phase", phase);
    o.put("distributed_specific", !"QUESTION".equals(kind));
    return o.toString();
  }

  /**
   * A local chat endpoint that counts requests: it fails every one until {@code answer} holds an
   * answer, then answers with it, or with {@link #FIX_ANSWER} to a request that carries {@link
   * #FIX_TITLE}.
   */
  private static HttpServer endpoint(AtomicInteger requests, AtomicReference<String> answer)
      throws java.io.IOException {
    HttpServer endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    endpoint.createContext(
        "/",
        x -> {
          requests.incrementAndGet();
          String request = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          String content = answer.get();
          if (content != null && request.contains(FIX_TITLE)) {
            content = FIX_ANSWER;
          }
          byte[] b;
          if (content == null) {
            b = "{\"error\":{\"message\":\"no requests expected\"}}".getBytes();
            x.sendResponseHeaders(500, b.length);
          } else {
            ObjectNode o = JSON.createObjectNode();
            o.put("object", "chat.completion");
            o.put("model", MODEL);
            o.putArray("choices")
                .addObject()
                .put("index", 0)
                .put("finish_reason", "stop")
                .putObject("message")
                .put("role", "assistant")
                .put("content", content);
            o.putObject("usage").put("prompt_tokens", 900).put("completion_tokens", 40);
            b = o.toString().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, b.length);
          }
          x.getResponseBody().write(b);
          x.close();
        });
    endpoint.start();
    return endpoint;
  }

  @Test
  void reclassifyGivesEveryIssueItsBatchAnswerWithoutARequestAndALiveEditAsksTheEndpoint(
      @TempDir Path tmp) throws Exception {
    AtomicInteger requests = new AtomicInteger();
    AtomicReference<String> answering = new AtomicReference<>();
    HttpServer endpoint = endpoint(requests, answering);
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
      String[] conn =
          ScopedHistory.conn(
              kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);

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
        lines.append(
            result(n, prompt, EXPORTED_AS_OF, "as exported on an earlier day", ANSWERS.get(n)));
      }
      Files.writeString(results, lines);
      Path cache = tmp.resolve("cache");
      Map<String, String> env = new HashMap<>(Map.of(ClassifierTier.ENV, "rules"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
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
      assertTrue(out.toString().contains("3 answers accepted"), out.toString());
      assertTrue(out.toString().contains("3 with their issue"), out.toString());
      assertEquals(
          0,
          cli(env, out, "llm", "push", "--cache", cache.toString(), "--kafka-bootstrap", conn[1]),
          out.toString());

      // A later backfill answered issue 1 again, for yet another text: pushed after, it wins. Its
      // export wrote no time of the state (an older custom_id): it counts from when it reaches the
      // stream.
      Path later = tmp.resolve("results-later.jsonl");
      Files.writeString(later, result(1, prompt, null, "as exported again later", NEWER_ANSWER_1));
      Path laterCache = tmp.resolve("cache-later");
      assertEquals(
          0,
          cli(
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
          cli(
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
          cli(
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

      // 4. Live, the endpoint answers now; issue 2 is edited after its batch answer was made: the
      // stream asks the endpoint, and the graph carries the endpoint's answer, saying why.
      answering.set(ENDPOINT_ANSWER);
      JobClient llmLive = liveJob(conn, ClassifierTier.RULES, env);
      send(producer, edited(2, "2025-07-01T00:00:00Z"));
      String id2 = REPO + "#2";
      Poll.until(
          Duration.ofMinutes(3),
          "issue 2 carries the endpoint's answer",
          () -> "OUT_OF_MEMORY".equals(String.valueOf(issue(driver, id2).get("symptom"))));
      Map<String, Object> two = issue(driver, id2);
      JsonNode a = JSON.readTree(ENDPOINT_ANSWER);
      for (Dimension d : Dimension.LABELLED) {
        assertEquals(a.get(d.field()).asText(), String.valueOf(two.get(d.property())), d.key());
        assertEquals(source, two.get(d.sourceProperty()), d.sourceProperty());
        assertEquals(source + "/" + prompt, two.get(d.versionProperty()), d.versionProperty());
      }
      String evidence = String.valueOf(two.get(Dimension.KIND.evidenceProperty()));
      assertTrue(
          evidence.contains(
              "(asked: the item's batch answer was made for its state as of " + EXPORTED_AS_OF),
          "the evidence says why the endpoint was asked: " + evidence);
      assertTrue(!evidence.contains("(batch answer for the item)"), evidence);
      assertEquals(1, requests.get(), "one request: issue 2's new state");
      // The issues not edited keep their batch answers (issue 1 its newer one).
      assertEquals(
          JSON.readTree(NEWER_ANSWER_1).get("symptom").asText(),
          String.valueOf(issue(driver, REPO + "#1").get("symptom")));
      assertEquals("RUNTIME_CRASH", String.valueOf(issue(driver, REPO + "#3").get("symptom")));

      // 5. Issue 3 gets a merged fix after its batch answer was made, and is closed after it: the
      // stream asks the endpoint with the fix's text, and the closed issue carries the answer read
      // from the fix (its root cause and fix pattern), not the older batch answer. (The fix is sent
      // first and its state awaited, so the closed state is the newer one whatever the partitions.)
      String id3 = REPO + "#3";
      send(producer, mergedFix(3, "2025-07-10T09:00:00Z"));
      awaitIssue(driver, id3, "issue 3 carries the answer read from its fix", "open");
      send(producer, closed(3, "2025-07-10T09:05:00Z"));
      awaitIssue(driver, id3, "closed issue 3 carries the answer read from its fix", "closed");
      Map<String, Object> three = issue(driver, id3);
      JsonNode fixAnswer = JSON.readTree(FIX_ANSWER);
      for (Dimension d : Dimension.LABELLED) {
        assertEquals(
            fixAnswer.get(d.field()).asText(), String.valueOf(three.get(d.property())), d.key());
        assertEquals(source + "/" + prompt, three.get(d.versionProperty()), d.versionProperty());
      }
      String evidence3 = String.valueOf(three.get(Dimension.KIND.evidenceProperty()));
      assertTrue(
          evidence3.contains("(asked: the item's batch answer was made for its state as of "),
          "the evidence says why the endpoint was asked: " + evidence3);
      assertEquals(3, requests.get(), "a request for each of issue 3's two new states");
      llmLive.cancel().get();
    } finally {
      endpoint.stop(0);
    }
  }

  /** Waits until issue {@code id} is in {@code state} with {@link #FIX_ANSWER}'s fix pattern. */
  private static void awaitIssue(Driver driver, String id, String what, String state) {
    try {
      Poll.until(
          Duration.ofMinutes(3),
          what,
          () -> {
            Map<String, Object> i = issue(driver, id);
            return "CONDITIONAL_LOGIC"
                    .equals(String.valueOf(i.get(Dimension.FIX_PATTERN.property())))
                && state.equals(String.valueOf(i.get("state")));
          });
    } catch (AssertionError e) {
      Map<String, Object> i = new java.util.TreeMap<>(issue(driver, id));
      i.keySet().removeIf(k -> k.startsWith("textVector"));
      throw new AssertionError(e.getMessage() + "; the issue: " + i, e);
    }
  }

  private static Map<String, Object> issue(Driver driver, String id) {
    return driver
        .session()
        .run(
            "MATCH (i:Issue) WHERE toLower(i.id) = toLower($id) RETURN properties(i) AS p",
            Map.of("id", id))
        .single()
        .get("p")
        .asMap();
  }

  /**
   * A Batch API output line answering issue {@code n} as if its text had been {@code text}, for its
   * state as of {@code asOf} (null: a custom_id without it, as exports before it wrote).
   */
  private static String result(int n, String prompt, String asOf, String text, String answer) {
    String key = AnswerCache.key(prompt, MODEL, "issue " + n + " " + text);
    ObjectNode o = JSON.createObjectNode();
    o.put("id", "batch_req_" + n);
    // as llm export writes it: <url>#<model>#<prompt version>#<as-of>#<key>
    o.put(
        "custom_id",
        "https://github.com/"
            + REPO
            + "/issues/"
            + n
            + "#"
            + MODEL
            + "#"
            + prompt
            + (asOf == null ? "" : "#" + asOf)
            + "#"
            + key);
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

  private static final String[] TITLES = {
    "",
    "Saving a sharded checkpoint never finishes on rank 5",
    "Which launcher flag pins each process to its socket?",
    "Segfault inside the collective library when the ring is rebuilt",
  };

  private static final String BODY =
      "Seen on 4 nodes with 8 GPUs each; the steps to reproduce follow in a comment.";

  private static Delivery opened(int n) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "opened");
    issue(payload, n, BODY, "2025-05-01T10:00:00Z").putNull("closed_at");
    return delivery("issues", "opened", REPO, payload);
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
    return delivery("issue_comment", "created", REPO, payload);
  }

  /** Issue {@code n} closed at {@code at}. */
  private static Delivery closed(int n, String at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "closed");
    ObjectNode issue = issue(payload, n, BODY, at);
    issue.put("state", "closed");
    issue.put("comments", 1);
    issue.put("closed_at", at);
    return delivery("issues", "closed", REPO, payload);
  }

  /** Issue {@code n}'s fix (pull request {@code 100 + n}), merged at {@code at}. */
  private static Delivery mergedFix(int n, String at) {
    return mergedPullRequest(
        REPO,
        100 + n,
        FIX_TITLE,
        "Fixes #"
            + n
            + ". Ranks still inside the collective read the ring while it was rebuilt; the rebuild"
            + " now waits on a barrier.",
        new MergedChange("2025-07-01T00:00:00Z", at, 20, 4, 2));
  }

  /** Issue {@code n} edited at {@code at}: a new body. */
  private static Delivery edited(int n, String at) {
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "edited");
    ObjectNode issue =
        issue(
            payload,
            n,
            "Edited: the process runs out of device memory while the launcher starts the workers.",
            at);
    issue.put("comments", 1);
    issue.putNull("closed_at");
    return delivery("issues", "edited", REPO, payload);
  }

  /** Issue {@code n} of {@link #REPO}, open, by its reporter, last updated at {@code updatedAt}. */
  private static ObjectNode issue(ObjectNode payload, int n, String body, String updatedAt) {
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", n);
    issue.put("title", TITLES[n]);
    issue.put("body", body);
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + REPO + "/issues/" + n);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels");
    issue.put("created_at", "2025-05-01T10:00:00Z");
    issue.put("updated_at", updatedAt);
    payload.putObject("repository").put("full_name", REPO);
    return issue;
  }
}
