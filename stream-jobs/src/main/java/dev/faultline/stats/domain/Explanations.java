package dev.faultline.stats.domain;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertKeys;
import dev.faultline.stats.detect.Finding;
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
   * baseline, the window, the test, how unlikely it is and the example issues.
   */
  public static String finding(
      String framework, Finding f, double falseAlertsPerMonth, String[] examples) {
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long day = Duration.ofDays(1).toMillis();
    String windowEnd = dateLabel(f.windowEndDay() * day);
    String baseFrom = dateLabel(f.baselineStartDay() * day);
    long days = f.windowEndDay() - f.windowStartDay();
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
              days,
              windowEnd,
              f.baselineDays(),
              baseFrom,
              f.expected());
    } else if (f.release() != null) {
      double weeksBefore = f.baselineDays() / 7.0;
      double weeksAfter = days / 7.0;
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
              days,
              f.baselineCount(),
              f.baselineDays(),
              f.expected());
    } else {
      what =
          String.format(
              Locale.ROOT,
              "%s %s %s rose to %d issues in the %d days to %s against %.1f expected (%.1f%% of the dimension's issues, "
                  + "baseline: %d in the %d days from %s).",
              framework,
              dim.key(),
              k[1],
              f.count(),
              days,
              windowEnd,
              f.expected(),
              100 * f.share(),
              f.baselineCount(),
              f.baselineDays(),
              baseFrom);
    }
    return what
        + " "
        + test(f, falseAlertsPerMonth)
        + String.format(
            Locale.ROOT,
            " Examples: %s.",
            examples.length == 0 ? "none kept" : String.join(", ", examples));
  }

  /** The test behind a finding, its figures and the level it passed. */
  public static String test(Finding f, double falseAlertsPerMonth) {
    if (f.releaseComparison()) {
      return String.format(
          Locale.ROOT,
          "%s p = %.2g; Bonferroni over the release's %d tests: %.2g (alerts at ≤ %.3g).",
          f.dispersion() > 0
              ? String.format(
                  Locale.ROOT,
                  "Negative-binomial tail (dispersion %.2f, with the uncertainty of the baseline)",
                  f.dispersion())
              : "Poisson tail",
          f.pValue(),
          f.familySize(),
          f.adjustedPValue(),
          f.threshold());
    }
    return String.format(
        Locale.ROOT,
        "CUSUM for a %.0f× rise of the share: log-likelihood ratio %.1f (alerts at ≥ %.1f); a run this strong arises by "
            + "chance in this category once in %s, and in one of the framework's %d tests with probability %.2g a month "
            + "(alerts at ≤ %.3g false alerts a framework-month). Poisson p of the window = %.2g.",
        f.rise(),
        f.statistic(),
        f.threshold(),
        duration(f.arlDays()),
        f.familySize(),
        f.adjustedPValue(),
        falseAlertsPerMonth,
        f.pValue());
  }

  private static String duration(double days) {
    if (days >= 3652.5e6) {
      return "more than a million years";
    }
    return days >= 730
        ? String.format(Locale.ROOT, "%.3g years", days / 365.25)
        : String.format(Locale.ROOT, "%.0f days", days);
  }
}
