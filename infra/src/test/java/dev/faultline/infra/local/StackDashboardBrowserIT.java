package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.dashboard.testing.DashboardBrowser;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.ConfidencePolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The dashboard of the running stack in real headless Chromium: the whole local stack in this JVM
 * (receiver, Kafka, both Flink jobs, Neo4j), seeded only through the receiver with signed GitHub
 * deliveries ({@code fixtures/dashboard/}: three releases, five issues of DeepSpeed and PyTorch).
 * Every view loads without console errors, its charts and tables show what the deliveries say,
 * filters change what is shown, the statistics job raises no alert from five issues (none of them
 * is unlikely; the alert list itself is checked against a known graph in the dashboard module's
 * DashboardBrowserIT), and a delivery posted while a page is open travels receiver → Kafka → Flink
 * → Neo4j and appears on that page without a reload. A screenshot of each view is saved under
 * {@code target/screenshots/}.
 *
 * <p>What the fixtures make, worked out (the classifier's labels are checked first, in {@link
 * #seed}):
 *
 * <pre>
 * opened      issue           symptom / stage                       distributed  reports
 * 2024-01-15  DeepSpeed#4101  HANG / COMMUNICATION                  yes          0.14.0
 * 2024-03-20  DeepSpeed#4102  OUT_OF_MEMORY / MEMORY                yes          0.14.2  a first pair: no alert
 * 2024-04-02  DeepSpeed#4103  CHECKPOINT_FAILURE / FAULT_TOLERANCE  yes          0.14.2  a first pair: no alert
 * 2024-05-01  PyTorch#5101    HANG / COMMUNICATION                  yes          2.3.0
 * 2024-05-10  PyTorch#5102    INCORRECT_OUTPUT / COMPUTATION        no           2.3.0
 * bugs per release: DeepSpeed 0.14.0 1, 0.14.2 2, PyTorch 2.3.0 2 · distributed-specific 4/5 = 80%, DeepSpeed 3/3,
 * PyTorch 1/2 · no issue in February · posted during the test: PyTorch#5103, 2024-06-01
 * </pre>
 *
 * <p>Skipped (not failed), before the stack starts, where {@code /usr/bin/chromium} or {@code
 * /usr/bin/chromedriver} is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StackDashboardBrowserIT {
  /**
   * A delivery's way through Kafka, both jobs' checkpoints (5 s) and Neo4j, on a busy two-core
   * machine.
   */
  private static final Duration PIPELINE = Duration.ofSeconds(90);

  /** How long a page may take to render. */
  private static final Duration PAGE = Duration.ofSeconds(30);

  private static final String DS = "deepspeedai/DeepSpeed#";
  private static final String PT = "pytorch/pytorch#";

  @TempDir static Path dataDir;
  private LocalStack stack;
  private StackClient client;
  private DashboardBrowser browser;

  @BeforeAll
  void startStackSeedAndOpenBrowser() throws Exception {
    // Before the stack: a machine without the browser skips in no time.
    DashboardBrowser.assumeInstalled();
    // Every label counted (the server default set as a deployment would): this test follows
    // deliveries to the page,
    // whatever the classifier's confidences; DashboardBrowserIT tests the confidence bar on a known
    // graph.
    stack =
        LocalStack.start(
            new LocalOptions(dataDir, 0, 0, 0, 0, 0), Map.of(ConfidencePolicy.ENVIRONMENT, "all"));
    client = StackClient.of(stack);
    Poll.until(Duration.ofSeconds(60), "/health 200", this::healthy);
    seed();
    browser =
        DashboardBrowser.start(
            "http://127.0.0.1:" + stack.receiver().port(),
            Path.of(System.getProperty("basedir", "."), "target", "screenshots"),
            PAGE);
  }

  @AfterAll
  void stop() throws IOException {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (stack != null) {
        stack.close();
      }
    }
  }

  @BeforeEach
  void noEarlierConsoleErrors() {
    browser.discardConsole();
  }

  /**
   * Posts the fixtures in three steps, each waiting for what the next one relies on, then checks
   * the labels.
   */
  private void seed() throws Exception {
    // Releases first: an issue and the release it reports, written in concurrent transactions,
    // would each miss the
    // other, and the issue would be filed against no release.
    deliver("release", "release.published.deepspeed-0.14.0");
    deliver("release", "release.published.deepspeed-0.14.2");
    deliver("release", "release.published.pytorch-2.3.0");
    Poll.until(
        PIPELINE, "3 releases in the graph", () -> count("MATCH (r:Release) RETURN count(r)") == 3);
    // DeepSpeed's oldest issue next, and only (the statistics job's release count is the sign it
    // was counted).
    deliver("issues", "issues.opened.deepspeed-4101");
    Poll.until(
        PIPELINE,
        "the statistics job's release counts of DeepSpeed 0.14.0",
        () ->
            count(
                    "MATCH (c:CategoryCount {window: 'release', framework: 'DeepSpeed', release: '0.14.0'}) RETURN count(c)")
                > 0);
    deliver("issues", "issues.opened.deepspeed-4102");
    deliver("issues", "issues.closed.deepspeed-4103");
    deliver("issues", "issues.opened.pytorch-5101");
    deliver("issues", "issues.opened.pytorch-5102");
    Poll.until(
        PIPELINE,
        "5 classified issues in the graph",
        () -> count("MATCH (i:Issue) WHERE i.classifierVersion IS NOT NULL RETURN count(i)") == 5);
    // The statistics job has counted the last issues of both frameworks: what the alerts view shows
    // is its verdict.
    Poll.until(
        PIPELINE,
        "the statistics job's release counts of DeepSpeed 0.14.2 and PyTorch 2.3.0",
        () ->
            count(
                        "MATCH (c:CategoryCount {window: 'release', framework: 'DeepSpeed', release: '0.14.2', dimension: 'stage'}) RETURN sum(c.count)")
                    == 2
                && count(
                        "MATCH (c:CategoryCount {window: 'release', framework: 'PyTorch', release: '2.3.0', dimension: 'stage'}) RETURN sum(c.count)")
                    == 2);
    assertEquals(
        List.of(
            "deepspeedai/DeepSpeed#4101 BUG HANG COMMUNICATION true 0.14.0",
            "deepspeedai/DeepSpeed#4102 BUG OUT_OF_MEMORY MEMORY true 0.14.2",
            "deepspeedai/DeepSpeed#4103 BUG CHECKPOINT_FAILURE FAULT_TOLERANCE true 0.14.2",
            "pytorch/pytorch#5101 BUG HANG COMMUNICATION true 2.3.0",
            "pytorch/pytorch#5102 BUG INCORRECT_OUTPUT COMPUTATION false 2.3.0"),
        rows(
            "MATCH (i:Issue) RETURN i.id, i.kind, i.symptom, i.stage, i.distributedSpecific, i.frameworkVersion ORDER BY i.id"),
        "the classifier no longer labels the fixtures as this test's figures assume: reword the fixture texts");
  }

  @Test
  @Order(1)
  @org.junit.jupiter.api.Disabled(
      "#31: asserts label counts; the overview now shows estimates (\u2248 4.9 (4\u20135)) by default. To be rewritten against the estimates; DashboardApiIT and DashboardBrowserIT cover them meanwhile")
  void overviewChartsShowTheDeliveredBugsAndReleases() throws IOException {
    browser.open("#overview");
    assertEquals("5", browser.headline("bugs"));
    assertEquals(
        "80.0% of 5 bugs with a known answer are distributed-specific (P2: 45.1%)",
        browser.text("ds-summary"));
    assertEquals(
        List.of("All", "DeepSpeed", "PyTorch", "P2 (seed)"), browser.chartLabels("ds-chart"));
    assertEquals(List.of(80.0, 100.0, 50.0, 45.1), browser.chartNumbers("ds-chart"));
    assertEquals(
        List.of(
            "DeepSpeed 0.14.0 (2024-01-10)",
            "DeepSpeed 0.14.2 (2024-03-01)",
            "PyTorch 2.3.0 (2024-04-24)"),
        browser.chartLabels("releases-chart"));
    assertEquals(List.of(1.0, 2.0, 2.0), browser.chartNumbers("releases-chart"));
    assertEquals("5 bug reports filed against 3 releases", browser.text("releases-summary"));
    assertEquals(
        "5 bug reports, 100% labelled (all labels counted)", browser.text("headline-coverage"));
    assertEquals(
        List.of("PyTorch@2.3.0", "DeepSpeed@0.14.2", "DeepSpeed@0.14.0"), browser.releases());
    browser.screenshot("overview");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(2)
  @org.junit.jupiter.api.Disabled(
      "#31: asserts label counts; the overview now shows estimates (\u2248 4.9 (4\u20135)) by default. To be rewritten against the estimates; DashboardApiIT and DashboardBrowserIT cover them meanwhile")
  void frameworkReleaseAndResetFiltersChangeTheOverview() throws IOException {
    browser.open("#overview");
    browser.selectAndWait("f-framework", "PyTorch", "overview", "framework=PyTorch");
    assertEquals("2", browser.headline("bugs"));
    assertEquals(
        "50.0% of 2 bugs with a known answer are distributed-specific (P2: 45.1%)",
        browser.text("ds-summary"));
    assertEquals(List.of("PyTorch 2.3.0 (2024-04-24)"), browser.chartLabels("releases-chart"));
    assertEquals(List.of("", "PyTorch@2.3.0"), browser.attributes("#f-release option", "value"));
    browser.screenshot("overview-pytorch");

    browser.selectAndWait("f-framework", "DeepSpeed", "overview", "framework=DeepSpeed");
    browser.selectAndWait(
        "f-release", "DeepSpeed@0.14.2", "overview", "release=DeepSpeed%400.14.2");
    assertEquals("2", browser.headline("bugs"));
    assertEquals(List.of("DeepSpeed@0.14.2"), browser.selectedReleases());
    assertTrue(
        browser.text("scope-summary").contains("release DeepSpeed@0.14.2"),
        browser.text("scope-summary"));

    browser.driver().findElement(By.id("f-reset")).click();
    browser.waitForRender("overview", "overview");
    assertEquals("5", browser.headline("bugs"));
    assertEquals("Showing all frameworks, counting every label", browser.text("scope-summary"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(3)
  @org.junit.jupiter.api.Disabled(
      "#31: asserts label counts; the overview now shows estimates (\u2248 4.9 (4\u20135)) by default. To be rewritten against the estimates; DashboardApiIT and DashboardBrowserIT cover them meanwhile")
  void trendsAndHeatMapFollowTheDimensionAndTheDates() throws IOException {
    browser.open("#trends");
    assertEquals(
        List.of("HANG", "CHECKPOINT_FAILURE", "INCORRECT_OUTPUT", "OUT_OF_MEMORY"),
        browser.trendCategories());
    assertEquals(List.of("2", "1", "1", "1"), browser.trendCounts());
    assertEquals(4L, browser.chartDatasets("trends-chart"));
    // February had no issue: it stays on the time axis, at zero.
    assertEquals(
        List.of("2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"),
        browser.chartLabels("trends-chart"));
    assertEquals(List.of(1.0, 0.0, 0.0, 0.0, 1.0), browser.chartNumbers("trends-chart"));
    // by default the heat map holds expected bug reports (the classifier's probabilities summed):
    // the two communication hangs are likely, not certain, so the cell is near 2 but below it
    assertTrue(browser.text("heatmap-summary").startsWith("≈ "), browser.text("heatmap-summary"));
    double expectedHangs = Double.parseDouble(browser.heatmap("COMMUNICATION", "HANG"));
    assertTrue(expectedHangs > 1 && expectedHangs <= 2, "expected hangs " + expectedHangs);
    // counting the labels instead gives whole issues
    browser.select("h-mode", "labels");
    browser.await(
        "the heat map counting labels",
        java.time.Duration.ofSeconds(20),
        () -> !browser.text("heatmap-summary").startsWith("≈"));
    assertEquals("2", browser.heatmap("COMMUNICATION", "HANG"));
    assertEquals("1", browser.heatmap("MEMORY", "OUT_OF_MEMORY"));
    assertEquals("1", browser.heatmap("FAULT_TOLERANCE", "CHECKPOINT_FAILURE"));
    assertEquals("1", browser.heatmap("COMPUTATION", "INCORRECT_OUTPUT"));
    assertEquals("5 bug reports with a known stage and symptom", browser.text("heatmap-summary"));
    browser.screenshot("trends");

    browser.selectAndWait("t-dimension", "stage", "trends", "dimension=stage");
    assertEquals(
        List.of("COMMUNICATION", "COMPUTATION", "FAULT_TOLERANCE", "MEMORY"),
        browser.trendCategories());
    assertEquals(List.of("2", "1", "1", "1"), browser.trendCounts());

    // Leaves out DeepSpeed#4101, opened in January.
    browser.pickDate("f-from", "2024-03-01");
    browser.waitForRender("trends", "from=2024-03-01");
    assertEquals(List.of("1", "1", "1", "1"), browser.trendCounts());
    assertEquals("1", browser.heatmap("COMMUNICATION", "HANG"));
    assertEquals("4 bug reports with a known stage and symptom", browser.text("heatmap-summary"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(4)
  void fiveIssuesRaiseNoAlertEvenWhereACategoryMeetsAStageForTheFirstTime() throws IOException {
    // DeepSpeed#4102 and #4103 each pair a symptom with a stage for the first time in DeepSpeed's
    // history: a sparse
    // stream's first occurrences are not unlikely, so they are not alerts (the earlier rule raised
    // both).
    browser.open("#alerts");
    assertEquals("No emerging-category alerts", browser.text("alerts-summary"));
    assertEquals(0, browser.rows("#alert-list > li"));
    assertEquals(
        0, count("MATCH (a:Alert) WHERE coalesce(a.withdrawn, false) = false RETURN count(a)"));
    browser.screenshot("alerts");

    browser.selectAndWait("f-framework", "PyTorch", "alerts", "framework=PyTorch");
    assertEquals("No emerging-category alerts", browser.text("alerts-summary"));
    assertEquals(0, browser.rows("#alert-list > li"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(5)
  void issueListShowsTheDeliveredIssuesNewestFirstAndFollowsTheReleaseFilter() throws IOException {
    browser.open("#issues");
    assertEquals("5 issues, newest first", browser.text("issues-summary"));
    assertEquals(
        List.of(PT + "5102", PT + "5101", DS + "4103", DS + "4102", DS + "4101"),
        browser.issueIds());
    assertEquals(
        "ZeRO-3 training hangs at the first all_gather with 16 ranks",
        browser.issueTitle(DS + "4101"));
    browser.screenshot("issues");

    browser.selectAndWait("f-release", "DeepSpeed@0.14.2", "issues", "release=");
    assertEquals(List.of(DS + "4103", DS + "4102"), browser.issueIds());
    assertEquals("2 issues, newest first", browser.text("issues-summary"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(6)
  void issueDrillDownShowsTheClassificationAndSimilarPastIssues() throws IOException {
    browser.open("#issues");
    browser
        .driver()
        .findElement(By.cssSelector("#issue-table tr[data-issue='" + PT + "5101'] a.issue-link"))
        .click();
    browser.waitForRender("issue", "id=");
    assertEquals("DDP allreduce hangs with NCCL 2.20 on two nodes", browser.text("issue-title"));
    assertEquals(
        "https://github.com/pytorch/pytorch/issues/5101",
        browser.driver().findElement(By.id("issue-link")).getAttribute("href"));
    assertTrue(
        browser.text("issue-meta").contains("filed against PyTorch@2.3.0"),
        browser.text("issue-meta"));
    assertEquals("HANG", browser.label("symptom"));
    assertEquals("COMMUNICATION", browser.label("stage"));
    assertEquals("GitHub labels: oncall: distributed", browser.text("issue-gh-labels"));
    // The other NCCL watchdog hang: first by words and by meaning.
    assertEquals(DS + "4101", browser.attributes("#issue-similar > li", "data-issue").get(0));
    browser.screenshot("issue");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(7)
  void deliveryPostedWhileThePageIsOpenAppearsWithoutAReload() throws Exception {
    browser.open("#issues");
    browser.script("window.__sameDocument = true; return null");
    deliver("issues", "issues.opened.pytorch-5103");
    browser.await(
        "the issue posted to the receiver never appeared in the open list",
        PIPELINE,
        () -> browser.issueIds().contains(PT + "5103"));
    assertEquals(PT + "5103", browser.issueIds().get(0));
    assertEquals(
        "all_gather hangs after resuming from a checkpoint", browser.issueTitle(PT + "5103"));
    assertEquals("6 issues, newest first", browser.text("issues-summary"));
    assertEquals(
        Boolean.TRUE,
        browser.script("return window.__sameDocument === true"),
        "the page was reloaded");
    assertTrue(browser.text("live").startsWith("live · updated"), browser.text("live"));
    // The filter choices were refreshed too.
    assertTrue(
        browser.texts("#f-framework option").contains("PyTorch (3)"),
        browser.texts("#f-framework option").toString());
    browser.screenshot("issues-live-update");
    browser.assertNoConsoleErrors();
  }

  private void deliver(String event, String fixture) throws Exception {
    byte[] body;
    try (InputStream in =
        StackDashboardBrowserIT.class.getResourceAsStream(
            "/fixtures/dashboard/" + fixture + ".json")) {
      assertNotNull(in, "fixture " + fixture + " missing");
      body = in.readAllBytes();
    }
    HttpResponse<String> response = client.deliver(event, UUID.randomUUID().toString(), body);
    assertEquals(
        2, response.statusCode() / 100, "the receiver refused " + fixture + ": " + response.body());
  }

  /** Each row of the result as its values joined by spaces. */
  private List<String> rows(String statement) throws Exception {
    List<String> rows = new ArrayList<>();
    for (JsonNode row : client.cypher(statement, Map.of())) {
      List<String> values = new ArrayList<>();
      row.path("row").forEach(v -> values.add(v.asText()));
      rows.add(String.join(" ", values));
    }
    return rows;
  }

  /** A count for a wait: -1 while Neo4j does not answer. */
  private long count(String statement) {
    return count(statement, Map.of());
  }

  private long count(String statement, Map<String, Object> parameters) {
    try {
      return client.count(statement, parameters);
    } catch (Exception e) {
      return -1;
    }
  }

  private boolean healthy() {
    try {
      return client.health().statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }
}
