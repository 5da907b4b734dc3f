package dev.faultline.jobs.stats.records;

/**
 * What the rolling counter knows of one day of one key: the daily window's latest result plus the late deltas the
 * window no longer accepted. Their sum is the day's count whatever the order they arrived in.
 */
public class DayState {
  /** Last result of the daily window (absolute). */
  public long windowCount;
  /** Sum of deltas that arrived after the daily window was purged. */
  public long lateCount;
  public String[] windowExamples = new String[0];
  public String[] lateExamples = new String[0];

  public DayState() {}

  public long count() {
    return windowCount + lateCount;
  }
}
