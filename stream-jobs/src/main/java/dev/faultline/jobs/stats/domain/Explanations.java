package dev.faultline.jobs.stats.domain;

import dev.faultline.jobs.stats.detect.AlertKeys;
import dev.faultline.jobs.stats.detect.Finding;
import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;

/** One-sentence reasons for alerts, and the labels they use. */
public final class Explanations {
  private Explanations() {}

  /** ISO-8601 length in whole days when it is whole days ({@code P7D}, not {@code PT168H}). */
  public static String windowLabel(Duration window) {
    long day = Duration.ofDays(1).toMillis();
    return window.toMillis() % day == 0 ? "P" + window.toMillis() / day + "D" : window.toString();
  }

  /** The date (UTC) of an instant at midnight, else the instant. */
  public static String dateLabel(long epochMillis) {
    Instant i = Instant.ofEpochMilli(epochMillis);
    return epochMillis % Duration.ofDays(1).toMillis() == 0
        ? i.atOffset(ZoneOffset.UTC).toLocalDate().toString()
        : i.toString();
  }

  /**
   * The reason for an alert of the detector's model: what was seen, what was expected and from what
   * baseline, the window, the test and its p-values, and the example issues.
   */
  public static String finding(String framework, Finding f, double fdr, String[] examples) {
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long day = Duration.ofDays(1).toMillis();
    String windowEnd = dateLabel(f.windowEndDay() * day);
    String baseFrom = dateLabel(f.baselineStartDay() * day);
    String what;
    if (f.kind() == AlertKind.NEW_COMBINATION) {
      what =
          String.format(
              Locale.ROOT,
              "%s %s %s met stage %s in %d issues in the %d days to %s, and in none of the %d days before (from %s): %.2g expected "
                  + "(a pair absent from N issues taken at 1/(N + 2) per issue).",
              framework,
              dim.key(),
              k[1],
              k[2],
              f.count(),
              f.windowEndDay() - f.windowStartDay(),
              windowEnd,
              f.baselineDays(),
              baseFrom,
              f.expected());
    } else if (f.release() != null) {
      double weeksBefore = f.baselineDays() / 7.0;
      double weeksAfter = (f.windowEndDay() - f.windowStartDay()) / 7.0;
      what =
          String.format(
              Locale.ROOT,
              "After release %s (first reported %s), %s %s %s rose from %.1f to %.1f per week: %d issues in the %d days after against "
                  + "%d in the %d days before, %.1f expected.",
              f.release(),
              dateLabel(f.windowStartDay() * day),
              framework,
              dim.key(),
              k[1],
              f.baselineCount() / weeksBefore,
              f.count() / weeksAfter,
              f.count(),
              f.windowEndDay() - f.windowStartDay(),
              f.baselineCount(),
              f.baselineDays(),
              f.expected());
    } else {
      what =
          String.format(
              Locale.ROOT,
              "%s %s %s rose to %d issues in the %d days to %s against %.1f expected (baseline: %d in the %d days from %s).",
              framework,
              dim.key(),
              k[1],
              f.count(),
              f.windowEndDay() - f.windowStartDay(),
              windowEnd,
              f.expected(),
              f.baselineCount(),
              f.baselineDays(),
              baseFrom);
    }
    String test =
        f.dispersion() > 0
            ? String.format(
                Locale.ROOT,
                "negative-binomial tail (dispersion %.2f, with the uncertainty of the baseline)",
                f.dispersion())
            : "Poisson tail";
    return what
        + String.format(
            Locale.ROOT,
            " Expected = max(baseline rate × shrunk share = %.2f, this window's other issues × share = %.2f). %s p = %.2g; "
                + "Benjamini-Hochberg adjusted p = %.2g over %d tests of %s at this window end (alerts at ≤ %s). Examples: %s.",
            f.rateExpected(),
            f.volumeExpected(),
            test,
            f.pValue(),
            f.adjustedPValue(),
            f.familySize(),
            framework,
            String.format(Locale.ROOT, "%.3g", fdr),
            examples.length == 0 ? "none kept" : String.join(", ", examples));
  }
}
