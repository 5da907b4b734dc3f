package dev.faultline.stats;

import static dev.faultline.stats.Fixtures.DAY;
import static dev.faultline.stats.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.stats.detect.AlertModel;
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
 * expected counts (one decimal) from the baseline's "n issues in d days" or Laplace's 1/(N + 2),
 * weekly rates, the baseline period in months, the CUSUM's p-value from its run length and number
 * of tests, a release's Bonferroni product, and that each decision passed the level it names. The
 * alerts come from the detector in Flink's harness on a seeded stream with a surge, a new pair and
 * a release; the text is parsed, never compared with a stored string.
 */
class AlertTextTest {
  private static final String FW = "deepspeed";
  private static final String[] SYMPTOMS = {"RUNTIME_CRASH", "HANG", "OUT_OF_MEMORY", "UNKNOWN"};
  private static final String[] STAGES = {"COMMUNICATION", "MEMORY", "INITIALIZATION", "UNKNOWN"};

  private static final String NUM = "([0-9.]+(?:e[-+]?[0-9]+)?)";
  private static final Pattern SURGE =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) in (\\d+) days to (\\d{4}-\\d\\d-\\d\\d); about "
              + NUM
              + " expected from the (?:last (\\d+) months|(\\d+) days before) \\((\\d+) issues in"
              + " (\\d+) days\\)");
  private static final Pattern PAIR =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) with stage ([a-z ]+) in (\\d+) days to \\S+, a pair absent"
              + " from the (\\d+) ([a-z -]+) issues of [a-z0-9 ]+; about "
              + NUM
              + " expected \\((\\d+) [a-z -]+ issues in those days at 1/\\((\\d+) \\+ 2\\) per"
              + " issue\\)");
  private static final Pattern RELEASE =
      Pattern.compile(
          "(\\d+) issues of ([a-z -]+) in the (\\d+) days after \\("
              + NUM
              + " a week\\) against (\\d+) in the (\\d+) days before \\("
              + NUM
              + " a week\\); about "
              + NUM
              + " expected at the rate before");
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
              + "\\)");
  private static final Pattern BONFERRONI =
      Pattern.compile(
          "p = "
              + NUM
              + "; Bonferroni over the release's (\\d+) tests: (\\d+) × p = "
              + NUM
              + " \\(alerts at ≤ "
              + NUM
              + "\\)");

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
    try (DetectorHarness h = new DetectorHarness(AlertModel.defaults(), Duration.ofDays(400))) {
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
        long days = l(s, 3);
        long n = l(s, 8);
        long baselineDays = l(s, 9);
        oneDecimal(n * (double) days / baselineDays, d(s, 5), text);
        if (s.group(6) != null) {
          assertEquals(Math.round(baselineDays / 30.44), l(s, 6), text);
        } else {
          assertEquals(baselineDays, l(s, 7), text);
        }
        assertTrue(l(s, 1) > d(s, 5), "more seen than expected: " + text);
      }
      Matcher p = PAIR.matcher(text);
      while (p.find()) {
        pairs++;
        assertEquals(l(p, 5), l(p, 9), text); // the N of 1/(N + 2) is the baseline's issues
        oneDecimal(l(p, 8) / (double) (l(p, 9) + 2), d(p, 7), text);
        assertTrue(l(p, 1) <= l(p, 8), "the pair's issues are among the dimension's: " + text);
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
        oneDecimal(before * (double) after / beforeDays, d(r, 8), text);
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
