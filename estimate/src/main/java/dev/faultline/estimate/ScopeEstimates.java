package dev.faultline.estimate;

import java.util.List;

/**
 * The estimator the product uses for a scope, as chosen by measured coverage (docs/estimates.md):
 * without a validation sample, probabilistic classify-and-count ({@link ClassifyAndCount}); with
 * one, PPI with the continuity-corrected score interval ({@link PredictionPowered}, {@link
 * PredictionPowered.Tuning#PPI}, {@link PredictionPowered.Interval#SCORE_CC}), which held its 90%
 * in every frequency band on the folds that did not choose it. Level 0.9, fixed seeds: the same
 * input gives the same rows.
 */
public final class ScopeEstimates {

  /** The intervals' nominal coverage. */
  public static final double LEVEL = 0.9;

  private ScopeEstimates() {}

  /**
   * One row per code of the dimension.
   *
   * @param p per item of the scope, its calibrated probability of each code (a human label that is
   *     not part of a validation sample: a point mass on its code)
   * @param sampleLabel null when the scope has no validation sample; else per item the index of its
   *     human label when it is in the sample, -1 when not
   */
  public static List<Estimate> estimate(Codes codes, double[][] p, int[] sampleLabel) {
    if (sampleLabel == null) {
      return ClassifyAndCount.estimate(codes, p, LEVEL, ClassifyAndCount.DEFAULT_SEED);
    }
    return PredictionPowered.estimate(
        codes,
        p,
        sampleLabel,
        PredictionPowered.Tuning.PPI,
        PredictionPowered.Interval.SCORE_CC,
        LEVEL,
        ClassifyAndCount.DEFAULT_SEED);
  }
}
