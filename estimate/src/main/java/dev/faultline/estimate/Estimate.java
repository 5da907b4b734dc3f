package dev.faultline.estimate;

/**
 * One code's estimate over a scope.
 *
 * @param code the code
 * @param count the estimated number of items of the scope whose true label is the code (an expected
 *     count, not a count of labels)
 * @param countLow lower end of the count's interval
 * @param countHigh upper end of the count's interval
 * @param share the estimated share of the code among the items with a known code ({@link
 *     Codes#excluded} left out on both sides); NaN for an excluded code
 * @param shareLow lower end of the share's interval (NaN for an excluded code)
 * @param shareHigh upper end of the share's interval (NaN for an excluded code)
 * @param method which estimator and interval produced the row (e.g. {@code pcc}, {@code
 *     ppi/score_cc})
 * @param sampleSize labelled items of the validation sample used (0: none)
 * @param items items in the scope
 * @param level the intervals' nominal coverage (e.g. 0.9)
 */
public record Estimate(
    String code,
    double count,
    double countLow,
    double countHigh,
    double share,
    double shareLow,
    double shareHigh,
    String method,
    int sampleSize,
    int items,
    double level) {

  /** Whether the share interval contains a value. */
  public boolean shareCovers(double truth) {
    return truth >= shareLow - 1e-12 && truth <= shareHigh + 1e-12;
  }
}
