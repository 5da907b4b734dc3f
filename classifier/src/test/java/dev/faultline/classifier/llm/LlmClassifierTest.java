package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LlmClassifierTest {

  private static final Classifier RULES = new Classifier(ClassifierConfig.defaults());

  private StubChatServer stub;
  private final LlmStats stats = new LlmStats();

  /** The breaker's clock: moves only when a test moves it or the client waits. */
  private final AtomicLong now =
      new AtomicLong(Instant.parse("2026-01-05T10:00:00Z").toEpochMilli());

  /** Every wait the client asked for, in ms; none is really waited. */
  private final List<Long> slept = new CopyOnWriteArrayList<>();

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    stub = new StubChatServer();
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  private LlmConfig config(Map<String, String> extra) {
    Map<String, String> s = new HashMap<>();
    s.put("FAULTLINE_LLM_ENDPOINT", stub.endpoint().toString());
    s.put("FAULTLINE_LLM_MODEL", "stub-model");
    s.put("FAULTLINE_LLM_TIMEOUT_MS", "2000");
    s.put("FAULTLINE_LLM_BACKOFF_MS", "5");
    s.put("FAULTLINE_LLM_MAX_RETRIES", "2");
    s.put("FAULTLINE_LLM_API_KEY", "sk-test-123");
    s.putAll(extra);
    return LlmConfig.from(s);
  }

  private LlmClassifier tier(LlmConfig c, boolean withCache) throws Exception {
    Taxonomy taxonomy = Taxonomy.load();
    ChatClient client =
        new ChatClient(
            c,
            ChatClient.httpClient(c),
            new Budget(
                c.maxRequestsPerDay(),
                c.maxTokensPerDay(),
                Clock.fixed(Instant.parse("2026-01-05T10:00:00Z"), ZoneOffset.UTC)),
            stats,
            now::get,
            ms -> {
              slept.add(ms);
              now.addAndGet(ms);
            });
    return new LlmClassifier(
        RULES,
        c,
        new Prompt(taxonomy, 0),
        new AnswerSchema(taxonomy),
        withCache ? new AnswerCache(dir.resolve("cache")) : null,
        client,
        null,
        stats);
  }

  @Test
  void labelsComeFromTheModelsAnswerWithItsProvenance() throws Exception {
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier t = tier(config(Map.of()), true);
    LlmClassifier.Outcome o = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.answered(), o.reason());
    Classification c = o.classification();
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(Symptom.HANG, c.symptom().value());
    assertEquals(SymptomClass.HANG, c.symptomClass().value());
    assertEquals(RootCause.DISTRIBUTED_COMMUNICATION_ERROR, c.rootCause().value());
    assertEquals(Boolean.TRUE, c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
    // no calibration in the cache: 1 - epsilon (FAULTLINE_LLM_CONFIDENCE 0.9 by default) on the
    // answer, epsilon over the other codes, never a point mass
    assertEquals(0.9, c.symptom().confidence(), 1e-9);
    assertEquals(0.9, c.symptom().distribution().get("HANG"), 1e-9);
    assertTrue(c.symptom().distribution().get("RUNTIME_CRASH") > 0, "not a point mass");
    assertEquals("prior:0.1", c.symptom().calibration());
    assertEquals("prior:0.1", c.symptomClass().calibration());
    assertEquals(0.9, c.symptomClass().distribution().get("HANG"), 1e-9);
    assertTrue(
        c.symptom().evidence().startsWith("llm:stub-model prompt " + t.prompt().version()),
        c.symptom().evidence());
    assertEquals("llm:stub-model/" + t.prompt().version(), c.classifierVersion());
    assertEquals(1, stub.requests().size());
    StubChatServer.Recorded r = stub.requests().get(0);
    assertEquals("/v1/chat/completions", r.path());
    assertEquals(List.of("Bearer sk-test-123"), r.headers().get("Authorization"));
    assertEquals("stub-model", r.body().get("model").asText());
    assertEquals("json_schema", r.body().at("/response_format/type").asText());
    assertTrue(r.body().at("/messages/1/content").asText().contains(Fixtures.hangIssue().title()));
    assertEquals(1, stats.requests());
    assertTrue(stats.promptTokens() > 500, "tokens counted from usage: " + stats.promptTokens());
  }

  @Test
  void aCalibrationInTheCacheGivesEachAnswerItsConfusionRow() throws Exception {
    Taxonomy taxonomy = Taxonomy.load();
    String prompt = new Prompt(taxonomy, 0).version();
    Answer hang =
        ((AnswerParser.Accepted)
                new AnswerParser(new AnswerSchema(taxonomy)).parse(Fixtures.HANG_ANSWER))
            .answer();
    // labelled items the model answered HANG: twice right, once the truth was
    // COMMUNICATION_FAILURE
    Map<Dimension, String> right = Map.of(Dimension.SYMPTOM, "HANG");
    Map<Dimension, String> wrong = Map.of(Dimension.SYMPTOM, "COMMUNICATION_FAILURE");
    new AnswerCache(dir.resolve("cache"))
        .putCalibration(
            LlmCalibration.fit(
                "stub-model",
                prompt,
                List.of(Map.entry(hang, right), Map.entry(hang, right), Map.entry(hang, wrong)),
                0.1,
                2.0,
                "2026-01-05T10:00:00Z",
                "three labelled items"));
    new AnswerCache(dir.resolve("cache"))
        .putCalibration(
            LlmCalibration.fit(
                "another-model", prompt, List.of(Map.entry(hang, wrong)), 0.1, 2.0, "t", "d"));
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier t = tier(config(Map.of()), true);
    Classification c = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).classification();
    // (2 + 2 * 0.9) / (3 + 2)
    assertEquals(3.8 / 5, c.symptom().distribution().get("HANG"), 1e-12);
    assertEquals(3.8 / 5, c.symptom().confidence(), 1e-12);
    Map<String, Double> mix = dev.faultline.classifier.Distributions.prior(Dimension.SYMPTOM);
    assertEquals(
        (1 + 2 * 0.1 * mix.get("COMMUNICATION_FAILURE") / (1 - mix.get("HANG"))) / 5,
        c.symptom().distribution().get("COMMUNICATION_FAILURE"),
        1e-12);
    assertEquals("confusion:stub-model/" + prompt, c.symptom().calibration());
    assertEquals("confusion:stub-model/" + prompt, c.symptomClass().calibration());
    // the symptom class sums the row: HANG and COMMUNICATION_FAILURE are in different classes
    assertEquals(3.8 / 5, c.symptomClass().distribution().get("HANG"), 1e-9);
    // no labelled item says anything of the stage: its row is the prior's, 1 - epsilon
    assertEquals(0.9, c.stage().confidence(), 1e-12);
    assertEquals("confusion:stub-model/" + prompt, c.stage().calibration());
  }

  @Test
  void theAnswersVersionsReplaceTheOfflineOnesAndTheFrameworkStays() throws Exception {
    stub.then(
        StubChatServer.Reply.answer(
            Fixtures.HANG_ANSWER.replace(
                "}", ",\"versions\":[{\"component\":\"nccl\",\"version\":\"2.18.1\"}]}")));
    IssueText in =
        IssueText.of(
            "deepspeedai/DeepSpeed",
            13,
            "all_reduce hangs",
            "deepspeed 0.14.2 with NCCL 2.18.1 hangs in all_reduce on 2 nodes");
    LlmClassifier t = tier(config(Map.of()), true);
    Classification c = t.outcome(in, ChangeDetails.NONE).classification();
    assertEquals(java.util.Map.of("nccl", "2.18.1"), c.versions(), "not the offline extractor's");
    assertEquals("DeepSpeed", c.framework().value(), "framework from the offline tier");
    assertTrue(t.prompt().system().contains("## versions"), "the prompt asks for versions");
  }

  @Test
  void unchangedContentIsAnsweredFromTheCacheWithoutARequest() throws Exception {
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmConfig c = config(Map.of());
    tier(c, true).classify(Fixtures.hangIssue());
    LlmClassifier again = tier(c, true);
    LlmClassifier.Outcome o = again.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.answered() && o.cached());
    assertEquals(Symptom.HANG, o.classification().symptom().value());
    assertTrue(o.classification().symptom().evidence().contains("cached"));
    assertEquals(1, stub.requests().size(), "no second request");
    IssueText edited =
        IssueText.of(
            "acme/trainer",
            11,
            Fixtures.hangIssue().title(),
            Fixtures.hangIssue().body() + "\nUpdate: it also happens with two nodes.");
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    again.classify(edited);
    assertEquals(2, stub.requests().size(), "changed content is asked again");
  }

  @Test
  void retriesAfter429And5xxWithBackoff() throws Exception {
    stub.then(
        StubChatServer.Reply.status(429, Map.of("Retry-After", "0")),
        StubChatServer.Reply.status(503, Map.of()),
        StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier.Outcome o =
        tier(config(Map.of()), false).outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.answered(), o.reason());
    assertEquals(3, stub.requests().size());
    assertEquals(2, stats.retries());
    assertEquals(List.of(5L, 10L), slept, "the configured 5 ms, doubled per attempt");
  }

  @Test
  void aRetryAfterInSecondsIsWaitedBeforeTheNextAttempt() throws Exception {
    stub.then(
        StubChatServer.Reply.status(429, Map.of("Retry-After", "7")),
        StubChatServer.Reply.status(503, Map.of("Retry-After", "2")),
        StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier.Outcome o =
        tier(config(Map.of()), false).outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.answered(), o.reason());
    assertEquals(3, stub.requests().size());
    assertEquals(
        List.of(7_000L, 2_000L), slept, "Retry-After seconds, not the 5 and 10 ms backoff");
  }

  @Test
  void aRetryAfterLongerThanTheLongestBackoffIsCutToIt() throws Exception {
    stub.then(
        StubChatServer.Reply.status(429, Map.of("Retry-After", "3600")),
        StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    assertTrue(
        tier(config(Map.of()), false).outcome(Fixtures.hangIssue(), ChangeDetails.NONE).answered());
    assertEquals(List.of(30_000L), slept);
  }

  @Test
  void persistentServerErrorsFallBackToTheOfflineLabelsWithTheReason() throws Exception {
    stub.otherwise(StubChatServer.Reply.status(500, Map.of()));
    IssueText item = Fixtures.hangIssue();
    LlmClassifier.Outcome o = tier(config(Map.of()), true).outcome(item, ChangeDetails.NONE);
    assertFalse(o.answered());
    assertEquals("fallback", o.source());
    assertTrue(o.reason().startsWith("HTTP 500: stub says 500"), o.reason());
    assertEquals(3, stub.requests().size(), "one request and two retries");
    Classification offline = RULES.classify(item);
    assertEquals(offline.symptom().value(), o.classification().symptom().value());
    assertEquals(offline.classifierVersion(), o.classification().classifierVersion());
    assertTrue(
        o.classification().symptom().evidence().startsWith("fallback: HTTP 500"),
        o.classification().symptom().evidence());
    assertEquals(1, stats.fallbacks());
  }

  @Test
  void aClientErrorIsNotRetried() throws Exception {
    stub.then(StubChatServer.Reply.status(400, Map.of()));
    LlmClassifier.Outcome o =
        tier(config(Map.of()), false).outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.reason().startsWith("HTTP 400"), o.reason());
    assertEquals(1, stub.requests().size());
  }

  @Test
  void aSlowEndpointTimesOutAndTheItemFallsBack() throws Exception {
    stub.otherwise(StubChatServer.Reply.slow(Fixtures.HANG_ANSWER, 3_000));
    LlmConfig c =
        config(Map.of("FAULTLINE_LLM_TIMEOUT_MS", "200", "FAULTLINE_LLM_MAX_RETRIES", "0"));
    LlmClassifier.Outcome o = tier(c, false).outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    // the slow reply would have answered: a timeout reason means the client gave up on it
    assertTrue(o.reason().startsWith("timed out after 200 ms"), o.reason());
    assertFalse(o.answered());
    assertEquals(List.of(), slept, "no retry configured, no wait");
  }

  @Test
  void malformedOrInvalidAnswersAreRejectedWithTheReason() throws Exception {
    stub.then(
        StubChatServer.Reply.answer("Sure! The labels are: BUG, HANG."),
        StubChatServer.Reply.answer(Fixtures.HANG_ANSWER.replace("\"HANG\"", "\"DEADLOCK\"")),
        StubChatServer.Reply.brokenBody());
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_RETRIES", "0")), true);
    assertTrue(
        t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE)
            .reason()
            .startsWith("answer rejected: unparsable JSON"));
    assertEquals(
        "answer rejected: unknown symptom code 'DEADLOCK'",
        t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).reason());
    assertEquals("reply is not JSON", t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).reason());
    assertEquals(0, stats.answered());
    assertFalse(
        new AnswerCache(dir.resolve("cache")).contains(t.key(Fixtures.hangIssue())),
        "nothing invalid cached");
  }

  @Test
  void anEndpointThatDiesMidRunNeitherStallsNorLosesAnItem() throws Exception {
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_RETRIES", "1")), true);
    assertTrue(t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).answered());
    stub.close();
    LlmClassifier.Outcome o = t.outcome(Fixtures.questionIssue(), ChangeDetails.NONE);
    assertTrue(o.reason().startsWith("I/O error"), o.reason());
    assertEquals(
        RULES.classify(Fixtures.questionIssue()).kind().value(), o.classification().kind().value());
    assertEquals(List.of(5L), slept, "one backoff before the one retry, nothing more");
    assertTrue(
        t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).cached(),
        "answers before the stop are kept");
  }

  @Test
  void noMoreThanTheConfiguredRequestsAreInFlight() throws Exception {
    stub.otherwise(StubChatServer.Reply.slow(Fixtures.HANG_ANSWER, 150));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_CONCURRENCY", "2")), false);
    java.util.concurrent.ExecutorService callers =
        java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      List<java.util.concurrent.Future<LlmClassifier.Outcome>> results =
          new java.util.ArrayList<>();
      for (int i = 0; i < 6; i++) {
        IssueText item =
            IssueText.of(
                "acme/trainer", 100 + i, "Stall number " + i, "Ranks wait in all_reduce " + i);
        results.add(callers.submit(() -> t.outcome(item, ChangeDetails.NONE)));
      }
      for (var r : results) {
        assertTrue(r.get(10, java.util.concurrent.TimeUnit.SECONDS).answered());
      }
    } finally {
      callers.shutdownNow();
    }
    assertEquals(6, stub.requests().size());
    assertEquals(2, stub.maxInFlight(), "FAULTLINE_LLM_CONCURRENCY=2");
  }

  @Test
  void theDailyRequestBudgetStopsRequests() throws Exception {
    stub.otherwise(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_REQUESTS_PER_DAY", "1")), false);
    assertTrue(t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).answered());
    LlmClassifier.Outcome second = t.outcome(Fixtures.questionIssue(), ChangeDetails.NONE);
    assertTrue(second.reason().startsWith("daily request budget of 1 reached"), second.reason());
    assertEquals(1, stub.requests().size());
  }

  @Test
  void theDailyTokenBudgetStopsRequestsOnceSpent() throws Exception {
    stub.otherwise(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_TOKENS_PER_DAY", "100")), false);
    assertTrue(t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).answered());
    assertTrue(
        t.outcome(Fixtures.questionIssue(), ChangeDetails.NONE)
            .reason()
            .startsWith("daily token budget"));
    assertEquals(1, stub.requests().size());
  }

  @Test
  void theCircuitBreakerStopsAskingADeadEndpoint() throws Exception {
    stub.otherwise(StubChatServer.Reply.status(502, Map.of()));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_RETRIES", "0")), false);
    for (int i = 0; i < ChatClient.BREAKER_FAILURES; i++) {
      t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    }
    LlmClassifier.Outcome o = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.reason().startsWith("circuit breaker open"), o.reason());
    assertEquals(ChatClient.BREAKER_FAILURES, stub.requests().size());
  }

  @Test
  void theCircuitBreakerClosesAgainAfterItsCoolDown() throws Exception {
    stub.otherwise(StubChatServer.Reply.status(502, Map.of()));
    LlmClassifier t = tier(config(Map.of("FAULTLINE_LLM_MAX_RETRIES", "0")), false);
    for (int i = 0; i < ChatClient.BREAKER_FAILURES; i++) {
      assertFalse(t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE).answered());
    }
    stub.otherwise(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER)); // the endpoint is back
    now.addAndGet(ChatClient.BREAKER_OPEN_MILLIS - 1);
    LlmClassifier.Outcome stillOpen = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertFalse(stillOpen.answered(), "answered 1 ms before the cool-down ends");
    assertTrue(stillOpen.reason().startsWith("circuit breaker open"), stillOpen.reason());
    assertEquals(ChatClient.BREAKER_FAILURES, stub.requests().size(), "no request while open");
    now.addAndGet(1);
    LlmClassifier.Outcome after = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(after.answered(), after.reason());
    assertTrue(t.outcome(Fixtures.questionIssue(), ChangeDetails.NONE).answered());
    assertEquals(ChatClient.BREAKER_FAILURES + 2, stub.requests().size());
    assertEquals(List.of(), slept, "the open breaker refuses at once, it does not wait");
  }

  @Test
  void withoutEndpointOnlyCachedAnswersAreUsed() throws Exception {
    LlmConfig c = LlmConfig.from(Map.of("FAULTLINE_LLM_MODEL", "stub-model"));
    assertFalse(c.endpointConfigured());
    Taxonomy taxonomy = Taxonomy.load();
    LlmClassifier t =
        new LlmClassifier(
            RULES,
            c,
            new Prompt(taxonomy, 0),
            new AnswerSchema(taxonomy),
            new AnswerCache(dir.resolve("cache")),
            null,
            null,
            stats);
    LlmClassifier.Outcome o = t.outcome(Fixtures.hangIssue(), ChangeDetails.NONE);
    assertTrue(o.reason().startsWith("no cached answer and no endpoint configured"), o.reason());
    assertEquals(0, stub.requests().size());
  }

  @Test
  void aPersonsGithubLabelWinsOverTheModel() throws Exception {
    stub.then(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    IssueText labelled =
        new IssueText(
            "acme/trainer",
            13,
            Fixtures.hangIssue().title(),
            Fixtures.hangIssue().body(),
            List.of("inference"),
            List.of(),
            List.of(),
            "open");
    assertTrue(
        RULES.classify(labelled).label(Dimension.PHASE).humanGiven(),
        "the 'inference' label sets phase (classifier config)");
    LlmClassifier.Outcome o = tier(config(Map.of()), false).outcome(labelled, ChangeDetails.NONE);
    assertTrue(o.answered(), o.reason());
    assertEquals(
        Phase.INFERENCE,
        o.classification().label(Dimension.PHASE).value(),
        "the model said TRAINING");
    assertTrue(o.classification().label(Dimension.PHASE).humanGiven());
    assertEquals(Symptom.HANG, o.classification().symptom().value());
  }

  @Test
  void exampleSetGoesIntoTheRequestAndIntoTheCacheKey(@TempDir Path tmp) throws Exception {
    stub.otherwise(StubChatServer.Reply.answer(Fixtures.HANG_ANSWER));
    LlmConfig c =
        config(
            Map.of(
                "FAULTLINE_LLM_EXAMPLES",
                Fixtures.examples(tmp).toString(),
                "FAULTLINE_LLM_K",
                "2"));
    LlmClassifier withExamples =
        LlmTier.create(RULES, c, dir.resolve("cache"), WordEmbedder::new, stats);
    withExamples.classify(Fixtures.hangIssue());
    JsonNode body = stub.requests().get(0).body();
    assertTrue(
        body.at("/messages/1/content").asText().contains("Example 2 (acme/examples#"),
        body.toString());
    LlmClassifier without =
        LlmTier.create(RULES, c.withExamples(null), dir.resolve("cache"), WordEmbedder::new, stats);
    assertNotEquals(withExamples.key(Fixtures.hangIssue()), without.key(Fixtures.hangIssue()));
    without.classify(Fixtures.hangIssue());
    assertEquals(2, stub.requests().size(), "a prompt without examples is a different question");
    assertFalse(
        stub.requests().get(1).body().at("/messages/1/content").asText().contains("Example 1"));
    assertTrue(
        java.nio.file.Files.exists(dir.resolve("cache/vectors/vectors-test-words.bin")),
        "the examples' vectors are kept for the next run");
  }
}
