package dev.faultline.estimate;

/**
 * A ratio's estimating function D(s) = a - s·b over one sampled item's scale, with the variance of
 * one item's residual at s: what a score-type interval ({@link ScoreInterval}) inverts. For a mean,
 * b is 1.
 */
public interface EstimatingFunction {
  /** The constant. */
  double a();

  /** The slope. */
  double b();

  /** One sampled item's residual variance at s. */
  double variance(double s);
}
