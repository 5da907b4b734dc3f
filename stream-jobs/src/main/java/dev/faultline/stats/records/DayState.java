package dev.faultline.stats.records;

/**
 * What the rolling counter knows of one day of one key: the sum of the daily window's changes plus
 * the late deltas the window no longer accepted. Both are additions, so the day's count does not
 * depend on arrival order.
 */
public class DayState {
  /** Sum of the daily window's changes. */
  public long windowCount;

  /** Sum of deltas that arrived after the daily window was purged, applied to the count. */
  public long lateCount;

  /**
   * Too-late deltas not yet applied: they wait until the watermark shows the daily window's last
   * result has arrived (it travels on another channel), so no transient count is ever emitted.
   */
  public long pendingLate;

  /** The expected count and variance: the window's, the applied late ones, the pending ones. */
  public double windowExpected;

  public double windowVariance;
  public double lateExpected;
  public double lateVariance;
  public double pendingLateExpected;
  public double pendingLateVariance;

  public String[] windowExamples = new String[0];
  public String[] lateExamples = new String[0];

  public DayState() {}

  public long count() {
    return windowCount + lateCount;
  }

  public double expected() {
    return windowExpected + lateExpected;
  }

  public double variance() {
    return windowVariance + lateVariance;
  }
}
