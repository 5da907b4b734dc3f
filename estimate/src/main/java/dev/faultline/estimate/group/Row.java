package dev.faultline.estimate.group;

import java.util.List;

/**
 * One estimated row of a grouped estimate: a group (e.g. a month) and a code (or a pair of codes),
 * its expected count and share with their 90% intervals, and what they rest on.
 *
 * @param group the group's key values, in the order of the grouping columns (empty: one group)
 * @param code the code of the counted dimension
 * @param code2 the code of the pair's second dimension (null without a pair)
 * @param estimate the expected count; with mode confident/all, the count of labels
 * @param estimateLow lower end of its interval (NaN for counts of labels)
 * @param estimateHigh upper end of its interval
 * @param share the share among the group's known codes (for a pair: of {@code code2} among the
 *     known codes paired with {@code code}); NaN for a code that is not known, or where there are
 *     too few items to estimate (then {@code note} says so)
 * @param shareLow lower end of the share's interval (NaN with the share)
 * @param shareHigh upper end of the share's interval
 * @param method the estimator: {@code pcc}, {@code ppi/score_cc}, {@code ppi/score_cc+pcc}, with
 *     {@code +model-error} when the calibration error is in the interval and {@code uncalibrated}
 *     when items rest on a stated prior error; or the count of labels
 * @param basis a short human text of what the figure rests on
 * @param note null, or why a number is missing ("too few to estimate", ...)
 * @param labelled items whose labels (and kind) pass the bar with this code (the old count)
 * @param sampleSize validation-sample items the estimate used (0: none)
 * @param items items in the group, of any kind
 * @param expected expected number of items of the kind (and, for a pair, of {@code code}) in the
 *     group
 * @param code3 the code of a triple's third dimension (null without one): then {@code code2} and
 *     {@code code3} are one cell of the family of {@code code}, and the share is of the pair among
 *     the known pairs with {@code code}
 */
public record Row(
    List<Object> group,
    String code,
    String code2,
    double estimate,
    double estimateLow,
    double estimateHigh,
    double share,
    double shareLow,
    double shareHigh,
    String method,
    String basis,
    String note,
    long labelled,
    int sampleSize,
    int items,
    double expected,
    String code3) {

  /** A row of one dimension or a pair (no third code). */
  public Row(
      List<Object> group,
      String code,
      String code2,
      double estimate,
      double estimateLow,
      double estimateHigh,
      double share,
      double shareLow,
      double shareHigh,
      String method,
      String basis,
      String note,
      long labelled,
      int sampleSize,
      int items,
      double expected) {
    this(
        group,
        code,
        code2,
        estimate,
        estimateLow,
        estimateHigh,
        share,
        shareLow,
        shareHigh,
        method,
        basis,
        note,
        labelled,
        sampleSize,
        items,
        expected,
        null);
  }

  /** Whether the count's interval contains a value (false when there is no interval). */
  public boolean countCovers(double truth) {
    return truth >= estimateLow - 1e-9 && truth <= estimateHigh + 1e-9;
  }

  /** Whether the share's interval contains a value (false when there is no share). */
  public boolean shareCovers(double truth) {
    return truth >= shareLow - 1e-9 && truth <= shareHigh + 1e-9;
  }
}
