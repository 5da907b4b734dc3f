package dev.faultline.dashboard.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard page in Debian's headless Chromium ({@code chromium} and {@code chromium-driver}),
 * for browser tests of any server that registers the dashboard: a fresh profile per session, the
 * browser console captured, and helpers that read the rendered page (text, table cells, Chart.js
 * data) and wait for the page's own render markers ({@code body[data-rendered]}, {@code
 * body[data-live]}). Published in the dashboard's test-jar (only this package).
 *
 * <p>Start with {@link #assumeInstalled()} first: it skips (JUnit assumption, not failure) where
 * the browser is missing.
 */
public final class DashboardBrowser implements AutoCloseable {
  public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path profile;
  private final String base;
  private final Path screenshots;
  private final Duration wait;

  private DashboardBrowser(
      ChromeDriver driver, Path profile, String base, Path screenshots, Duration wait) {
    this.driver = driver;
    this.profile = profile;
    this.base = base;
    this.screenshots = screenshots;
    this.wait = wait;
  }

  /**
   * Skips the calling test or class unless Chromium and its driver are installed where Debian puts
   * them.
   */
  public static void assumeInstalled() {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Browser test skipped: needs Debian's chromium and chromium-driver at "
            + CHROMIUM
            + " and "
            + CHROMEDRIVER
            + " (apt-get install -y chromium chromium-driver; .ci/run installs them)");
  }

  /**
   * Starts a headless browser for the dashboard served at {@code base} (e.g. {@code
   * http://127.0.0.1:8080}).
   *
   * @param screenshots directory for {@link #screenshot}, created if missing
   * @param wait how long each wait for the page lasts before it fails
   */
  public static DashboardBrowser start(String base, Path screenshots, Duration wait)
      throws IOException {
    assumeInstalled();
    Files.createDirectories(screenshots);
    Path profile = Files.createTempDirectory("faultline-chromium-profile");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,1800",
        "--user-data-dir=" + profile);
    options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    try {
      ChromeDriver driver = new ChromeDriver(service, options);
      driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
      return new DashboardBrowser(driver, profile, base, screenshots, wait);
    } catch (RuntimeException e) {
      deleteTree(profile);
      throw e;
    }
  }

  /** The underlying WebDriver, for what the helpers do not cover. */
  public ChromeDriver driver() {
    return driver;
  }

  /**
   * Loads the page at a fragment (e.g. {@code #overview}) and waits for its first render and the
   * live event stream.
   */
  public void open(String fragment) {
    // Via a blank page, so a fragment change is a fresh load and not an in-page navigation.
    driver.get("about:blank");
    driver.get(base + "/" + fragment);
    new WebDriverWait(driver, wait)
        .withMessage("the page never rendered " + fragment)
        .until(
            b ->
                !String.valueOf(b.findElement(By.tagName("body")).getAttribute("data-rendered"))
                        .equals("null")
                    && "ready".equals(b.findElement(By.tagName("body")).getAttribute("data-live")));
    assertFalse(
        "error".equals(driver.findElement(By.tagName("body")).getAttribute("data-rendered")),
        text("error"));
  }

  /**
   * Waits until the view has rendered the current fragment, which must contain {@code expected}.
   */
  public void waitForRender(String view, String expected) {
    new WebDriverWait(driver, wait)
        .withMessage(
            () -> "view " + view + " with " + expected + " never rendered; error: " + text("error"))
        .until(
            b ->
                Boolean.TRUE.equals(
                    script(
                        "return location.hash.includes(arguments[0]) && document.body.dataset.rendered === arguments[1]"
                            + " && document.body.dataset.renderedHash === location.hash",
                        expected,
                        view)));
  }

  /**
   * Waits until {@code condition} holds (polled in the test's thread), failing with {@code what} at
   * the deadline.
   */
  public void await(String what, Duration timeout, BooleanSupplier condition) {
    new WebDriverWait(driver, timeout).withMessage(what).until(b -> condition.getAsBoolean());
  }

  /** Picks the option with {@code value} in the select with this id, as a user would. */
  public void select(String id, String value) {
    new Select(driver.findElement(By.id(id))).selectByValue(value);
  }

  /**
   * Picks the option with {@code value} in the select with this id, then waits for {@link
   * #waitForRender}.
   */
  public void selectAndWait(String id, String value, String view, String expected) {
    select(id, value);
    waitForRender(view, expected);
  }

  /**
   * Sets a date input as a user's pick would (typing depends on the browser's locale) and fires its
   * change.
   */
  public void pickDate(String id, String isoDate) {
    script(
        "const i = document.getElementById(arguments[0]); i.value = arguments[1];"
            + " i.dispatchEvent(new Event('change')); return null",
        id,
        isoDate);
  }

  /**
   * Drops what the console logged so far, so the next {@link #assertNoConsoleErrors} sees only what
   * follows.
   */
  public void discardConsole() {
    driver.manage().logs().get(LogType.BROWSER);
  }

  /**
   * Fails when the browser console logged an error since the last call (or {@link
   * #discardConsole}).
   */
  public void assertNoConsoleErrors() {
    List<LogEntry> errors =
        driver.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
            .toList();
    assertTrue(errors.isEmpty(), "console errors: " + errors);
  }

  /** Saves the visible page as {@code name.png} in the screenshot directory. */
  public Path screenshot(String name) throws IOException {
    File png = driver.getScreenshotAs(OutputType.FILE);
    Path target = screenshots.resolve(name + ".png");
    Files.copy(png.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  public Object script(String js, Object... args) {
    return driver.executeScript(js, args);
  }

  /** The labels of the Chart.js chart drawn on the canvas with this id. */
  @SuppressWarnings("unchecked")
  public List<String> chartLabels(String canvas) {
    return (List<String>)
        script("return Chart.getChart(document.getElementById(arguments[0])).data.labels", canvas);
  }

  /**
   * The first dataset's values of the Chart.js chart on the canvas with this id, rounded to one
   * decimal.
   */
  @SuppressWarnings("unchecked")
  public List<Double> chartNumbers(String canvas) {
    List<Object> raw =
        (List<Object>)
            script(
                "return Chart.getChart(document.getElementById(arguments[0])).data.datasets[0].data",
                canvas);
    return raw.stream().map(o -> Math.round(((Number) o).doubleValue() * 10) / 10.0).toList();
  }

  /** How many datasets the Chart.js chart on the canvas with this id draws. */
  public long chartDatasets(String canvas) {
    return ((Number)
            script(
                "return Chart.getChart(document.getElementById(arguments[0])).data.datasets.length",
                canvas))
        .longValue();
  }

  /** The rendered text of the element with this id. */
  public String text(String id) {
    return textOf("#" + id);
  }

  /** The rendered text of the first element {@code css} selects. */
  public String cell(String css) {
    return textOf(css);
  }

  public int rows(String css) {
    return ((Number) script("return document.querySelectorAll(arguments[0]).length", css))
        .intValue();
  }

  /**
   * The rendered texts of the elements {@code css} selects, read in one script (see {@link
   * #attributes}).
   */
  @SuppressWarnings("unchecked")
  public List<String> texts(String css) {
    return (List<String>)
        script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText.trim())",
            css);
  }

  private String textOf(String css) {
    Object text =
        script(
            "const e = document.querySelector(arguments[0]); return e === null ? null : e.innerText.trim()",
            css);
    if (text == null) {
      throw new AssertionError("no element matches " + css + " on " + driver.getCurrentUrl());
    }
    return (String) text;
  }

  // The dashboard's tables, read by what their rows and cells are marked with (data-* attributes,
  // classes).

  /** This deployment's figure in the headline table's row of {@code metric} (e.g. {@code bugs}). */
  public String headline(String metric) {
    return headline(metric, "this");
  }

  /**
   * A column ({@code this}, {@code seed}, {@code coverage}) of the headline table's row of {@code
   * metric}.
   */
  public String headline(String metric, String column) {
    return cell("#headline-table tr[data-metric=" + metric + "] td." + column);
  }

  /** The releases table's rows, by release id ({@code DeepSpeed@0.14.1}), in the order shown. */
  public List<String> releases() {
    return attributes("#releases-table tbody tr", "data-release");
  }

  /** The release ids of the releases table's selected rows. */
  public List<String> selectedReleases() {
    return attributes("#releases-table tr.selected", "data-release");
  }

  /** The trends table's categories, in the order shown. */
  public List<String> trendCategories() {
    return texts("#trends-table tbody td:first-child");
  }

  /** The trends table's counts, in the order shown. */
  public List<String> trendCounts() {
    return texts("#trends-table tbody td.num");
  }

  /** The heat map's cell of a stage and a symptom. */
  public String heatmap(String stage, String symptom) {
    return cell("#heatmap td[data-stage=" + stage + "][data-symptom=" + symptom + "]");
  }

  /** The fix-pattern table's cell of a symptom and a fix pattern. */
  public String fixPattern(String symptom, String fixPattern) {
    return cell(
        "#fix-patterns td[data-symptom=" + symptom + "][data-fix-pattern=" + fixPattern + "]");
  }

  /** The fix-pattern table's symptoms (its rows), in the order shown. */
  public List<String> fixPatternSymptoms() {
    return attributes("#fix-patterns tbody tr", "data-symptom");
  }

  /** The issue table's rows, by issue id, in the order shown. */
  public List<String> issueIds() {
    return attributes("#issue-table tbody tr", "data-issue");
  }

  /** The title shown in the issue table's row of {@code issueId}. */
  public String issueTitle(String issueId) {
    return cell("#issue-table tr[data-issue='" + issueId + "'] td.title");
  }

  /** The label shown in the drill-down's row of {@code dimension} (e.g. {@code symptom}). */
  public String label(String dimension) {
    return cell("#issue-labels tr[data-dimension=" + dimension + "] td:nth-child(2)");
  }

  /** Read in one script, so a re-render between element look-ups cannot leave a stale reference. */
  @SuppressWarnings("unchecked")
  public List<String> attributes(String css, String attribute) {
    return (List<String>)
        script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]))",
            css,
            attribute);
  }

  /** Quits the browser and deletes its profile. */
  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      deleteTree(profile);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
