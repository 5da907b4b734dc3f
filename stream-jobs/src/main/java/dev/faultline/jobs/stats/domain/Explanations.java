package dev.faultline.jobs.stats.domain;

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
    return epochMillis % Duration.ofDays(1).toMillis() == 0 ? i.atOffset(ZoneOffset.UTC).toLocalDate().toString() : i.toString();
  }

  public static String surge(String framework, Dimension dimension, String category, long count, Duration window, long windowEnd,
      double expected, Duration baseline, double pValue) {
    return String.format(Locale.ROOT,
        "%s %s %s rose to %d issues in the %d days to %s against %.1f expected from the %d days before (Poisson tail p = %.2g).",
        framework, dimension.key(), category, count, window.toDays(), dateLabel(windowEnd), expected, baseline.toDays(), pValue);
  }

  public static String newCombination(String framework, Dimension dimension, String category, String stage, long historyDays, String issueId) {
    return String.format(Locale.ROOT,
        "%s %s %s met stage %s for the first time in %d days of %s issues, in %s.",
        framework, dimension.key(), category, stage, historyDays, framework, issueId);
  }
}
