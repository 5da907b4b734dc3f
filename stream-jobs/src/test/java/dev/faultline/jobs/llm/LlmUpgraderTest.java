package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.Budget;
import dev.faultline.classifier.llm.ChatClient;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.LlmFixtures;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.sink.ClassifiedIssueRecords;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The upgrade in plain Java against the real-HTTP stub: no Flink. */
class LlmUpgraderTest {
  private static final Taxonomy TAXONOMY = Taxonomy.load();
  private StubChatServer stub;
  private MemoryStore store;
  private LlmStats stats;
  private LlmUpgrader upgrader;

  /** An answer store in memory. */
  static final class MemoryStore implements AnswerStore {
    final Map<String, AnswerCache.Entry> entries = new ConcurrentHashMap<>();
    final ItemIndex items = new ItemIndex();
    volatile LlmCalibration calibration;

    @Override
    public Optional<LlmCalibration> calibration(String model, String promptVersion) {
      LlmCalibration c = calibration;
      return c != null && c.model().equals(model) && c.promptVersion().equals(promptVersion)
          ? Optional.of(c)
          : Optional.empty();
    }

    @Override
    public Optional<AnswerCache.Entry> get(String key) {
      return Optional.ofNullable(entries.get(key));
    }

    @Override
    public Optional<AnswerCache.Entry> forItem(String promptVersion, String model, String item) {
      return items.get(promptVersion, model, item);
    }

    @Override
    public void put(AnswerCache.Entry entry) {
      entries.put(entry.key(), entry);
      items.offer(entry, System.nanoTime());
    }

    @Override
    public long size() {
      return entries.size();
    }

    @Override
    public void close() {}
  }

  @BeforeEach
  void start() throws Exception {
    stub = new StubChatServer();
    store = new MemoryStore();
    stats = new LlmStats();
    LlmConfig config =
        LlmConfig.from(
            LlmFixtures.settings(
                stub, "FAULTLINE_LLM_MAX_RETRIES", "0", "FAULTLINE_LLM_CONFIDENCE", "0.8"));
    ChatClient client =
        new ChatClient(
            config,
            ChatClient.httpClient(config),
            new Budget(100, 1_000_000, Clock.systemUTC()),
            stats);
    upgrader = new LlmUpgrader(config, TAXONOMY, new Prompt(TAXONOMY, 0), store, client, null);
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  static IssueText text(String title) {
    return new IssueText(
        "acme/trainer",
        4,
        title,
        "Rank 0 waits forever in barrier().",
        List.of(),
        List.of(),
        List.of(),
        "open");
  }

  static ClassifiedIssueEvent offline(List<Dimension> human) {
    return OfflineEvents.offline(human);
  }

  @Test
  void upgradesEveryDimensionButThoseAPersonLabelled() {
    stub.then(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
    LlmUpgrader.Outcome o =
        upgrader.ask(offline(List.of(Dimension.PHASE)), text("Barrier never returns"));
    ClassifiedIssueEvent upgraded = assertInstanceOf(LlmUpgrader.Upgraded.class, o).event();
    IssueRow.ClassificationRow c = OfflineEvents.row(upgraded);
    assertEquals("CHECKPOINT_FAILURE", c.code(Dimension.SYMPTOM).toString());
    // without a calibration the model's label puts 1 - epsilon (FAULTLINE_LLM_CONFIDENCE 0.8:
    // epsilon 0.2) on its answer and the rest on the other codes, never a point mass; the person's
    // phase is a point mass
    List<Double> symptom = c.probabilities().get(Dimension.SYMPTOM);
    assertEquals(
        0.8, symptom.get(Dimension.SYMPTOM.distributionCodes().indexOf("CHECKPOINT_FAILURE")));
    assertEquals(1.0, symptom.stream().mapToDouble(Double::doubleValue).sum(), 1e-3);
    assertTrue(symptom.stream().filter(p -> p > 0).count() > 10, "the rest spread: " + symptom);
    assertEquals("prior:0.2", c.calibration().get(Dimension.SYMPTOM));
    assertEquals("prior:0.2", c.calibration().get(Dimension.SYMPTOM_CLASS));
    assertEquals("human", c.calibration().get(Dimension.PHASE));
    assertEquals(
        1.0,
        c.probabilities()
            .get(Dimension.PHASE)
            .get(Dimension.PHASE.distributionCodes().indexOf("INFERENCE")));
    // the classified topic names the tier and the prompt (#26)
    ClassifiedIssue record = ClassifiedIssueRecords.of(upgraded);
    assertEquals("llm:" + LlmFixtures.MODEL, record.getLabelSource());
    assertEquals(upgrader.promptVersion(), record.getPromptVersion());
    assertEquals(
        "CRASH",
        c.code(Dimension.SYMPTOM_CLASS).toString(),
        "the symptom's class from the taxonomy");
    assertEquals("FAULT_TOLERANCE", c.code(Dimension.STAGE).toString());
    assertEquals("INFERENCE", c.code(Dimension.PHASE).toString(), "a person's label wins");
    assertEquals("human", c.sourceOf(Dimension.PHASE));
    assertEquals(1.0, c.confidence().get(Dimension.PHASE));
    assertEquals("llm:" + LlmFixtures.MODEL, c.sourceOf(Dimension.SYMPTOM));
    assertEquals(0.8, c.confidence().get(Dimension.SYMPTOM));
    assertEquals(upgrader.promptVersion(), c.promptVersion());
    assertEquals(
        "llm:" + LlmFixtures.MODEL + "/" + upgrader.promptVersion(), c.classifierVersion());
    assertEquals(1, c.rank());
    assertEquals(1, store.size(), "the answer is stored");
    assertEquals(1, stats.requests());
  }

  @Test
  void aCalibratedModelsAnswerGetsItsConfusionRowAndMarker() {
    // Hand-made labelled answers: for stage, the model answered FAULT_TOLERANCE 4 times, 3 right
    // and once the truth was MEMORY; nothing else is answered for stage.
    Map<Dimension, String> right = new java.util.EnumMap<>(Dimension.class);
    Map<Dimension, String> wrong = new java.util.EnumMap<>(Dimension.class);
    right.put(Dimension.STAGE, "FAULT_TOLERANCE");
    wrong.put(Dimension.STAGE, "MEMORY");
    dev.faultline.classifier.llm.Answer a =
        new dev.faultline.classifier.llm.AnswerParser(
                        new dev.faultline.classifier.llm.AnswerSchema(TAXONOMY))
                    .parse(LlmFixtures.ANSWER)
                instanceof dev.faultline.classifier.llm.AnswerParser.Accepted ok
            ? ok.answer()
            : null;
    store.calibration =
        LlmCalibration.fit(
            LlmFixtures.MODEL,
            upgrader.promptVersion(),
            List.of(
                Map.entry(a, right), Map.entry(a, right), Map.entry(a, right), Map.entry(a, wrong)),
            0.2,
            2.0,
            "2026-01-01T00:00:00Z",
            "test");
    stub.then(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
    ClassifiedIssueEvent upgraded =
        assertInstanceOf(
                LlmUpgrader.Upgraded.class, upgrader.ask(offline(List.of()), text("Saving stalls")))
            .event();
    IssueRow.ClassificationRow c = OfflineEvents.row(upgraded);
    List<String> codes = Dimension.STAGE.distributionCodes();
    List<Double> p = c.probabilities().get(Dimension.STAGE);
    // (3 + 2 * 0.8) / (4 + 2) on the answer; MEMORY (1 + 2 * 0.2 * mix(MEMORY) / mix(others)) / 6
    assertEquals(4.6 / 6, p.get(codes.indexOf("FAULT_TOLERANCE")), 1e-4);
    java.util.Map<String, Double> mix =
        dev.faultline.classifier.Distributions.prior(Dimension.STAGE);
    double others = 1 - mix.get("FAULT_TOLERANCE");
    assertEquals(
        (1 + 2 * 0.2 * mix.get("MEMORY") / others) / 6, p.get(codes.indexOf("MEMORY")), 1e-4);
    assertEquals(4.6 / 6, c.confidence().get(Dimension.STAGE), 1e-9, "confidence is the row's");
    String marker = "confusion:" + LlmFixtures.MODEL + "/" + upgrader.promptVersion();
    assertEquals(marker, c.calibration().get(Dimension.STAGE));
    assertEquals(marker, ClassifiedIssueRecords.of(upgraded).getCalibration().get("stage"));
    // a dimension nobody answered in the labelled set keeps the prior row: 1 - epsilon
    assertEquals(
        0.8,
        c.probabilities()
            .get(Dimension.SYMPTOM)
            .get(Dimension.SYMPTOM.distributionCodes().indexOf("CHECKPOINT_FAILURE")),
        1e-4);
  }

  @Test
  void aPersonsNonBugKindMakesTheModelsBugOnlyLabelsNone() {
    stub.then(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
    ClassifiedIssueEvent upgraded =
        assertInstanceOf(
                LlmUpgrader.Upgraded.class,
                upgrader.ask(OfflineEvents.question(), text("How do I resume?")))
            .event();
    IssueRow.ClassificationRow c = OfflineEvents.row(upgraded);
    assertEquals("QUESTION", c.code(Dimension.KIND).toString());
    assertEquals("NONE", c.code(Dimension.SYMPTOM).toString(), "not CHECKPOINT_FAILURE");
    assertEquals(
        1.0,
        c.probabilities()
            .get(Dimension.SYMPTOM)
            .get(Dimension.SYMPTOM.distributionCodes().indexOf("NONE")));
    assertEquals("human", c.calibration().get(Dimension.SYMPTOM));
    assertEquals("UNKNOWN", c.code(Dimension.ROOT_CAUSE).toString());
    assertEquals(null, c.code(Dimension.DISTRIBUTED_SPECIFIC));
    assertEquals("FAULT_TOLERANCE", c.code(Dimension.STAGE).toString(), "stage is not bug-only");
  }

  @Test
  void aStoredAnswerCostsNoRequest() {
    stub.then(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
    IssueText t = text("Barrier never returns");
    assertTrue(upgrader.fromStore(offline(List.of()), t).isEmpty());
    upgrader.ask(offline(List.of()), t);
    LlmUpgrader.Upgraded again = upgrader.fromStore(offline(List.of()), t).orElseThrow();
    assertTrue(again.cached());
    assertTrue(
        OfflineEvents.row(again.event())
            .evidence()
            .get(Dimension.SYMPTOM)
            .endsWith("(cached answer)"));
    assertEquals(1, stub.requests().size());
    assertTrue(
        upgrader.fromStore(offline(List.of()), text("Another title")).isEmpty(),
        "other content, other key");
  }

  @Test
  void anInvalidAnswerOrAFailedRequestKeepsTheOfflineLabelsWithAReason() {
    stub.then(
        StubChatServer.Reply.answer("{\"kind\": \"BUG\"}"),
        StubChatServer.Reply.brokenBody(),
        StubChatServer.Reply.status(503, Map.of()));
    LlmUpgrader.NotUpgraded invalid =
        assertInstanceOf(
            LlmUpgrader.NotUpgraded.class, upgrader.ask(offline(List.of()), text("a")));
    assertEquals("invalid", invalid.cause());
    assertTrue(invalid.reason().contains("missing field"), invalid.reason());
    LlmUpgrader.NotUpgraded broken =
        assertInstanceOf(
            LlmUpgrader.NotUpgraded.class, upgrader.ask(offline(List.of()), text("b")));
    assertEquals("failure", broken.cause());
    LlmUpgrader.NotUpgraded unavailable =
        assertInstanceOf(
            LlmUpgrader.NotUpgraded.class, upgrader.ask(offline(List.of()), text("c")));
    assertTrue(unavailable.reason().contains("503"), unavailable.reason());
    assertEquals(0, store.size(), "nothing invalid is stored");
  }

  /** What the pipeline does ({@code UpgradeWithLlm}): a stored answer, else a request. */
  private LlmUpgrader.Outcome storedElseAsked(ClassifiedIssueEvent offline, IssueText t) {
    return upgrader
        .fromStore(offline, t)
        .map(u -> (LlmUpgrader.Outcome) u)
        .orElseGet(() -> upgrader.ask(offline, t));
  }

  /** A batch answer stored for {@code item}, for content other than any the tests classify. */
  private AnswerCache.Entry batchAnswer(String item, String answer, String content) {
    return new AnswerCache.Entry(
            AnswerCache.key(upgrader.promptVersion(), LlmFixtures.MODEL, content),
            upgrader.promptVersion(),
            LlmFixtures.MODEL,
            answer,
            1,
            1,
            "batch")
        .withItem(item);
  }

  @Test
  void theItemsBatchAnswerIsUsedWhenTheContentChangedAndNoRequestIsSent() {
    // Any request would be answered with OTHER_ANSWER: seeing its codes means the endpoint was
    // asked.
    stub.otherwise(StubChatServer.Reply.answer(LlmFixtures.OTHER_ANSWER));
    store.put(
        batchAnswer(
            "https://github.com/Acme/Trainer/issues/4",
            LlmFixtures.ANSWER,
            "the text as llm export rendered it"));
    ClassifiedIssueEvent offline = offline(List.of(Dimension.PHASE)); // acme/trainer#4
    IssueText now = text("Barrier never returns, and a comment since the export");
    assertTrue(store.get(upgrader.key(now)).isEmpty(), "no answer to this content");

    LlmUpgrader.Outcome o = storedElseAsked(offline, now);

    LlmUpgrader.Upgraded u = assertInstanceOf(LlmUpgrader.Upgraded.class, o);
    assertTrue(u.cached(), "a stored answer");
    assertEquals(0, stub.requests().size(), "no request to the endpoint");
    assertEquals(0, stats.requests());
    IssueRow.ClassificationRow c = OfflineEvents.row(u.event());
    assertEquals("CHECKPOINT_FAILURE", c.code(Dimension.SYMPTOM).toString());
    assertEquals("FAULT_TOLERANCE", c.code(Dimension.STAGE).toString());
    assertEquals("INFERENCE", c.code(Dimension.PHASE).toString(), "a person's label still wins");
    assertEquals("llm:" + LlmFixtures.MODEL, c.sourceOf(Dimension.SYMPTOM));
    assertEquals(
        "llm:" + LlmFixtures.MODEL + "/" + upgrader.promptVersion(), c.classifierVersion());
    assertTrue(
        c.evidence().get(Dimension.SYMPTOM).endsWith(LlmUpgrader.ITEM_ANSWER),
        c.evidence().get(Dimension.SYMPTOM));
  }

  @Test
  void theContentsOwnAnswerWinsOverTheItemsAndTheNewestItemAnswerWins() {
    IssueText now = text("Barrier never returns");
    store.put(batchAnswer("acme/trainer#4", LlmFixtures.OTHER_ANSWER, "exported first"));
    store.put(batchAnswer("acme/trainer#4", LlmFixtures.ANSWER, "exported again later"));
    IssueRow.ClassificationRow byItem =
        OfflineEvents.row(upgrader.fromStore(offline(List.of()), now).orElseThrow().event());
    assertEquals("CHECKPOINT_FAILURE", byItem.code(Dimension.SYMPTOM).toString(), "the newest");

    store.put(
        new AnswerCache.Entry(
            upgrader.key(now),
            upgrader.promptVersion(),
            LlmFixtures.MODEL,
            LlmFixtures.OTHER_ANSWER,
            1,
            1,
            "stream"));
    IssueRow.ClassificationRow byContent =
        OfflineEvents.row(upgrader.fromStore(offline(List.of()), now).orElseThrow().event());
    assertEquals("NONE", byContent.code(Dimension.SYMPTOM).toString(), "this content's answer");
    assertTrue(byContent.evidence().get(Dimension.SYMPTOM).endsWith(LlmUpgrader.CACHED));
  }

  @Test
  void anItemAnswerOfAnotherIssueModelOrPromptIsNotUsed() {
    IssueText now = text("Barrier never returns");
    store.put(batchAnswer("acme/trainer#5", LlmFixtures.ANSWER, "another issue"));
    store.put(batchAnswer("other/trainer#4", LlmFixtures.ANSWER, "another repository"));
    store.put(
        new AnswerCache.Entry(
                AnswerCache.key("faultline-prompt-1", LlmFixtures.MODEL, "older prompt"),
                "faultline-prompt-1",
                LlmFixtures.MODEL,
                LlmFixtures.ANSWER,
                1,
                1,
                "batch")
            .withItem("acme/trainer#4"));
    store.put(
        new AnswerCache.Entry(
                AnswerCache.key(upgrader.promptVersion(), "another-model", "another model"),
                upgrader.promptVersion(),
                "another-model",
                LlmFixtures.ANSWER,
                1,
                1,
                "batch")
            .withItem("acme/trainer#4"));
    store.put(batchAnswer("acme/trainer#4", "{\"kind\": \"NOT_A_KIND\"}", "an invalid one"));
    assertTrue(upgrader.fromStore(offline(List.of()), now).isEmpty());
  }

  @Test
  void anEventsItemIsItsRepositoryAndNumberElseItsUrlElseItsId() {
    ClassifiedIssueEvent e = offline(List.of());
    e.issue.repo = "Acme/Trainer";
    assertEquals("acme/trainer#4", LlmUpgrader.itemOf(e).orElseThrow());
    e.issue.repo = null;
    e.issue.url = "https://github.com/acme/trainer/issues/9";
    assertEquals("acme/trainer#9", LlmUpgrader.itemOf(e).orElseThrow());
    e.issue.url = null;
    assertEquals("acme/trainer#4", LlmUpgrader.itemOf(e).orElseThrow(), "from the id");
    e.issue.id = null;
    assertTrue(LlmUpgrader.itemOf(e).isEmpty());
  }

  @Test
  void anInvalidStoredAnswerIsNotUsed() {
    IssueText t = text("Barrier never returns");
    store.put(
        new AnswerCache.Entry(
            upgrader.key(t),
            upgrader.promptVersion(),
            LlmFixtures.MODEL,
            "{\"kind\": \"NOT_A_KIND\"}",
            1,
            1,
            "test"));
    assertTrue(upgrader.fromStore(offline(List.of()), t).isEmpty());
  }

  @Test
  void theKeyIsTheCliCachesKey() {
    IssueText t = text("Barrier never returns");
    assertEquals(
        AnswerCache.key(upgrader.promptVersion(), LlmFixtures.MODEL, Prompt.itemContent(t)),
        upgrader.key(t));
  }

  @Test
  void theAnswersVersionsReplaceTheOfflineOnesAndAnOlderAnswerKeepsThem() {
    ClassifiedIssueEvent offline = offline(List.of());
    dev.faultline.classifier.llm.Answer withVersions =
        new dev.faultline.classifier.llm.Answer(hangCodes(0), java.util.Map.of("nccl", "2.18.1"));
    ClassifiedIssueEvent up =
        LlmUpgrader.upgrade(offline, withVersions, TAXONOMY, "m", "p", 0.8, false);
    assertEquals(java.util.Map.of("nccl", "2.18.1"), up.classification.versions());
    assertEquals(offline.classification.framework(), up.classification.framework());
    dev.faultline.classifier.llm.Answer older =
        new dev.faultline.classifier.llm.Answer(hangCodes(0));
    assertEquals(
        offline.classification.versions(),
        LlmUpgrader.upgrade(offline, older, TAXONOMY, "m", "p", 0.8, false)
            .classification
            .versions());
  }

  private static java.util.Map<dev.faultline.schemas.taxonomy.Dimension, Object> hangCodes(int i) {
    java.util.Map<dev.faultline.schemas.taxonomy.Dimension, Object> c =
        new java.util.LinkedHashMap<>();
    c.put(dev.faultline.schemas.taxonomy.Dimension.KIND, dev.faultline.schemas.taxonomy.Kind.BUG);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.SYMPTOM,
        i == 0
            ? dev.faultline.schemas.taxonomy.Symptom.HANG
            : dev.faultline.schemas.taxonomy.Symptom.RUNTIME_CRASH);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.ROOT_CAUSE,
        dev.faultline.schemas.taxonomy.RootCause.UNKNOWN);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.FIX_PATTERN,
        dev.faultline.schemas.taxonomy.FixPattern.UNKNOWN);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.STAGE,
        dev.faultline.schemas.taxonomy.Stage.COMMUNICATION);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.PHASE,
        dev.faultline.schemas.taxonomy.Phase.TRAINING);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.DISTRIBUTED_SPECIFIC,
        i == 2 ? null : Boolean.TRUE);
    return c;
  }
}
