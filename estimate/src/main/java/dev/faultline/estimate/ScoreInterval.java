package dev.faultline.estimate;

import java.util.function.DoubleUnaryOperator;

/**
 * The score-type (Fieller, Wilson-like) interval of a ratio estimated by an estimating function:
 * every s in [0, 1] whose estimating function D(s) = a - s·b is within z standard deviations of 0,
 * its variance V(s) taken at s ({(|D(s)| - correction)₊² ≤ z²·V(s)}; Fieller, "Some problems in
 * interval estimation", JRSS B 1954; Wilson, JASA 1927). The point a / b solves D(s) = 0, so it
 * lies in its own interval whatever V: point and band come from one functional.
 *
 * <p>Solved by walking from the point outward in steps of 1 / {@value #GRID} until a step is
 * rejected, then bisecting: the interval is the connected set of accepted values around the point.
 */
public final class ScoreInterval {
  static final int GRID = 2000;

  private ScoreInterval() {}

  /**
   * The interval.
   *
   * @param a the estimating function's constant
   * @param b its slope (the denominator's estimate); at most 0: [0, 1]
   * @param variance V(s), at least 0
   * @param z2 the squared normal quantile
   * @param correction continuity correction subtracted from |D(s)|
   */
  public static double[] solve(
      double a, double b, DoubleUnaryOperator variance, double z2, double correction) {
    if (!(b > 1e-12)) {
      return new double[] {0, 1};
    }
    double point = Math.max(0, Math.min(1, a / b));
    DoubleUnaryOperator q =
        s -> {
          double m = Math.max(0, Math.abs(a - s * b) - correction);
          return m * m - z2 * Math.max(0, variance.applyAsDouble(s));
        };
    double lo = walk(q, point, -1);
    double hi = walk(q, point, +1);
    return new double[] {Math.min(lo, point), Math.max(hi, point)};
  }

  /**
   * The edge of the accepted set around the point in one direction: steps of 1 / {@value #GRID}
   * until a rejected step, then bisection; 0 or 1 when the set reaches it.
   */
  private static double walk(DoubleUnaryOperator q, double point, int direction) {
    double in = point;
    int g = direction < 0 ? (int) Math.ceil(point * GRID) - 1 : (int) Math.floor(point * GRID) + 1;
    for (; g >= 0 && g <= GRID; g += direction) {
      double next = g / (double) GRID;
      if (q.applyAsDouble(next) > 0) {
        return edge(q, next, in);
      }
      in = next;
    }
    return in;
  }

  /** Bisection between a rejected point {@code out} and an accepted point {@code in}. */
  static double edge(DoubleUnaryOperator q, double out, double in) {
    if (q.applyAsDouble(out) <= 0) {
      return out;
    }
    for (int i = 0; i < 40; i++) {
      double mid = (out + in) / 2;
      if (q.applyAsDouble(mid) <= 0) {
        in = mid;
      } else {
        out = mid;
      }
    }
    return in;
  }
}
