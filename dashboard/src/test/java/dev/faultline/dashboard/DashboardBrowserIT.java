package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.dashboard.testing.DashboardBrowser;
import dev.faultline.graph.testing.SharedNeo4j;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in real headless Chromium ({@link DashboardBrowser}) against a real Javalin server
 * and a real Neo4j holding the {@link KnownGraph}: every view loads without console errors, its
 * charts and tables show the graph's numbers, filters change them, markup in titles stays text, and
 * an issue written during the test appears without a reload. A screenshot of each view is saved
 * under {@code target/screenshots/}.
 *
 * <p>Skipped (not failed) where {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is
 * missing.
 */
@ExtendWith(SharedNeo4j.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {
  static final Duration WAIT = Duration.ofSeconds(20);

  private KnownGraph graph;
  private TestServer server;
  private DashboardBrowser browser;

  @BeforeAll
  void start(Driver driver) throws IOException {
    DashboardBrowser.assumeInstalled();
    graph = new KnownGraph(driver);
    graph.reset();
    server = new TestServer(driver);
    browser =
        DashboardBrowser.start(
            server.base(),
            Path.of(System.getProperty("basedir", "."), "target", "screenshots"),
            WAIT);
  }

  @AfterAll
  void stop() throws IOException {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  @BeforeEach
  void noEarlierConsoleErrors() {
    browser.discardConsole();
  }

  @Test
  @Order(1)
  void overviewShowsEstimatesWithIntervalsAndTheSeedsFiguresInOneTable() throws IOException {
    browser.open("#overview");
    // every card an estimate by default: #204 (its BUG label below the bar) counts too
    assertTrue(browser.headline("bugs").startsWith("≈ 8 ("), browser.headline("bugs"));
    assertTrue(
        browser.headline("bugs", "method").startsWith("estimated (pcc"),
        browser.headline("bugs", "method"));
    assertTrue(browser.text("ds-summary").startsWith("71% ("), browser.text("ds-summary"));
    assertTrue(browser.text("ds-summary").endsWith("(P2: 45.1%)"), browser.text("ds-summary"));
    assertEquals(
        List.of("All", "DeepSpeed", "PyTorch", "P2 (seed)"), browser.chartLabels("ds-chart"));
    assertEquals(71.4, browser.chartNumbers("ds-chart").get(0));
    assertEquals(45.1, browser.chartNumbers("ds-chart").get(3));
    assertEquals(List.of(2.0, 2.0, 1.0, 3.0), browser.chartNumbers("releases-chart"));
    assertEquals("DeepSpeed 0.14.1 (2024-03-01)", browser.chartLabels("releases-chart").get(1));
    assertEquals(
        "≈ 8 bug reports expected filed against 4 releases", browser.text("releases-summary"));
    assertEquals(4, browser.releases().size());
    assertTrue(
        browser
            .cell("#releases-table tr[data-release='PyTorch@2.3.0'] td.bugs")
            .startsWith("≈ 3 ("),
        browser.cell("#releases-table tr[data-release='PyTorch@2.3.0'] td.bugs"));
    // one table of the studies' figures: the published figure beside this data's estimate
    assertEquals(
        "45.1%",
        browser.cell("#studies-table tr[data-figure='p2-distributed-specific'] td.published"));
    assertTrue(
        browser
            .cell("#studies-table tr[data-figure='p2-distributed-specific'] td.this")
            .startsWith("71.4% ("));
    assertEquals(
        0, browser.driver().findElements(By.cssSelector("#headline-table td.seed")).size());
    // the release view beside the release list: nothing in the small fixture moved significantly
    assertTrue(
        browser
                .text("shifts-summary")
                .startsWith(
                    "Symptoms of bug reports in the 28 days from each of the newest 4 releases (a younger"
                        + " release: the days so far) against the 56 days before")
            && browser.text("shifts-summary").endsWith(": none moved"),
        browser.text("shifts-summary"));
    assertEquals(0, browser.driver().findElements(By.cssSelector("#shifts-table tbody tr")).size());
    // where the labels of the view come from: the bug reports' symptom labels by source and version
    assertEquals(
        "38% model "
            + KnownGraph.MODEL_VERSION
            + ", 38% "
            + KnownGraph.RULES_VERSION
            + ", 13% human, 13% "
            + KnownGraph.LLM_VERSION,
        mix("symptom"));
    assertEquals(
        "Labels of the 8 bug reports in scope, by the source and version that gave them",
        browser.text("label-mix-summary"));
    browser.screenshot("overview");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(2)
  void frameworkAndReleaseFiltersChangeWhatIsShown() throws IOException {
    browser.open("#overview");
    browser.selectAndWait("f-framework", "PyTorch", "overview", "framework=PyTorch");
    assertTrue(browser.text("ds-summary").startsWith("67% ("), browser.text("ds-summary"));
    assertEquals(1, browser.releases().size());
    assertTrue(browser.headline("bugs").startsWith("≈ 3 ("), browser.headline("bugs"));
    // the mix follows the filter: PyTorch's labels are the learned layer's, one kept from an older
    // artefact
    assertEquals("100% model " + KnownGraph.MODEL_VERSION, mix("symptom"));
    assertEquals(
        "67% model " + KnownGraph.MODEL_VERSION + ", 33% model " + KnownGraph.OLD_MODEL_VERSION,
        mix("stage"));
    browser.screenshot("overview-pytorch");

    browser.selectAndWait("f-framework", "DeepSpeed", "overview", "framework=DeepSpeed");
    browser.selectAndWait(
        "f-release", "DeepSpeed@0.14.1", "overview", "release=DeepSpeed%400.14.1");
    assertTrue(browser.headline("bugs").startsWith("≈ 2 ("), browser.headline("bugs"));
    assertEquals(List.of("DeepSpeed@0.14.1"), browser.selectedReleases());
    assertTrue(browser.text("scope-summary").contains("release DeepSpeed@0.14.1"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(3)
  void trendsAndHeatMapRenderFromTheDataAndFollowTheDimension() throws IOException {
    browser.open("#trends");
    assertEquals(
        List.of("HANG", "OUT_OF_MEMORY", "CHECKPOINT_FAILURE", "INCORRECT_OUTPUT"),
        browser.trendCategories());
    // estimates: #204's HANG counts too; each series with its 90% band (two datasets)
    assertEquals(List.of("4", "2", "1", "1"), browser.trendCounts());
    assertEquals(12L, browser.chartDatasets("trends-chart"));
    // by default the heat map holds expected counts: #204, a HANG in COMMUNICATION below the bar,
    // counts with its probability (a point mass here: the known graph stores no distributions)
    assertEquals("3", browser.heatmap("COMMUNICATION", "HANG"));
    assertEquals("1", browser.heatmap("INITIALIZATION", "HANG"));
    assertTrue(
        browser
            .text("heatmap-summary")
            .startsWith("≈ 8 bug reports expected with a known stage and symptom"),
        browser.text("heatmap-summary"));
    // the shares card: an estimate with its interval, the count of labels above the bar beside it
    // (the calibration error measured out of fold widens the interval beyond the point masses)
    assertTrue(shares("HANG", 2).startsWith("≈ 4 ("), shares("HANG", 2));
    assertTrue(shares("HANG", 3).startsWith("50% ("), shares("HANG", 3));
    assertEquals("3", shares("HANG", 4));
    // the global "Labels counted" switch is the one way to count labels: the heat map and the
    // shares card follow it (they have no switch of their own)
    assertEquals(0, browser.driver().findElements(By.cssSelector("#h-mode, #s-mode")).size());
    browser.selectAndWait("f-confidence", "default", "trends", "minConfidence=default");
    assertEquals("7 bug reports with a known stage and symptom", browser.text("heatmap-summary"));
    assertEquals("2", browser.heatmap("COMMUNICATION", "HANG"));
    assertEquals("3", shares("HANG", 2));
    assertTrue(
        browser.text("shares-summary").contains(" labels counted among 9 issues in scope"),
        browser.text("shares-summary"));
    browser.screenshot("trends");

    browser.selectAndWait("t-dimension", "stage", "trends", "dimension=stage");
    assertEquals("COMMUNICATION", browser.trendCategories().get(0));
    // the label mix stands out for the dimension the chart shows
    assertEquals(
        List.of("stage"), browser.attributes("#label-mix-list li.chosen", "data-dimension"));
    // A date input's typing format depends on the browser's locale: set the value as a user's pick
    // would.
    browser.pickDate("f-from", "2024-03-01");
    browser.waitForRender("trends", "from=2024-03-01");
    assertEquals("5 bug reports with a known stage and symptom", browser.text("heatmap-summary"));
    browser.assertNoConsoleErrors();
  }

  /** A cell of the shares table's row of a code (1-based column). */
  private String shares(String code, int column) {
    return browser
        .driver()
        .findElement(
            By.cssSelector(
                "#shares-table tr[data-code='" + code + "'] td:nth-child(" + column + ")"))
        .getText();
  }

  @Test
  @Order(4)
  void alertsComeNewestFirstWithExplanationsAndExampleIssues() throws IOException {
    browser.open("#alerts");
    List<WebElement> alerts = browser.driver().findElements(By.cssSelector("#alert-list li"));
    assertEquals(2, alerts.size());
    assertEquals("alert-oom-pt", alerts.get(0).getAttribute("data-alert"));
    assertEquals(
        "HANG in DeepSpeed: 2 issues this week against 0.3 expected",
        alerts.get(1).findElement(By.className("explanation")).getText());
    assertEquals(2, alerts.get(1).findElements(By.className("issue-link")).size());
    // the grouped alert lists every dimension it moved, strongest first; a single one lists none
    List<WebElement> moved = alerts.get(1).findElements(By.className("move"));
    assertEquals(2, moved.size());
    assertEquals(
        "· DeepSpeed: 2 issues of stage communication in 7 days; about 0.6 expected",
        moved.get(1).getText());
    assertEquals(0, alerts.get(0).findElements(By.className("move")).size());
    browser.screenshot("alerts");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(5)
  void issueListShowsMarkupInTitlesAsTextAndFollowsTheReleaseFilter() throws IOException {
    browser.open("#issues");
    assertEquals(9, browser.issueIds().size());
    assertEquals("9 issues, newest first", browser.text("issues-summary"));
    assertEquals(KnownGraph.SCRIPT_TITLE, browser.issueTitle("deepspeedai/DeepSpeed#103"));
    assertTrue(browser.rows("#issue-table b, #issue-table script") == 0);
    assertNull(browser.script("return window.__pwned === undefined ? null : window.__pwned"));
    browser.screenshot("issues");

    browser.selectAndWait("f-release", "DeepSpeed@0.14.1", "issues", "release=");
    assertEquals(
        List.of(
            "deepspeedai/DeepSpeed#105", "deepspeedai/DeepSpeed#104", "deepspeedai/DeepSpeed#103"),
        browser.issueIds());
    // the label mix of the listed issues: #105's kind is a person's
    assertEquals("67% " + KnownGraph.RULES_VERSION + ", 33% human", mix("kind"));
    assertEquals(
        "Labels of the 3 issues in the list, by the source and version that gave them",
        browser.text("label-mix-summary"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(6)
  void issueDrillDownShowsLabelsEvidenceHumanGivenFixesAndSimilarIssues() throws IOException {
    browser.open("#issues");
    browser
        .driver()
        .findElement(
            By.cssSelector("#issue-table tr[data-issue='pytorch/pytorch#201'] a.issue-link"))
        .click();
    browser.waitForRender("issue", "id=");
    assertEquals("DDP allreduce hangs with NCCL 2.20", browser.text("issue-title"));
    assertEquals(
        "https://github.com/pytorch/pytorch/issues/201",
        browser.driver().findElement(By.id("issue-link")).getAttribute("href"));
    assertEquals("HANG", browser.label("symptom"));
    assertEquals("0.95", browser.cell("#issue-labels tr[data-dimension=symptom] td.num"));
    assertEquals(
        "title says 'DDP'", browser.cell("#issue-labels tr[data-dimension=symptom] td.evidence"));
    assertEquals(List.of("pytorch/pytorch#210"), browser.attributes("#issue-fixes li", "data-pr"));
    assertEquals(
        "deepspeedai/DeepSpeed#101",
        browser.attributes("#issue-similar > li", "data-issue").get(0));
    assertEquals(
        List.of("deepspeedai/DeepSpeed#110"),
        browser.attributes("#issue-similar > li:first-child li", "data-pr"));
    // what resolved it: the merged fix with its title, fix pattern and changed lines
    assertEquals("fixed", browser.attributes("#issue-similar > li", "data-resolution").get(0));
    String fix = browser.cell("#issue-similar > li:first-child .resolution.fixed li");
    assertTrue(
        fix.contains("Raise the allgather timeout for ZeRO-3")
            && fix.contains("fix pattern DISTRIBUTED_TUNING")
            && fix.contains("4 changed lines (+3 −1)"),
        fix);
    assertTrue(
        browser
            .cell("#issue-similar > li:first-child pre.error-lines")
            .startsWith("torch.distributed.DistBackendError: NCCL watchdog timeout"));
    browser.screenshot("issue");

    browser.open(
        "#issue?id=" + URLEncoder.encode("deepspeedai/DeepSpeed#101", StandardCharsets.UTF_8));
    assertEquals("rules", browser.cell("#issue-labels tr[data-dimension=stage] td.source"));
    assertEquals(
        KnownGraph.RULES_VERSION,
        browser.cell("#issue-labels tr[data-dimension=stage] td.version"));
    assertEquals(
        "human (GitHub label)", browser.cell("#issue-labels tr[data-dimension=symptom] td.source"));
    assertEquals("human", browser.cell("#issue-labels tr[data-dimension=symptom] td.version"));

    // a language model's labels, and a label kept from an older artefact with when it was given
    browser.open(
        "#issue?id=" + URLEncoder.encode("deepspeedai/DeepSpeed#102", StandardCharsets.UTF_8));
    assertEquals(
        KnownGraph.LLM_SOURCE, browser.cell("#issue-labels tr[data-dimension=symptom] td.source"));
    assertEquals(
        KnownGraph.LLM_VERSION,
        browser.cell("#issue-labels tr[data-dimension=symptom] td.version"));
    assertTrue(
        browser.text("issue-meta").endsWith("(" + KnownGraph.LLM_SOURCE + ", prompt prompt-test)"),
        browser.text("issue-meta"));
    // no mix card on one issue's page
    assertEquals(
        Boolean.TRUE, browser.script("return document.getElementById('label-mix').hidden"));
    browser.open("#issue?id=" + URLEncoder.encode("pytorch/pytorch#202", StandardCharsets.UTF_8));
    assertEquals("model", browser.cell("#issue-labels tr[data-dimension=stage] td.source"));
    assertEquals(
        KnownGraph.OLD_MODEL_VERSION,
        browser.cell("#issue-labels tr[data-dimension=stage] td.version"));
    assertEquals(
        KnownGraph.OLD_STAGE_AT.substring(0, 10),
        browser.cell("#issue-labels tr[data-dimension=stage] td.labelled-at"));
    browser.screenshot("issue-provenance");
    browser.assertNoConsoleErrors();
  }

  /** The label-mix card's line of a dimension. */
  private String mix(String dimension) {
    return browser.cell("#label-mix-list li[data-dimension=" + dimension + "] .mix-text");
  }

  @Test
  @Order(7)
  void labelsAreCountedOnlyWhenTheSwitchSaysSoWithTheCoverageBeside() throws IOException {
    browser.open("#overview");
    assertTrue(browser.headline("bugs").startsWith("≈ 8 ("), browser.headline("bugs"));
    assertEquals(
        "none: estimates with 90% intervals", browser.cell("#f-confidence option:checked"));
    assertTrue(
        browser.text("scope-summary").contains("estimates with 90% intervals"),
        browser.text("scope-summary"));
    assertEquals("9 issues, 78% labelled with ≥ 90% precision", browser.text("headline-coverage"));

    browser.selectAndWait("f-confidence", "default", "overview", "minConfidence=default");
    assertEquals("7", browser.headline("bugs"));
    assertTrue(browser.headline("bugs", "method").startsWith("labels counted"));
    assertEquals(
        "7 bug reports (labels counted) filed against 4 releases",
        browser.text("releases-summary"));
    assertEquals(List.of(2.0, 2.0, 1.0, 2.0), browser.chartNumbers("releases-chart"));
    assertTrue(browser.text("ds-summary").startsWith("67% of"), browser.text("ds-summary"));
    browser.screenshot("overview-coverage");

    browser.selectAndWait("f-confidence", "all", "overview", "minConfidence=all");
    assertEquals("8", browser.headline("bugs"));
    assertEquals("9 issues, 89% labelled (all labels counted)", browser.text("headline-coverage"));
    assertEquals(List.of(2.0, 2.0, 1.0, 3.0), browser.chartNumbers("releases-chart"));
    assertTrue(
        browser.text("scope-summary").contains("counting every label"),
        browser.text("scope-summary"));
    browser.screenshot("overview-all-labels");

    // In the URL, so a link keeps it; switching back brings the estimates back.
    browser.open("#trends?minConfidence=default");
    assertEquals("default", browser.script("return document.getElementById('f-confidence').value"));
    assertEquals("3", browser.cell("#trends-table tr[data-category=HANG] td.num"));
    assertFalse(browser.text("heatmap-summary").startsWith("≈"), browser.text("heatmap-summary"));
    assertEquals("2", browser.heatmap("COMMUNICATION", "HANG"));
    assertEquals("9 issues, 78% labelled with ≥ 90% precision", browser.text("heatmap-coverage"));
    browser.selectAndWait("f-confidence", "", "trends", "#trends");
    assertEquals("#trends", browser.script("return location.hash"));
    assertEquals("4", browser.cell("#trends-table tr[data-category=HANG] td.num"));
    browser.screenshot("trends-coverage");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(8)
  void fixPatternsPerSymptomShowTheFixtureCountsAndTheSwitchCountsEveryLabel() throws IOException {
    // by default expected fixes (#31): every fix weighs its probabilities, so the cells are filled
    browser.open("#fixes");
    assertTrue(!browser.fixPattern("HANG", "DISTRIBUTED_TUNING").isEmpty());
    String estimated = browser.text("fixes-summary");
    assertTrue(
        estimated.matches(
            "≈ \\d+\\.\\d merged fixes expected over \\d+ symptoms and \\d+ fix patterns"),
        estimated);
    // labels counted at the default bar (the "Labels counted" switch)
    browser.open("#fixes?minConfidence=default");
    assertEquals(List.of("HANG", "CHECKPOINT_FAILURE"), browser.fixPatternSymptoms());
    assertEquals("1", browser.fixPattern("HANG", "DISTRIBUTED_TUNING"));
    assertEquals("1", browser.fixPattern("HANG", "VERSION_DEPENDENCY_MANAGEMENT"));
    assertEquals("1", browser.fixPattern("CHECKPOINT_FAILURE", "CONDITIONAL_LOGIC"));
    assertEquals("", browser.fixPattern("CHECKPOINT_FAILURE", "DISTRIBUTED_TUNING"));
    assertEquals("2", browser.cell("#fix-patterns tr[data-symptom=HANG] td.total"));
    assertEquals(
        "3 merged fixes over 2 symptoms and 3 fix patterns", browser.text("fixes-summary"));
    assertEquals(
        "4 merged fixes, 75% labelled with ≥ 90% precision", browser.text("fixes-coverage"));
    assertTrue(
        browser
            .script(
                "return document.querySelector('#fix-patterns td[data-symptom=CHECKPOINT_FAILURE]"
                    + "[data-fix-pattern=CONDITIONAL_LOGIC]').title")
            .toString()
            .contains("median 25 changed lines"));
    browser.screenshot("fixes");

    // #211 fixes #204, whose labels are below the bar: counted only with every label.
    browser.selectAndWait("f-confidence", "all", "fixes", "minConfidence=all");
    assertEquals("2", browser.fixPattern("HANG", "DISTRIBUTED_TUNING"));
    assertEquals("3", browser.cell("#fix-patterns tr[data-symptom=HANG] td.total"));
    assertEquals(
        "4 merged fixes, 100% labelled (all labels counted)", browser.text("fixes-coverage"));
    browser.screenshot("fixes-all-labels");

    browser.selectAndWait("f-confidence", "default", "fixes", "minConfidence=default");
    assertEquals("1", browser.fixPattern("HANG", "DISTRIBUTED_TUNING"));
    browser.selectAndWait("f-framework", "PyTorch", "fixes", "framework=PyTorch");
    assertEquals(List.of("HANG"), browser.fixPatternSymptoms());
    assertEquals("1", browser.fixPattern("HANG", "VERSION_DEPENDENCY_MANAGEMENT"));
    assertEquals(
        "2 merged fixes, 50% labelled with ≥ 90% precision", browser.text("fixes-coverage"));
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(9)
  void issueWrittenDuringTheTestAppearsWithoutAReload() throws IOException {
    browser.open("#issues");
    browser.script("window.__sameDocument = true; return null");
    graph.addBug(
        "pytorch/pytorch",
        "PyTorch",
        203,
        "Live: allgather hangs after resume",
        "2024-06-01T00:00:00Z");
    browser.await(
        "the new issue never appeared in the list",
        WAIT,
        () -> browser.issueIds().contains("pytorch/pytorch#203"));
    assertEquals("pytorch/pytorch#203", browser.issueIds().get(0));
    assertEquals(
        Boolean.TRUE,
        browser.script("return window.__sameDocument === true"),
        "the page was reloaded");
    assertTrue(browser.text("live").startsWith("live · updated"));
    browser.screenshot("issues-live-update");
    browser.assertNoConsoleErrors();
  }

  @Test
  @Order(10)
  void findSimilarSearchesAPastedReportShowsWhatResolvedEachAndFollowsNewIssues()
      throws IOException {
    browser.open("#similar");
    assertEquals(
        List.of("", KnownGraph.DS, KnownGraph.PT),
        browser.attributes("#similar-framework option", "value"));
    browser.driver().findElement(By.id("similar-title")).sendKeys("Host OOM when offloading");
    browser
        .driver()
        .findElement(By.id("similar-text"))
        .sendKeys("The host runs out of memory with offload_optimizer and ZeRO-2.");
    browser.driver().findElement(By.id("similar-submit")).click();
    browser.await(
        "the search never showed its results",
        WAIT,
        () -> "1".equals(browser.script("return document.body.dataset.searched || null")));
    assertTrue(
        browser.text("similar-summary").contains("by words and meaning"),
        browser.text("similar-summary"));
    assertEquals(
        "deepspeedai/DeepSpeed#102",
        browser.attributes("#paste-similar > li", "data-issue").get(0));
    // open and unfixed, answered by a maintainer: the answer is shown
    assertEquals("answered", browser.attributes("#paste-similar > li", "data-resolution").get(0));
    String answer = browser.cell("#paste-similar > li:first-child .resolution.answer");
    assertTrue(
        answer.startsWith("Maintainer answer by ds-maintainer, 2024-02-12")
            && answer.contains("Set pin_memory to false"),
        answer);
    browser.screenshot("similar");

    // a bug report written now is found by the search already on the page, without a reload
    graph.addBug(
        "deepspeedai/DeepSpeed",
        "DeepSpeed",
        107,
        "Host OOM when offloading the optimizer on 8 nodes",
        "2024-06-02T00:00:00Z");
    browser.await(
        "the new issue never appeared among the results",
        WAIT,
        () ->
            browser
                .attributes("#paste-similar > li", "data-issue")
                .contains("deepspeedai/DeepSpeed#107"));
    browser.assertNoConsoleErrors();
  }
}
