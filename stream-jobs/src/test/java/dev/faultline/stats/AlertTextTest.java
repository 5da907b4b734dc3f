package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.domain.Explanations;
import dev.faultline.stats.keys.StatDimensions;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every figure in a generated alert's text can be recomputed from the counts the text states: the
 * expectation the test used (one decimal: the window's other issues of the dimension × s/(1 − s),
 * the share s from the baseline's counts shrunk toward an even share, or Laplace's 1/(N + 2)), the
 * plain baseline after it ("n issues in d days"), weekly rates, the baseline period in months, the
 * CUSUM's p-value from its run length and number of tests, a release's Bonferroni product, and that
 * each decision passed the level it names. The alerts come from the detector in Flink's harness on
 * a seeded stream with a surge, a new pair and a release; the text is parsed, never compared with a
 * stored string.
 */
class AlertTextTest {
  private static final String FW = "deepspeed";
  private static final String[] SYMPTOMS = {"RUNTIME_CRASH", "HANG", "OUT_OF_MEMORY", "UNKNOWN"};
  private static final String[] STAGES = {"COMMUNICATION", "MEMORY", "INITIALIZATION", "UNKNOWN"};

  private static final String NUM = "([0-9.]+(?:e[-+]?[0-9]+)?)";
  private static final String PERIOD = "(the last \\d+ months|the \\d+ days before)";

  /** {@code s = (7 + 10/23)/(340 + 10) = 2.1%, its 7 of the 340 symptom issues of ... shrunk}. */
  private static final String SHARE =
      "s = \\((\\d+) \\+ "
          + NUM
          + "/(\\d+)\\)/\\((\\d+) \\+ "
          + NUM
          + "\\) = "
          + NUM
          + "%, its (\\d+) of the (\\d+) ([a-z -]+) issues of "
          + PERIOD
          + " shrunk toward an even share";

  private static final Pattern SURGE =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) in (\\d+) days to (\\d{4}-\\d\\d-\\d\\d); about "
              + NUM
              + " expected at its share of the (\\d+) other ([a-z -]+) issues in those days \\((\\d+)"
              + " × s/\\(1 − s\\) with "
              + SHARE
              + "\\)\\. At the plain rate of "
              + PERIOD
              + " \\((\\d+) issues in (\\d+) days\\): "
              + NUM
              + "\\.");
  private static final Pattern PAIR =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) with stage ([a-z ]+) in (\\d+) days to \\S+, a pair absent"
              + " from the (\\d+) ([a-z -]+) issues of "
              + PERIOD
              + "; about "
              + NUM
              + " expected at its share of the (\\d+) other [a-z -]+ issues in those days \\((\\d+)"
              + " × s/\\(1 − s\\) with s = "
              + NUM
              + "%( = 1/\\((\\d+) \\+ 2\\), Laplace's rule for a pair never seen|, below Laplace's"
              + " 1/\\((\\d+) \\+ 2\\): the rarer of its category's and its stage's shares)\\)\\.");
  private static final Pattern RELEASE =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) in the (\\d+) days after \\("
              + NUM
              + " a week\\) against (\\d+) in the (\\d+) days before \\("
              + NUM
              + " a week\\); about "
              + NUM
              + " expected at its share of the [a-z -]+ issues \\("
              + SHARE
              + "\\): the larger of the (\\d+) before at their rate \\((\\d+) × (\\d+)/(\\d+) × s = "
              + NUM
              + "\\) and the (\\d+) others after \\((\\d+) × s/\\(1 − s\\) = "
              + NUM
              + "\\)\\. At the plain rate before: "
              + NUM
              + "\\.");
  private static final Pattern CUSUM =
      Pattern.compile(
          "statistic "
              + NUM
              + " \\(alerts at ≥ "
              + NUM
              + "\\); a run this strong arises by chance in this category once in "
              + NUM
              + " days(?: \\("
              + NUM
              + " years\\))?, so one of the framework's (\\d+) tests shows one within a month with"
              + " p = 1 − exp\\(−(\\d+) × 30.44 / "
              + NUM
              + "\\) = "
              + NUM
              + " \\(alerts at ≤ "
              + NUM
              + "(?: = "
              + NUM
              + " × "
              + NUM
              + " / "
              + NUM
              + " \\(its issues a month of the \\d+ that spend the whole [0-9.]+\\))?\\)");
  private static final Pattern BONFERRONI =
      Pattern.compile(
          "p = "
              + NUM
              + "; Bonferroni over the release's (\\d+) tests: (\\d+) × p = "
              + NUM
              + " \\(alerts at ≤ "
              + NUM
              + "(?:, half of [^)]*\\))?\\)");

  private static final AlertModel MODEL = AlertModel.defaults();

  /** The dimension named in words ("symptom", "stage"). */
  private static Dimension dimension(String words) {
    for (Dimension d : Dimension.values()) {
      if (Explanations.dimensionWords(d).equals(words)) {
        return d;
      }
    }
    throw new AssertionError("no dimension called " + words);
  }

  /**
   * The share a {@link #SHARE} states, recomputed from its counts: checks its prior (an even share
   * of the dimension's informative codes, the model's pseudo-issues) and its stated percentage. The
   * groups start at {@code g}.
   */
  private static double share(Matcher m, int g, String text) {
    long nc = l(m, g);
    double k = d(m, g + 1);
    long codes = l(m, g + 2);
    long n = l(m, g + 3);
    assertEquals(MODEL.priorWeight(), k, 1e-12, text);
    assertEquals(k, d(m, g + 4), 1e-12, text);
    assertEquals(nc, l(m, g + 6), text);
    assertEquals(n, l(m, g + 7), text);
    assertEquals(StatDimensions.informativeCategories(dimension(m.group(g + 8))) + 1, codes, text);
    double s = (nc + k / codes) / (n + k);
    twoDigits(100 * s, d(m, g + 5), text);
    return s;
  }

  private static long periodDays(String words) {
    Matcher m = Pattern.compile("the last (\\d+) months|the (\\d+) days before").matcher(words);
    assertTrue(m.matches(), words);
    return m.group(1) != null ? -Long.parseLong(m.group(1)) : Long.parseLong(m.group(2));
  }

  /** A period in words against its length in days: whole months, or the days themselves. */
  private static void period(String words, long days, String text) {
    long p = periodDays(words);
    if (p < 0) {
      assertEquals(Math.round(days / 30.44), -p, text);
    } else {
      assertEquals(days, p, text);
    }
  }

  private static List<AlertCount> history(long seed) {
    Random r = new Random(seed);
    List<AlertCount> out = new ArrayList<>();
    int n = 0;
    for (int d = 0; d < 330; d++) {
      for (int i = r.nextInt(5); i > 0; i--) {
        out.addAll(
            DetectorHarness.issue(
                FW,
                "ds#" + n++,
                T0 + d * DAY + r.nextInt((int) DAY),
                SYMPTOMS[r.nextInt(SYMPTOMS.length)],
                STAGES[r.nextInt(STAGES.length)],
                +1));
      }
    }
    for (int i = 0; i < 12; i++) { // a surge of a symptom new to a stage
      out.addAll(
          DetectorHarness.issue(
              FW, "surge#" + i, T0 + (240 + i % 6) * DAY + 7, "CHECKPOINT_FAILURE", "MEMORY", +1));
    }
    out.add(DetectorHarness.release(FW, "0.15.0", T0 + 280 * DAY + 1000));
    for (int i = 0; i < 24; i++) { // more out-of-memory after the release
      out.addAll(
          DetectorHarness.issue(
              FW, "oom#" + i, T0 + (280 + i) * DAY + 5000, "OUT_OF_MEMORY", "COMMUNICATION", +1));
    }
    out.sort(Comparator.comparingLong(c -> c.time));
    return out;
  }

  private static double d(Matcher m, int group) {
    return Double.parseDouble(m.group(group));
  }

  private static long l(Matcher m, int group) {
    return Long.parseLong(m.group(group));
  }

  /** A stated one-decimal figure against its recomputation. */
  private static void oneDecimal(double recomputed, double stated, String text) {
    assertEquals(Math.round(recomputed * 10) / 10.0, stated, 1e-9, text);
  }

  /** A stated two-significant-digit figure against its recomputation. */
  private static void twoDigits(double recomputed, double stated, String text) {
    assertEquals(recomputed, stated, 0.051 * Math.abs(recomputed) + 1e-300, text);
  }

  @Test
  void everyFigureOfEveryGeneratedAlertRecomputesFromTheCountsItStates() throws Exception {
    List<StatAlert> alerts;
    try (DetectorHarness h = new DetectorHarness(MODEL, Duration.ofDays(400))) {
      alerts = new ArrayList<>(h.deliver(history(5), 0).finish().inForce().values());
    }
    assertTrue(alerts.size() >= 2, alerts.toString());
    int surges = 0;
    int pairs = 0;
    int releases = 0;
    int cusums = 0;
    for (StatAlert a : alerts) {
      String text = a.explanation;
      assertTrue(text.startsWith(FW + ": ") || text.startsWith(FW + " after release "), text);
      Matcher s = SURGE.matcher(text);
      while (s.find()) {
        surges++;
        long count = l(s, 1);
        long days = l(s, 3);
        long others = l(s, 6);
        assertEquals(others, l(s, 8), text);
        assertEquals(s.group(7), s.group(17), text);
        double share = share(s, 9, text);
        // the expectation the CUSUM tested: the window's other issues at the baseline share
        oneDecimal(others * share / (1 - share), d(s, 5), text);
        assertTrue(count >= MODEL.minRatio() * d(s, 5), "twice the tested expectation: " + text);
        // then the plain baseline a reader can recount
        assertEquals(s.group(18), s.group(19), text);
        assertEquals(l(s, 15), l(s, 20), text);
        long baselineDays = l(s, 21);
        period(s.group(19), baselineDays, text);
        oneDecimal(l(s, 20) * (double) days / baselineDays, d(s, 22), text);
      }
      Matcher p = PAIR.matcher(text);
      while (p.find()) {
        pairs++;
        long n = l(p, 5);
        long others = l(p, 9);
        assertEquals(others, l(p, 10), text);
        double share;
        if (p.group(13) != null) { // Laplace's rule: 1/(N + 2) with N the baseline's issues
          assertEquals(n, l(p, 13), text);
          share = 1.0 / (n + 2);
          twoDigits(100 * share, d(p, 11), text);
          oneDecimal(others * share / (1 - share), d(p, 8), text);
        } else {
          assertEquals(n, l(p, 14), text);
          share = d(p, 11) / 100;
          assertTrue(share < 1.0 / (n + 2), text);
        }
        // a share stated with two digits: the expectation within that rounding
        assertEquals(others * share / (1 - share), d(p, 8), 0.05 + 0.03 * d(p, 8), text);
      }
      Matcher r = RELEASE.matcher(text);
      while (r.find()) {
        releases++;
        long x = l(r, 1);
        long after = l(r, 3);
        long before = l(r, 5);
        long beforeDays = l(r, 6);
        oneDecimal(7.0 * x / after, d(r, 4), text);
        oneDecimal(7.0 * before / beforeDays, d(r, 7), text);
        double share = share(r, 9, text);
        assertEquals(before, l(r, 15), text);
        long n = l(r, 16);
        assertEquals(n, l(r, 12), text);
        assertEquals(n, l(r, 19), text);
        assertEquals(n, l(r, 20), text);
        assertEquals(after, l(r, 21), text);
        assertEquals(beforeDays, l(r, 22), text);
        period(r.group(18), beforeDays, text);
        double atRate = n * (double) after / beforeDays * share;
        oneDecimal(atRate, d(r, 23), text);
        long others = l(r, 24);
        assertEquals(others, l(r, 25), text);
        double fromOthers = others * share / (1 - share);
        oneDecimal(fromOthers, d(r, 26), text);
        oneDecimal(Math.max(atRate, fromOthers), d(r, 8), text);
        oneDecimal(before * (double) after / beforeDays, d(r, 27), text);
      }
      Matcher c = CUSUM.matcher(text);
      if (c.find()) {
        cusums++;
        assertTrue(d(c, 1) >= d(c, 2) - 0.05, "statistic at or above its threshold: " + text);
        double arl = d(c, 3);
        if (c.group(4) != null) {
          assertEquals(arl / 365.25, d(c, 4), 0.0051 * d(c, 4), text);
        }
        assertEquals(l(c, 5), l(c, 6), text);
        assertEquals(arl, d(c, 7), 1e-9, text);
        double pValue = -Math.expm1(-l(c, 6) * 30.44 / arl);
        twoDigits(pValue, d(c, 8), text);
        assertTrue(pValue <= d(c, 9) * 1.0001, "p at or below the level: " + text);
        if (c.group(10) != null) { // a sparse framework's share of the budget
          twoDigits(d(c, 10) * d(c, 11) / d(c, 12), d(c, 9), text);
          assertTrue(d(c, 11) < d(c, 12), text);
        } else {
          assertEquals(MODEL.falseAlertsPerMonth(), d(c, 9), 1e-12, text);
        }
      }
      Matcher b = BONFERRONI.matcher(text);
      if (b.find()) {
        assertEquals(l(b, 2), l(b, 3), text);
        twoDigits(Math.min(1, l(b, 2) * d(b, 1)), d(b, 4), text);
        assertTrue(d(b, 4) <= d(b, 5), "adjusted p at or below the level: " + text);
      }
      assertTrue(c.find(0) || b.find(0), "names the test that decided: " + text);
      // the record's figures are the text's: the first member's count and expected count
      assertTrue(text.contains(a.count + " issues of "), "the record's count is stated: " + text);
      assertTrue(
          text.contains(String.format(java.util.Locale.ROOT, "about %.1f expected", a.baseline)),
          "the record's expected count is stated with one decimal: " + text);
    }
    assertTrue(surges >= 1 && pairs >= 1 && releases >= 1 && cusums >= 1, alerts.toString());
  }
}
