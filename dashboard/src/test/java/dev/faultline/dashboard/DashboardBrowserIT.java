package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) against a real
 * Javalin server and a real Neo4j holding the {@link KnownGraph}: every view loads without console errors, its charts
 * and tables show the graph's numbers, filters change them, markup in titles stays text, and an issue written during
 * the test appears without a reload. A screenshot of each view is saved under {@code target/screenshots/}.
 *
 * <p>Skipped (not failed) where {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is missing.
 */
@ExtendWith(SharedGraph.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Duration WAIT = Duration.ofSeconds(20);

  private KnownGraph graph;
  private TestServer server;
  private ChromeDriver browser;
  private Path profile;
  private Path screenshots;

  @BeforeAll
  void start(Driver driver) throws IOException {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Browser test skipped: needs Debian's chromium and chromium-driver at " + CHROMIUM + " and " + CHROMEDRIVER
            + " (apt-get install -y chromium chromium-driver; .ci/run installs them)");
    graph = new KnownGraph(driver);
    graph.reset();
    server = new TestServer(driver);
    screenshots = Path.of(System.getProperty("basedir", "."), "target", "screenshots");
    Files.createDirectories(screenshots);
    profile = Files.createTempDirectory("faultline-chromium-profile");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1800",
        "--user-data-dir=" + profile);
    options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  @AfterAll
  void stop() throws IOException {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
    if (profile != null) {
      try (Stream<Path> paths = Files.walk(profile)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @BeforeEach
  void noEarlierConsoleErrors() {
    browser.manage().logs().get(LogType.BROWSER);
  }

  @Test
  @Order(1)
  void overviewShowsHeadlineFiguresBesideTheSeedsAndChartsFromTheData() throws IOException {
    open("#overview");
    assertEquals("7", cell("#headline-table tr[data-metric=bugs] td.this"));
    assertTrue(cell("#headline-table tr[data-metric=bugs] td.seed").startsWith("849 (P2)"));
    assertEquals("66.7%", cell("#headline-table tr[data-metric=distributedSpecificShare] td.this"));
    assertTrue(cell("#headline-table tr[data-metric=distributedSpecificShare] td.seed").startsWith("45.1% (P2)"));
    assertEquals("66.7% of 6 bugs with a known answer are distributed-specific (P2: 45.1%)", text("ds-summary"));
    assertEquals(List.of("All", "DeepSpeed", "PyTorch", "P2 (seed)"), chartLabels("ds-chart"));
    assertEquals(List.of(66.7, 75.0, 50.0, 45.1), chartNumbers("ds-chart"));
    assertEquals(List.of(2.0, 2.0, 1.0, 2.0), chartNumbers("releases-chart"));
    assertEquals("DeepSpeed 0.14.1 (2024-03-01)", chartLabels("releases-chart").get(1));
    assertEquals("7 bug reports filed against 4 releases", text("releases-summary"));
    assertEquals(4, rows("#releases-table tbody tr"));
    screenshot("overview");
    assertNoConsoleErrors();
  }

  @Test
  @Order(2)
  void frameworkAndReleaseFiltersChangeWhatIsShown() throws IOException {
    open("#overview");
    new Select(browser.findElement(By.id("f-framework"))).selectByValue("PyTorch");
    waitForRender("overview", "framework=PyTorch");
    assertEquals("50.0% of 2 bugs with a known answer are distributed-specific (P2: 45.1%)", text("ds-summary"));
    assertEquals(1, rows("#releases-table tbody tr"));
    assertEquals("2", cell("#headline-table tr[data-metric=bugs] td.this"));
    screenshot("overview-pytorch");

    new Select(browser.findElement(By.id("f-framework"))).selectByValue("DeepSpeed");
    waitForRender("overview", "framework=DeepSpeed");
    new Select(browser.findElement(By.id("f-release"))).selectByValue("DeepSpeed@0.14.1");
    waitForRender("overview", "release=DeepSpeed%400.14.1");
    assertEquals("2", cell("#headline-table tr[data-metric=bugs] td.this"));
    assertEquals(
        "DeepSpeed@0.14.1", browser.findElement(By.cssSelector("#releases-table tr.selected")).getAttribute("data-release"));
    assertTrue(text("scope-summary").contains("release DeepSpeed@0.14.1"));
    assertNoConsoleErrors();
  }

  @Test
  @Order(3)
  void trendsAndHeatMapRenderFromTheDataAndFollowTheDimension() throws IOException {
    open("#trends");
    assertEquals(List.of("HANG", "OUT_OF_MEMORY", "CHECKPOINT_FAILURE", "INCORRECT_OUTPUT"), texts("#trends-table tbody td:first-child"));
    assertEquals(List.of("3", "2", "1", "1"), texts("#trends-table tbody td.num"));
    assertEquals(4L, script("return Chart.getChart(document.getElementById('trends-chart')).data.datasets.length"));
    assertEquals("2", cell("#heatmap td[data-stage=COMMUNICATION][data-symptom=HANG]"));
    assertEquals("1", cell("#heatmap td[data-stage=INITIALIZATION][data-symptom=HANG]"));
    assertEquals("7 bug reports with a known stage and symptom", text("heatmap-summary"));
    screenshot("trends");

    new Select(browser.findElement(By.id("t-dimension"))).selectByValue("stage");
    waitForRender("trends", "dimension=stage");
    assertEquals("COMMUNICATION", texts("#trends-table tbody td:first-child").get(0));
    // A date input's typing format depends on the browser's locale: set the value as a user's pick would.
    script("const i = document.getElementById('f-from'); i.value = '2024-03-01';"
        + " i.dispatchEvent(new Event('change')); return null");
    waitForRender("trends", "from=2024-03-01");
    assertEquals("5 bug reports with a known stage and symptom", text("heatmap-summary"));
    assertNoConsoleErrors();
  }

  @Test
  @Order(4)
  void alertsComeNewestFirstWithExplanationsAndExampleIssues() throws IOException {
    open("#alerts");
    List<WebElement> alerts = browser.findElements(By.cssSelector("#alert-list li"));
    assertEquals(2, alerts.size());
    assertEquals("alert-oom-pt", alerts.get(0).getAttribute("data-alert"));
    assertEquals(
        "HANG in DeepSpeed: 2 issues this week against 0.3 expected",
        alerts.get(1).findElement(By.className("explanation")).getText());
    assertEquals(2, alerts.get(1).findElements(By.className("issue-link")).size());
    screenshot("alerts");
    assertNoConsoleErrors();
  }

  @Test
  @Order(5)
  void issueListShowsMarkupInTitlesAsTextAndFollowsTheReleaseFilter() throws IOException {
    open("#issues");
    assertEquals(8, rows("#issue-table tbody tr"));
    assertEquals("8 issues, newest first", text("issues-summary"));
    assertEquals(
        KnownGraph.SCRIPT_TITLE, cell("#issue-table tr[data-issue='deepspeedai/DeepSpeed#103'] td.title"));
    assertTrue(browser.findElements(By.cssSelector("#issue-table b, #issue-table script")).isEmpty());
    assertNull(script("return window.__pwned === undefined ? null : window.__pwned"));
    screenshot("issues");

    new Select(browser.findElement(By.id("f-release"))).selectByValue("DeepSpeed@0.14.1");
    waitForRender("issues", "release=");
    assertEquals(
        List.of("deepspeedai/DeepSpeed#105", "deepspeedai/DeepSpeed#104", "deepspeedai/DeepSpeed#103"),
        attributes("#issue-table tbody tr", "data-issue"));
    assertNoConsoleErrors();
  }

  @Test
  @Order(6)
  void issueDrillDownShowsLabelsEvidenceHumanGivenFixesAndSimilarIssues() throws IOException {
    open("#issues");
    browser.findElement(By.cssSelector("#issue-table tr[data-issue='pytorch/pytorch#201'] a.issue-link")).click();
    waitForRender("issue", "id=");
    assertEquals("DDP allreduce hangs with NCCL 2.20", text("issue-title"));
    assertEquals("https://github.com/pytorch/pytorch/issues/201", browser.findElement(By.id("issue-link")).getAttribute("href"));
    assertEquals("HANG", cell("#issue-labels tr[data-dimension=symptom] td:nth-child(2)"));
    assertEquals("0.80", cell("#issue-labels tr[data-dimension=symptom] td.num"));
    assertEquals("title says 'DDP'", cell("#issue-labels tr[data-dimension=symptom] td.evidence"));
    assertEquals(List.of("pytorch/pytorch#210"), attributes("#issue-fixes li", "data-pr"));
    assertEquals("deepspeedai/DeepSpeed#101", attributes("#issue-similar > li", "data-issue").get(0));
    assertEquals(List.of("deepspeedai/DeepSpeed#110"), attributes("#issue-similar > li:first-child li", "data-pr"));
    screenshot("issue");

    open("#issue?id=" + java.net.URLEncoder.encode("deepspeedai/DeepSpeed#101", java.nio.charset.StandardCharsets.UTF_8));
    assertEquals("human (GitHub label)", cell("#issue-labels tr[data-dimension=symptom] td:last-child"));
    assertEquals("classifier", cell("#issue-labels tr[data-dimension=stage] td:last-child"));
    assertNoConsoleErrors();
  }

  @Test
  @Order(7)
  void issueWrittenDuringTheTestAppearsWithoutAReload() throws IOException {
    open("#issues");
    script("window.__sameDocument = true; return null");
    graph.addBug("pytorch/pytorch", "PyTorch", 203, "Live: allgather hangs after resume", "2024-06-01T00:00:00Z");
    new WebDriverWait(browser, WAIT)
        .withMessage("the new issue never appeared in the list")
        .until(b -> attributes("#issue-table tbody tr", "data-issue").contains("pytorch/pytorch#203"));
    assertEquals("pytorch/pytorch#203", attributes("#issue-table tbody tr", "data-issue").get(0));
    assertEquals(Boolean.TRUE, script("return window.__sameDocument === true"), "the page was reloaded");
    assertTrue(text("live").startsWith("live · updated"));
    screenshot("issues-live-update");
    assertNoConsoleErrors();
  }

  /** Loads the page at a fragment and waits for its first render and the live event stream. */
  private void open(String fragment) {
    // Via a blank page, so a fragment change is a fresh load and not an in-page navigation.
    browser.get("about:blank");
    browser.get(server.base() + "/" + fragment);
    new WebDriverWait(browser, WAIT)
        .withMessage("the page never rendered " + fragment)
        .until(b -> !String.valueOf(b.findElement(By.tagName("body")).getAttribute("data-rendered")).equals("null")
            && "ready".equals(b.findElement(By.tagName("body")).getAttribute("data-live")));
    assertFalse("error".equals(browser.findElement(By.tagName("body")).getAttribute("data-rendered")), text("error"));
  }

  /** Waits until the view has rendered the current fragment, which must contain {@code expected}. */
  private void waitForRender(String view, String expected) {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "view " + view + " with " + expected + " never rendered; error: " + text("error"))
        .until(
            b ->
                Boolean.TRUE.equals(
                    script(
                        "return location.hash.includes(arguments[0]) && document.body.dataset.rendered === arguments[1]"
                            + " && document.body.dataset.renderedHash === location.hash",
                        expected,
                        view)));
  }

  private void assertNoConsoleErrors() {
    List<LogEntry> errors =
        browser.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
            .toList();
    assertTrue(errors.isEmpty(), "console errors: " + errors);
  }

  private void screenshot(String name) throws IOException {
    File png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(png.toPath(), screenshots.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  private Object script(String js, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(js, args);
  }

  @SuppressWarnings("unchecked")
  private List<String> chartLabels(String canvas) {
    return (List<String>) script("return Chart.getChart(document.getElementById('" + canvas + "')).data.labels");
  }

  @SuppressWarnings("unchecked")
  private List<Double> chartNumbers(String canvas) {
    List<Object> raw =
        (List<Object>) script("return Chart.getChart(document.getElementById('" + canvas + "')).data.datasets[0].data");
    return raw.stream().map(o -> Math.round(((Number) o).doubleValue() * 10) / 10.0).toList();
  }

  private String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private String cell(String css) {
    return browser.findElement(By.cssSelector(css)).getText();
  }

  private int rows(String css) {
    return browser.findElements(By.cssSelector(css)).size();
  }

  private List<String> texts(String css) {
    return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
  }

  /** Read in one script, so a re-render between element look-ups cannot leave a stale reference. */
  @SuppressWarnings("unchecked")
  private List<String> attributes(String css, String attribute) {
    return (List<String>)
        script("return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]))", css, attribute);
  }
}
