package dev.faultline.stats.domain;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.detect.Finding;
import dev.faultline.stats.keys.AlertKeys;
import dev.faultline.stats.keys.StatDimensions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * The reasons alerts give, written so a reader can check every figure from the counts they state:
 * the first sentence says what was seen and the expectation the test used, with the counts it comes
 * from ("DeepSpeed: 9 issues of symptom checkpoint failure in 5 days to 2025-06-03; about 1.2
 * expected at its share of the 56 other symptom issues in those days (56 × s/(1 − s) with s = (7 +
 * 10/23)/(340 + 10) = 2.1%, its 7 of the 340 symptom issues of the last 6 months shrunk toward an
 * even share)."), the second the plain baseline a reader can recount ("At the plain rate of the
 * last 6 months (7 issues in 182 days): 0.2."), then the test that decided, its statistic, its
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
  public static String finding(String framework, Finding f, AlertModel model, String[] examples) {
    return headline(framework, f, model.priorWeight())
        + " "
        + test(f, model)
        + String.format(
            Locale.ROOT,
            " Examples: %s.",
            examples.length == 0 ? "none kept" : String.join(", ", examples));
  }

  /**
   * What was seen and the expectation the test used, from counts it states (the window's other
   * issues of the dimension × the baseline's share, shrunk toward an even share with {@code
   * priorWeight} pseudo-issues), then the plain baseline a reader can recount.
   */
  public static String headline(String framework, Finding f, double priorWeight) {
    if (f.kind() == AlertKind.NEW_COMBINATION) {
      return pairHeadline(framework, f);
    }
    if (f.release() != null) {
      return releaseHeadline(framework, f, priorWeight);
    }
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long days = f.windowEndDay() - f.windowStartDay();
    return String.format(
        Locale.ROOT,
        "%s: %d issues of %s in %d days to %s; about %.1f expected at its share of the %d other"
            + " %s issues in those days (%d × s/(1 − s) with %s). At the plain rate of %s (%d"
            + " issues in %d days): %.1f.",
        framework,
        f.count(),
        subject(dim, k[1], null),
        days,
        dateLabel(f.windowEndDay() * DAY_MILLIS),
        f.statedExpected(),
        f.others(),
        dimensionWords(dim),
        f.others(),
        shareWords(f, dim, priorWeight),
        period(f.baselineDays()),
        f.baselineCount(),
        f.baselineDays(),
        f.expectedFromBaseline());
  }

  private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

  /**
   * The baseline share with the counts it comes from: {@code s = (7 + 10/23)/(340 + 10) = 2.1%, its
   * 7 of the 340 symptom issues of the last 6 months shrunk toward an even share}.
   */
  static String shareWords(Finding f, Dimension dim, double priorWeight) {
    return String.format(
        Locale.ROOT,
        "s = (%d + %s/%d)/(%d + %s) = %s, its %d of the %d %s issues of %s shrunk toward an even"
            + " share",
        f.baselineCount(),
        plain(priorWeight),
        StatDimensions.informativeCategories(dim) + 1,
        f.dimensionBaseline(),
        plain(priorWeight),
        percent(f.share()),
        f.baselineCount(),
        f.dimensionBaseline(),
        dimensionWords(dim),
        period(f.baselineDays()));
  }

  /** A first co-occurrence: Laplace's share of the window's other issues. */
  private static String pairHeadline(String framework, Finding f) {
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long n = f.dimensionBaseline();
    boolean laplace = Math.abs(f.share() * (n + 2) - 1) < 1e-9;
    return String.format(
        Locale.ROOT,
        "%s: %d issues of %s in %d days to %s, a pair absent from the %d %s issues of %s; about"
            + " %.1f expected at its share of the %d other %s issues in those days (%d × s/(1 −"
            + " s) with s = %s%s).",
        framework,
        f.count(),
        subject(dim, k[1], k[2]),
        f.windowEndDay() - f.windowStartDay(),
        dateLabel(f.windowEndDay() * DAY_MILLIS),
        n,
        dimensionWords(dim),
        period(f.baselineDays()),
        f.statedExpected(),
        f.others(),
        dimensionWords(dim),
        f.others(),
        percent(f.share()),
        laplace
            ? String.format(Locale.ROOT, " = 1/(%d + 2), Laplace's rule for a pair never seen", n)
            : String.format(
                Locale.ROOT,
                ", below Laplace's 1/(%d + 2): the rarer of its category's and its stage's shares",
                n));
  }

  /** A release comparison: the larger of the rate before and the share of the issues after. */
  private static String releaseHeadline(String framework, Finding f, double priorWeight) {
    String[] k = AlertKeys.split(f.key());
    Dimension dim = Dimension.valueOf(k[0]);
    long days = f.windowEndDay() - f.windowStartDay();
    double s = f.share();
    double atRate = days * f.dimensionBaseline() / (double) f.baselineDays() * s;
    return String.format(
        Locale.ROOT,
        "%s after release %s (first reported %s): %d issues of %s in the %d days after (%.1f a"
            + " week) against %d in the %d days before (%.1f a week); about %.1f expected at its"
            + " share of the %s issues (%s): the larger of the %d before at their rate (%d × %d/%d"
            + " × s = %.1f) and the %d others after (%d × s/(1 − s) = %.1f). At the plain rate"
            + " before: %.1f.",
        framework,
        f.release(),
        dateLabel(f.windowStartDay() * DAY_MILLIS),
        f.count(),
        subject(dim, k[1], null),
        days,
        7.0 * f.count() / days,
        f.baselineCount(),
        f.baselineDays(),
        7.0 * f.baselineCount() / f.baselineDays(),
        f.statedExpected(),
        dimensionWords(dim),
        shareWords(f, dim, priorWeight),
        f.dimensionBaseline(),
        f.dimensionBaseline(),
        days,
        f.baselineDays(),
        atRate,
        f.others(),
        f.others(),
        f.others() * s / (1 - s),
        f.expectedFromBaseline());
  }

  /** A share as a percentage with two significant digits ({@code 2.1%}, {@code 0.29%}). */
  static String percent(double share) {
    return new java.math.BigDecimal(share * 100)
            .round(new java.math.MathContext(2))
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  /** A number without a needless fraction: {@code 10}, {@code 2.5}. */
  static String plain(double x) {
    return x == Math.rint(x)
        ? Long.toString((long) x)
        : java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
  }

  /**
   * The test that decided, its statistic, its p-value and the level it passed (with how the
   * framework's volume scaled its budget, when it did).
   */
  public static String test(Finding f, AlertModel model) {
    String scaled = budgetWords(f, model);
    if (f.releaseComparison()) {
      return String.format(
          Locale.ROOT,
          "Decided by a %s: p = %.2g; Bonferroni over the release's %d tests: %d × p = %.2g "
              + "(alerts at ≤ %.3g%s).",
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
          f.threshold(),
          scaled.isEmpty() ? "" : ", half of " + scaled);
    }
    return String.format(
        Locale.ROOT,
        "Decided by a CUSUM for a %.0f× rise of the share: statistic %.1f (alerts at ≥ %.1f); a run "
            + "this strong arises by chance in this category once in %.4g days%s, so one of the "
            + "framework's %d tests shows one within a month with p = 1 − exp(−%d × 30.44 / %.4g) "
            + "= %.2g (alerts at ≤ %.3g%s).",
        f.rise(),
        f.statistic(),
        f.threshold(),
        f.arlDays(),
        f.arlDays() >= 730 ? String.format(Locale.ROOT, " (%.3g years)", f.arlDays() / 365.25) : "",
        f.familySize(),
        f.familySize(),
        f.arlDays(),
        f.adjustedPValue(),
        f.budget(),
        scaled.isEmpty() ? "" : " = " + scaled);
  }

  /**
   * How a sparse framework's budget came from the configured one: {@code 0.2 × 8.7 / 30 (its issues
   * a month of the 30 that spend the whole 0.2)}; empty when it spends the whole budget.
   */
  static String budgetWords(Finding f, AlertModel model) {
    if (!(f.budget() < model.falseAlertsPerMonth() * (1 - 1e-9))) {
      return "";
    }
    double issues = f.budget() / model.falseAlertsPerMonth() * model.fullBudgetIssues();
    return String.format(
        Locale.ROOT,
        "%s × %.3g / %s (its issues a month of the %s that spend the whole %s)",
        plain(model.falseAlertsPerMonth()),
        issues,
        plain(model.fullBudgetIssues()),
        plain(model.fullBudgetIssues()),
        plain(model.falseAlertsPerMonth()));
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
