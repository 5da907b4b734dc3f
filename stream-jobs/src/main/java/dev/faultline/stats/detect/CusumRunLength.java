package dev.faultline.stats.detect;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How often a one-sided CUSUM of a category's daily log-likelihood ratios crosses a threshold by
 * chance: its zero-state average run length (ARL, in days) when nothing changed, computed with the
 * Markov chain of Brook and Evans (1972).
 *
 * <p>The model of a day: the dimension's issues of that day are Poisson with mean {@code v}, each
 * of the category with probability {@code p0} (so the category's issues {@code x ~ Poisson(v p0)}
 * and the others' {@code y ~ Poisson(v (1 − p0))}, independent). The CUSUM tests a rise of the
 * category's rate by {@code rise} ×, the others unchanged: its share becomes {@code p1 = rise p0 /
 * (1 − p0 + rise p0)}, and a day adds {@code x ln(p1/p0) + y ln((1 − p1)/(1 − p0))}. The statistic
 * is put on a grid of at most {@value #MAX_STATES} states below the threshold; the ARL from zero
 * solves {@code (I − Q) L = 1}.
 *
 * <p>ln ARL is computed at thresholds 1, 2, 3, 4, 6, 8, 10, 12 and 16 and interpolated linearly (it
 * grows about as fast as the threshold, Lorden's bound {@code ARL ≥ e^h} in steps); beyond,
 * extrapolated with slope 1. Curves are cached per (v, p0, se / p0, rise) rounded to 5% steps of
 * their logarithms, once per JVM.
 */
public final class CusumRunLength {
  static final int MAX_STATES = 64;
  private static final double QUANTUM = 0.05;
  private static final Map<String, double[]> CURVES = new ConcurrentHashMap<>();

  private CusumRunLength() {}

  /** The per-day increment of the CUSUM for a day with {@code x} of {@code t} issues. */
  public static double increment(long x, long t, double p0, double rise) {
    double p1 = shareAfter(p0, rise);
    return x * Math.log(p1 / p0) + (t - x) * Math.log((1 - p1) / (1 - p0));
  }

  /** The category's share after a rise of its rate by {@code rise} ×, the others unchanged. */
  public static double shareAfter(double p0, double rise) {
    return rise * p0 / (1 - p0 + rise * p0);
  }

  /** Gauss-Hermite nodes and weights for a standard normal: the share's uncertainty. */
  private static final double[] NODES = {0, Math.sqrt(3), -Math.sqrt(3)};

  private static final double[] WEIGHTS = {2.0 / 3, 1.0 / 6, 1.0 / 6};

  /** The thresholds at which the curve is computed; linear in between. */
  private static final double[] GRID = {0, 1, 2, 3, 4, 6, 8, 10, 12, 16};

  /**
   * ln of the mean days between chance alarms of the CUSUM with threshold {@code h}, built on the
   * share {@code p0} while the true share is only known to be about {@code p0 ± se} (normal):
   * {@code −ln E[1/ARL]} over that uncertainty. With {@code se = 0}, ln of the zero-state ARL.
   *
   * @param v mean issues of the dimension a day
   * @param p0 the category's estimated share, in (0, 1)
   * @param se the standard error of that estimate
   * @param rise the rate multiple tested, above 1
   */
  public static double lnArl(double v, double p0, double se, double rise, double h) {
    return h <= 0 ? 0 : along(GRID, curveOf(v, p0, se, rise), h);
  }

  /** The threshold whose {@link #lnArl} is ln {@code arlDays}: its inverse. */
  public static double threshold(double v, double p0, double se, double rise, double arlDays) {
    return along(curveOf(v, p0, se, rise), GRID, Math.log(Math.max(1, arlDays)));
  }

  /**
   * The piecewise-linear function through (xs, ys), both increasing, at x; beyond the last point
   * with slope 1 (ln ARL and the threshold grow alike there).
   */
  private static double along(double[] xs, double[] ys, double x) {
    int last = xs.length - 1;
    if (x >= xs[last]) {
      return ys[last] + (x - xs[last]);
    }
    int lo = 0;
    while (xs[lo + 1] < x) {
      lo++;
    }
    double span = xs[lo + 1] - xs[lo];
    double f = span > 0 ? (x - xs[lo]) / span : 1;
    return ys[lo] + f * (ys[lo + 1] - ys[lo]);
  }

  /** The cached curve of −ln E[1/ARL] at the thresholds of {@link #GRID}. */
  private static double[] curveOf(double v, double p0, double se, double rise) {
    if (!(v > 0) || !(p0 > 0 && p0 < 1) || !(se >= 0) || !(rise > 1)) {
      throw new IllegalArgumentException(
          "need a positive volume, a share in (0, 1), a standard error of 0 or more and a rise above"
              + " 1; were "
              + v
              + ", "
              + p0
              + ", "
              + se
              + ", "
              + rise);
    }
    double relative = se / p0;
    long qr = relative > 1e-3 ? Math.round(Math.log(relative) / QUANTUM) : Long.MIN_VALUE;
    double qv = quantise(v);
    double qp = Math.min(quantise(p0), 0.999);
    double qse = qr == Long.MIN_VALUE ? 0 : Math.exp(qr * QUANTUM) * qp;
    return CURVES.computeIfAbsent(
        Math.round(Math.log(v) / QUANTUM)
            + "/"
            + Math.round(Math.log(p0) / QUANTUM)
            + "/"
            + qr
            + "/"
            + rise,
        k -> curve(qv, qp, qse, rise));
  }

  private static double quantise(double x) {
    return Math.exp(Math.round(Math.log(x) / QUANTUM) * QUANTUM);
  }

  /** −ln E[1/ARL] at the thresholds of {@link #GRID}. */
  private static double[] curve(double v, double p0, double se, double rise) {
    double[] out = new double[GRID.length];
    for (int g = 1; g < GRID.length; g++) {
      double rate = 0;
      for (int i = 0; i < (se > 0 ? NODES.length : 1); i++) {
        double p = Math.max(p0 * 1e-3, Math.min(0.999, p0 + NODES[i] * se));
        rate += (se > 0 ? WEIGHTS[i] : 1) / arl(v, p0, p, rise, GRID[g]);
      }
      out[g] = Math.max(out[g - 1], -Math.log(rate)); // monotone, whatever the grid's rounding
    }
    return out;
  }

  /**
   * The ARL by the Markov chain: states 0 … m − 1 are the statistic at i·δ, m the alarm; the CUSUM
   * is built on the share {@code p0}, the days drawn with the share {@code p}.
   */
  static double arl(double v, double p0, double p, double rise, double h) {
    double p1 = shareAfter(p0, rise);
    double a = Math.log(p1 / p0);
    double b = Math.log((1 - p1) / (1 - p0));
    int m = (int) Math.min(MAX_STATES, Math.max(16, Math.ceil(8 * h)));
    double delta = h / m;
    double[] px = poisson(v * p);
    double[] py = poisson(v * (1 - p));
    // the day's increment in grid steps, and its probability
    Map<Integer, Double> steps = new java.util.HashMap<>();
    for (int x = 0; x < px.length; x++) {
      for (int y = 0; y < py.length; y++) {
        double pxy = px[x] * py[y];
        if (pxy > 1e-15) {
          // split between the two nearest grid steps so the mean drift is kept exactly
          double u = (x * a + y * b) / delta;
          int lo = (int) Math.floor(u);
          steps.merge(lo, pxy * (lo + 1 - u), Double::sum);
          steps.merge(lo + 1, pxy * (u - lo), Double::sum);
        }
      }
    }
    double[][] q = new double[m][m + 1]; // I − Q, augmented with the right-hand side 1
    for (int i = 0; i < m; i++) {
      q[i][i] += 1;
      q[i][m] = 1;
      for (Map.Entry<Integer, Double> s : steps.entrySet()) {
        int j = i + s.getKey();
        if (j < m) {
          q[i][Math.max(0, j)] -= s.getValue();
        }
      }
    }
    // Gaussian elimination with partial pivoting
    for (int c = 0; c < m; c++) {
      int pivot = c;
      for (int r = c + 1; r < m; r++) {
        if (Math.abs(q[r][c]) > Math.abs(q[pivot][c])) {
          pivot = r;
        }
      }
      double[] t = q[c];
      q[c] = q[pivot];
      q[pivot] = t;
      for (int r = c + 1; r < m; r++) {
        double f = q[r][c] / q[c][c];
        if (f != 0) {
          for (int k = c; k <= m; k++) {
            q[r][k] -= f * q[c][k];
          }
        }
      }
    }
    double[] l = new double[m];
    for (int r = m - 1; r >= 0; r--) {
      double s = q[r][m];
      for (int k = r + 1; k < m; k++) {
        s -= q[r][k] * l[k];
      }
      l[r] = s / q[r][r];
    }
    return Math.max(1, l[0]);
  }

  /** Poisson probabilities 0 … until the tail is below 1e-13. */
  private static double[] poisson(double mean) {
    int n = (int) Math.ceil(mean + 12 * Math.sqrt(mean) + 12);
    double[] p = new double[n];
    double log = -mean;
    for (int k = 0; k < n; k++) {
      p[k] = Math.exp(log);
      log += Math.log(mean) - Math.log(k + 1);
    }
    return p;
  }
}
