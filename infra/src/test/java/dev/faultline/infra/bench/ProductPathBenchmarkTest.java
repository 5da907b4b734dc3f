package dev.faultline.infra.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The product-path benchmark's own arithmetic, on hand-made rows (no stack). */
class ProductPathBenchmarkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static ProductPathBenchmark.Gold gold(String kind, String symptom, String stage) {
    ObjectNode g = JSON.createObjectNode();
    g.put("kind", kind);
    g.put("symptom", symptom);
    g.put("stage", stage);
    g.put("root_cause", "UNKNOWN");
    g.put("fix_pattern", "UNKNOWN");
    g.put("phase", "TRAINING");
    g.putNull("distributed_specific");
    return new ProductPathBenchmark.Gold("u", "a/b#1", g, g, LocalDate.of(2025, 1, 1));
  }

  static JsonNode rows(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void truthIsAmongTheKnownCodesOfTheBugReportsAndScoresAbsentCodes() throws Exception {
    List<ProductPathBenchmark.Gold> scope =
        List.of(
            gold("BUG", "HANG", "COMMUNICATION"),
            gold("BUG", "HANG", "UNKNOWN"),
            gold("BUG", "UNKNOWN", "MEMORY"),
            gold("BUG", "OUT_OF_MEMORY", "MEMORY"),
            gold("QUESTION", "NONE", "COMMUNICATION"));
    JsonNode r =
        rows(
            "[{\"code\":\"HANG\",\"share\":0.5,\"shareLow\":0.4,\"shareHigh\":0.7},"
                + "{\"code\":\"OUT_OF_MEMORY\",\"share\":0.3,\"shareLow\":0.1,\"shareHigh\":0.32},"
                + "{\"code\":\"CRASH\",\"share\":0.2,\"shareLow\":0.05,\"shareHigh\":0.3},"
                + "{\"code\":\"UNKNOWN\",\"share\":null}]");
    double[] t = ProductPathBenchmark.ShareScore.truth(scope, "symptom", r);
    assertEquals(2 / 3.0, t[0], 1e-12);
    assertEquals(1 / 3.0, t[1], 1e-12);
    assertEquals(0, t[2], 0);
    assertTrue(Double.isNaN(t[3]));
    // |0.5 - 2/3| + |0.3 - 1/3| + |0.2 - 0| = 0.4, halved
    assertEquals(0.2, ProductPathBenchmark.ShareScore.tvd(r, t), 1e-12);
    // the stage among the bug reports only: the question's COMMUNICATION does not count
    double[] stage =
        ProductPathBenchmark.ShareScore.truth(
            scope, "stage", rows("[{\"code\":\"COMMUNICATION\"},{\"code\":\"MEMORY\"}]"));
    assertEquals(1 / 3.0, stage[0], 1e-12);
    assertEquals(2 / 3.0, stage[1], 1e-12);
    ProductPathBenchmark.Tally tally = new ProductPathBenchmark.Tally();
    tally.add(r, t);
    // HANG (>= 15%) covered; OUT_OF_MEMORY (>= 15%) not (0.333 > 0.32); CRASH absent, not covered
    assertEquals(1, tally.hits[3]);
    assertEquals(2, tally.total[3]);
    assertEquals(0, tally.hits[0]);
    assertEquals(1, tally.total[0]);
  }

  @Test
  void aTrendsTruthIsTheMonthsGoldBugReportsWithTheSymptomZeroCellsIncluded() throws Exception {
    List<ProductPathBenchmark.Gold> scope =
        List.of(
            dated(gold("BUG", "HANG", "COMMUNICATION"), "2025-03-04"),
            dated(gold("BUG", "HANG", "UNKNOWN"), "2025-03-30"),
            dated(gold("BUG", "HANG", "UNKNOWN"), "2025-04-01"),
            dated(gold("QUESTION", "HANG", "UNKNOWN"), "2025-03-05"),
            dated(gold("BUG", "OUT_OF_MEMORY", "MEMORY"), "2025-03-10"));
    JsonNode r =
        rows(
            "[{\"period\":\"2025-03-01\",\"code\":\"HANG\",\"estimate\":3.4,\"estimateLow\":1.0,\"estimateHigh\":3.0},"
                + "{\"period\":\"2025-03-01\",\"code\":\"OUT_OF_MEMORY\",\"estimate\":1.5,\"estimateLow\":1.1,\"estimateHigh\":2.0},"
                + "{\"period\":\"2025-03-01\",\"code\":\"CRASH\",\"estimate\":0.2,\"estimateLow\":0.0,\"estimateHigh\":0.6},"
                + "{\"period\":\"2025-04-01\",\"code\":\"HANG\",\"estimateLow\":null,\"estimateHigh\":null},"
                + "{\"period\":\"2025-04-01\",\"code\":\"UNKNOWN\",\"estimateLow\":0.0,\"estimateHigh\":1.0}]");
    double[] t = ProductPathBenchmark.TrendScore.truth(scope, r);
    // March: two bug reports with HANG (the question does not count), one OUT_OF_MEMORY, no CRASH
    assertEquals(2, t[0], 0);
    assertEquals(1, t[1], 0);
    assertEquals(0, t[2], 0);
    assertEquals(1, t[3], 0);
    assertTrue(Double.isNaN(t[4]));
    ProductPathBenchmark.TrendTally tally = new ProductPathBenchmark.TrendTally();
    tally.add(r, t);
    // HANG March covered; OUT_OF_MEMORY (1 < 1.1 - 0.05) not; CRASH (0) covered; April HANG has
    // no interval: a miss
    assertEquals(1, tally.hits[0]);
    assertEquals(1, tally.total[0]);
    assertEquals(1, tally.hits[1]);
    assertEquals(3, tally.total[1]);
    assertEquals(1, tally.withoutInterval);
    // by the expected count: CRASH (0.2) and April's HANG (no estimate: 0) under 1, one covered;
    // OUT_OF_MEMORY (1.5) 1–3, not covered; March's HANG (3.4) 3 or more, covered
    assertEquals(1, tally.hitsByEstimate[0]);
    assertEquals(2, tally.totalByEstimate[0]);
    assertEquals(0, tally.hitsByEstimate[1]);
    assertEquals(1, tally.totalByEstimate[1]);
    assertEquals(1, tally.hitsByEstimate[2]);
    assertEquals(1, tally.totalByEstimate[2]);
  }

  private static ProductPathBenchmark.Gold dated(ProductPathBenchmark.Gold g, String day) {
    return new ProductPathBenchmark.Gold(
        g.url(), g.id(), g.record(), g.gold(), java.time.LocalDate.parse(day));
  }

  @Test
  void theLanguageModelsAnswersAreWrongAtTheStatedRate() {
    SplittableRandom rnd = new SplittableRandom(3);
    JsonNode g = gold("BUG", "HANG", "COMMUNICATION").gold();
    int n = 20_000;
    int stageWrong = 0;
    int kindWrong = 0;
    for (int i = 0; i < n; i++) {
      ObjectNode a = ProductPathBenchmark.LlmAnswers.answer(g, 0.15, rnd);
      stageWrong += "COMMUNICATION".equals(a.path("stage").asText()) ? 0 : 1;
      kindWrong += "BUG".equals(a.path("kind").asText()) ? 0 : 1;
      if (!"BUG".equals(a.path("kind").asText())) {
        assertEquals("NONE", a.path("symptom").asText());
      } else {
        assertTrue(!"NONE".equals(a.path("symptom").asText()));
      }
    }
    assertEquals(0.15, stageWrong / (double) n, 0.01);
    assertEquals(0.15, kindWrong / (double) n, 0.01);
  }

  @Test
  void aPersonLeavesAQuestionsSymptomEmpty() {
    ObjectNode line = JSON.createObjectNode();
    ProductPathBenchmark.SampleLabels.fill(
        line, gold("QUESTION", "NONE", "COMMUNICATION").gold(), new SplittableRandom(1));
    assertEquals("", line.path("symptom").asText());
    assertEquals("QUESTION", line.path("kind").asText());
    assertTrue(line.path("distributed_specific").isNull());
  }

  /** A synthetic excerpt in the corpus's layout: header, labels, title, three posts. */
  static ProductPathBenchmark.Gold thread(String state) {
    return thread(state, "2021-05-07");
  }

  static ProductPathBenchmark.Gold thread(String state, String lastComment) {
    ObjectNode r = JSON.createObjectNode();
    r.put("url", "https://github.com/acme/widget/issues/7");
    r.put("repo", "acme/widget");
    r.put("number", 7);
    r.put("title", "Widget stalls on start");
    r.put("state", state);
    r.putArray("labels").add("bug");
    r.put(
        "text",
        String.join(
            "\n",
            "acme/widget#7 · issue · " + state,
            "labels: bug",
            "# Widget stalls on start",
            "alice · description · 2021-05-02",
            "The widget stalls before the first frame.",
            "bob · comment · 2021-05-03",
            "Same here with the second release.",
            "alice · comment · 2021-05-06",
            "Upgrading the driver fixed it.",
            "carol · comment · " + lastComment,
            "Still fine a year later."));
    ObjectNode g = JSON.createObjectNode().put("kind", "BUG");
    return new ProductPathBenchmark.Gold(
        r.path("url").asText(), "acme/widget#7", r, g, LocalDate.of(2025, 3, 10));
  }

  @Test
  void anIssueArrivesAsGitHubWouldSendItNotAsOneBodyHoldingTheWholeExcerpt() throws Exception {
    List<dev.faultline.schemas.Delivery> d = ProductPathBenchmark.deliveries(thread("closed"));
    List<String> events = d.stream().map(x -> x.getEvent() + "/" + x.getAction()).toList();
    assertEquals(
        List.of(
            "issues/opened",
            "issue_comment/created",
            "issue_comment/created",
            "issue_comment/created",
            "issues/closed"),
        events);
    JsonNode opened = JSON.readTree(d.get(0).getPayloadJson()).path("issue");
    assertEquals("The widget stalls before the first frame.", opened.path("body").asText());
    assertEquals("Widget stalls on start", opened.path("title").asText());
    assertEquals("bug", opened.path("labels").path(0).path("name").asText());
    assertEquals("open", opened.path("state").asText());
    // opened on the day the harness drew, the comments keep their order after it
    assertTrue(opened.path("created_at").asText().startsWith("2025-03-10"), opened.toString());
    JsonNode second = JSON.readTree(d.get(2).getPayloadJson());
    assertEquals("Upgrading the driver fixed it.", second.path("comment").path("body").asText());
    assertEquals("alice", second.path("comment").path("user").path("login").asText());
    long prev = 0;
    for (dev.faultline.schemas.Delivery x : d) {
      assertTrue(ProductPathBenchmark.changedAt(x) > prev, "changes in order");
      prev = ProductPathBenchmark.changedAt(x);
      assertTrue(
          JSON.readTree(x.getPayloadJson())
              .path("issue")
              .path("created_at")
              .asText()
              .startsWith("2025-03-10"));
    }
    assertEquals(4, ProductPathBenchmark.deliveries(thread("open")).size(), "no closing");
  }

  @Test
  void noPostOfAMovedThreadIsDatedAfterTheEndOfItsOpeningYear() throws Exception {
    // the last comment a year after the opening: moved to 2026-05, past the end of 2025
    List<dev.faultline.schemas.Delivery> d =
        ProductPathBenchmark.deliveries(thread("open", "2022-05-01"));
    String at =
        JSON.readTree(d.get(d.size() - 1).getPayloadJson())
            .path("comment")
            .path("created_at")
            .asText();
    assertTrue(at.startsWith("2025-12-31"), at);
    assertTrue(
        ProductPathBenchmark.changedAt(d.get(d.size() - 1))
            > ProductPathBenchmark.changedAt(d.get(d.size() - 2)));
  }
}
