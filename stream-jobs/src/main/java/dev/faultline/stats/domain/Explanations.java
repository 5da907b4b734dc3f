package dev.faultline.stats.domain;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.Finding;
import dev.faultline.stats.keys.AlertKeys;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * The reasons alerts give, written so a reader can check every figure from the counts they state:
 * the first sentence says what was seen and what the baseline's rate makes expected ("DeepSpeed: 9
 * issues of symptom checkpoint failure in 5 days to 2025-06-03; about 1.0 expected from the last 6
 * months (7 issues in 182 days)."), the second names the test that decided, its statistic, its
 * p-value and the level it passed, with the formula that links them.
 */
public final class Explanations {
  private Explanations() {}

  static final double DAYS_PER_MONTH = 30.44;

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

  /** A dimension in words: {@code symptom class}, {@code distributed-specific}. */
  public static String dimensionWords(Dimension dim) {
    return dim == Dimension.DISTRIBUTED_SPECIFIC
        ? "distributed-specific"
        : dim.key().replaceAll("([A-Z])", " $1").toLowerCase(Locale.ROOT);
  }

  /** A category in words: {@code checkpoint failure}. */
  public static String categoryWords(String category) {
    return category.replace('_', ' ').toLowerCase(Locale.ROOT);
  }

  /** What moved: {@code symptom checkpoint failure}, or the pair with its stage. */
  public static String subject(Dimension dim, String category, String stage) {
    String s = dimensionWords(dim) + " " + categoryWords(category);
    return stage == null ? s : s + " with stage " + categoryWords(stage);
  }

  /** A baseline period in words: {@code the last 6 months}, {@code the 40 days before}. */
  static String period(long days) {
    long months = Math.round(days / DAYS_PER_MONTH);
    return days >= 60 && Math.abs(months * DAYS_PER_MONTH - days) <= 4
        ? "the last " + months + " months"
        : "the " + days + " days before";
  }

  /**
   * The reason for an alert: the first sentence a maintainer reads, the test that decided, and the
   * example issues.
   */
  public static String finding(
      String framework, Finding f, double falseAlertsPerMonth, String[] examples) {
    return headline(framework, f)
        + " "
        + test(f, falseAlertsPerMonth)
        + String.format(
            Locale.ROOT,
            " Examples: %s.",
            examples.length == 0 ? "none kept" : String.join(", ", examples));
  }

  /** The first sentence: counts seen, the expected count and the baseline it comes from. */
  public static String headline(String framework, Finding f) {
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long day = Duration.ofDays(1).toMillis();
    String windowEnd = dateLabel(f.windowEndDay() * day);
    long days = f.windowEndDay() - f.windowStartDay();
    if (f.kind() == AlertKind.NEW_COMBINATION) {
      return String.format(
          Locale.ROOT,
          "%s: %d issues of %s in %d days to %s, a pair absent from the %d %s issues of %s; "
              + "about %.1f expected (%d %s issues in those days at 1/(%d + 2) per issue).",
          framework,
          f.count(),
          subject(dim, k[1], k[2]),
          days,
          windowEnd,
          f.dimensionBaseline(),
          dimensionWords(dim),
          period(f.baselineDays()),
          f.statedExpected(),
          f.dimensionWindow(),
          dimensionWords(dim),
          f.dimensionBaseline());
    }
    if (f.release() != null) {
      return String.format(
          Locale.ROOT,
          "%s after release %s (first reported %s): %d issues of %s in the %d days after "
              + "(%.1f a week) against %d in the %d days before (%.1f a week); about %.1f expected "
              + "at the rate before.",
          framework,
          f.release(),
          dateLabel(f.windowStartDay() * day),
          f.count(),
          subject(dim, k[1], null),
          days,
          7.0 * f.count() / days,
          f.baselineCount(),
          f.baselineDays(),
          7.0 * f.baselineCount() / f.baselineDays(),
          f.statedExpected());
    }
    return String.format(
        Locale.ROOT,
        "%s: %d issues of %s in %d days to %s; about %.1f expected from %s (%d issues in %d days).",
        framework,
        f.count(),
        subject(dim, k[1], null),
        days,
        windowEnd,
        f.statedExpected(),
        period(f.baselineDays()),
        f.baselineCount(),
        f.baselineDays());
  }

  /** The test that decided, its statistic, its p-value and the level it passed. */
  public static String test(Finding f, double falseAlertsPerMonth) {
    if (f.releaseComparison()) {
      return String.format(
          Locale.ROOT,
          "Decided by a %s: p = %.2g; Bonferroni over the release's %d tests: %d × p = %.2g "
              + "(alerts at ≤ %.3g).",
          f.dispersion() > 0
              ? String.format(
                  Locale.ROOT,
                  "negative-binomial tail (dispersion %.2f, with the uncertainty of the baseline)",
                  f.dispersion())
              : "Poisson tail",
          f.pValue(),
          f.familySize(),
          f.familySize(),
          f.adjustedPValue(),
          f.threshold());
    }
    return String.format(
        Locale.ROOT,
        "Decided by a CUSUM for a %.0f× rise of the share: statistic %.1f (alerts at ≥ %.1f); a run "
            + "this strong arises by chance in this category once in %.4g days%s, so one of the "
            + "framework's %d tests shows one within a month with p = 1 − exp(−%d × 30.44 / %.4g) "
            + "= %.2g (alerts at ≤ %.3g).",
        f.rise(),
        f.statistic(),
        f.threshold(),
        f.arlDays(),
        f.arlDays() >= 730 ? String.format(Locale.ROOT, " (%.3g years)", f.arlDays() / 365.25) : "",
        f.familySize(),
        f.familySize(),
        f.arlDays(),
        f.adjustedPValue(),
        falseAlertsPerMonth);
  }

  /** The first sentence of an explanation (up to the test that decided). */
  public static String firstSentence(String explanation) {
    int at = explanation.indexOf(" Decided by ");
    return at < 0 ? explanation : explanation.substring(0, at);
  }

  /**
   * A grouped alert's reason: the strongest member's first sentence, every other dimension or
   * category the event moved with its own counts ("Also: ..."), the strongest member's test, and
   * the examples of all.
   *
   * @param others the first sentences of the other members, strongest first
   */
  public static String grouped(String strongest, List<String> others, String[] examples) {
    StringBuilder b = new StringBuilder(firstSentence(strongest));
    for (String other : others) {
      String own = firstSentence(other);
      int colon = own.indexOf(": ");
      b.append(" Also: ").append(colon < 0 ? own : own.substring(colon + 2));
    }
    int test = strongest.indexOf(" Decided by ");
    int ex = strongest.lastIndexOf(" Examples: ");
    if (test >= 0) {
      b.append(strongest, test, ex > test ? ex : strongest.length());
    }
    b.append(
        String.format(
            Locale.ROOT,
            " Examples: %s.",
            examples.length == 0 ? "none kept" : String.join(", ", examples)));
    return b.toString();
  }
}
