package dev.faultline.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Counts and shares of a scope from the classifier's calibrated probabilities of every item and a
 * uniformly random sample of the scope labelled by people: prediction-powered inference
 * (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic, "Prediction-powered inference", Science 2023)
 * and its power-tuned variant PPI++ (Angelopoulos, Duchi and Zrnic, "PPI++: efficient
 * prediction-powered inference", 2023).
 *
 * <p>For a code c with f_i = p_i(c) known on all N items and Y_j = 1 when sampled item j's human
 * label is c, the mean θ = N_c / N is estimated by θ̂_λ = λ·mean_all(f) + mean_L(Y − λf): the
 * model's estimate corrected by its error measured on the sample (λ = 1: PPI; λ = 0: the sample
 * alone; PPI++ picks λ from the sample). Because every f_i of the scope is known, the estimate's
 * error is mean_L(d) − mean_all(d) with d = Y − λf (over the scope, Y unknown off the sample),
 * whose variance under sampling without replacement is S²_d / n · (1 − n/N): the finite-population
 * correction, and λ = Cov(Y, f) / Var(f) minimises it (clipped to [0, 1]). The same estimator
 * equals Σ_L Y + Σ_{not L} λf + (N − n)·mean_L(Y − λf), so a sampled item contributes its human
 * label, not its p: the human label wins for its own item.
 *
 * <p>A share among known codes is a ratio s = θ_c / θ_K (θ_K: the mean of "the label is a known
 * code"), estimated by θ̂_c / θ̂_K with the same λ, tuned for the linearised residual (Y_c − s Y_K)
 * − λ(f_c − s f_K). Three intervals are offered; which one the product uses is chosen by measured
 * coverage (docs/estimates.md):
 *
 * <ul>
 *   <li>{@link Interval#WALD}: estimate ± z·SE (delta method), known to under-cover rare codes;
 *   <li>{@link Interval#SCORE}: the score-type (Wilson-like) interval: every s whose estimated
 *       residual mean is within z standard errors of 0, with the variance of the labels' part taken
 *       <em>at s</em> (θ_K·s(1−s), as Wilson takes p(1−p) at the hypothesised p; Wilson, JASA 1927)
 *       and the prediction part estimated from the sample. With λ = 0 it is Wilson's interval (with
 *       the finite-population correction) on the sample's known items. It is solved on a grid of
 *       2,001 points refined by bisection;
 *   <li>{@link Interval#SCORE_CC}: the same with a continuity correction of half a labelled item
 *       (as Newcombe's corrected Wilson interval, Statistics in Medicine 1998), for codes seen once
 *       or never in the sample;
 *   <li>{@link Interval#BOOTSTRAP}: percentile bootstrap over the sample ({@value
 *       #BOOTSTRAP_RESAMPLES} seeded resamples, λ fixed), deviations scaled by sqrt(1 − n/N).
 * </ul>
 *
 * <p>Requirements (not checked here): the sample is uniformly random over the scope and was not
 * used to fit or calibrate the model.
 */
public final class PredictionPowered {

  /** How λ is set. */
  public enum Tuning {
    /** λ = 1. */
    PPI("ppi"),
    /**
     * λ from the sample, minimising the estimate's variance (never worse than the sample alone).
     */
    PPI_PLUS_PLUS("ppi++"),
    /** λ = 0: the sample alone, the model unused. */
    SAMPLE_ONLY("sample");

    final String label;

    Tuning(String label) {
      this.label = label;
    }
  }

  /** Which interval. */
  public enum Interval {
    WALD,
    SCORE,
    /** {@link #SCORE} with a continuity correction of half a labelled item (times 1 − n/N). */
    SCORE_CC,
    BOOTSTRAP
  }

  /** Resamples of {@link Interval#BOOTSTRAP}. */
  public static final int BOOTSTRAP_RESAMPLES = 1000;

  private PredictionPowered() {}

  /**
   * One row per code.
   *
   * @param codes the dimension's codes
   * @param p per item of the scope, its calibrated probability of each code
   * @param label per item, the index in {@code codes} of its human label when it is in the
   *     validation sample, -1 when not
   * @param level nominal coverage of the intervals (e.g. 0.9)
   * @param seed seeds the bootstrap (other intervals are deterministic)
   */
  public static List<Estimate> estimate(
      Codes codes,
      double[][] p,
      int[] label,
      Tuning tuning,
      Interval interval,
      double level,
      long seed) {
    ClassifyAndCount.checkLevel(level);
    Fitted fit = fit(codes, p, label, tuning);
    int bigN = p.length;
    int kk = codes.size();
    int n = fit.n();
    double z = new NormalDistribution().inverseCumulativeProbability((1 + level) / 2);
    double fpc = 1 - n / (double) bigN;
    Sample s = fit.sample();
    Ratio[] mean = fit.mean();
    Ratio[] share = fit.share();
    double[][] meanCi = new double[kk][];
    double[][] shareCi = new double[kk][];
    if (interval == Interval.BOOTSTRAP) {
      bootstrap(mean, share, n, fpc, level, seed, meanCi, shareCi);
    } else {
      for (int k = 0; k < kk; k++) {
        meanCi[k] = mean[k].interval(interval, z, fpc);
        if (share[k] != null) {
          shareCi[k] = share[k].interval(interval, z, fpc);
        }
      }
    }
    String method = tuning.label + "/" + interval.name().toLowerCase(Locale.ROOT);
    List<Estimate> out = new ArrayList<>();
    for (int k = 0; k < kk; k++) {
      out.add(
          row(
              codes.codes().get(k),
              s.ys[k],
              mean[k],
              share[k],
              meanCi[k],
              shareCi[k],
              method,
              bigN,
              level));
    }
    return out;
  }

  /**
   * What a sample gives for stratified estimates: per code the estimating function of its mean (θ_c
   * = N_c / N) and, for a known code, of its share among the known codes, with the same λ as {@link
   * #estimate}; the sample's size n, the scope's size N, and per code how many sampled items a
   * person labelled with it.
   */
  public record Functions(
      int n, int bigN, EstimatingFunction[] mean, EstimatingFunction[] share, int[] seen) {
    /** The finite-population correction 1 − n/N. */
    public double fpc() {
      return 1 - n / (double) bigN;
    }
  }

  /** See {@link Functions}. */
  public static Functions functions(Codes codes, double[][] p, int[] label, Tuning tuning) {
    Fitted fit = fit(codes, p, label, tuning);
    int kk = codes.size();
    int[] seen = new int[kk];
    for (int k = 0; k < kk; k++) {
      for (double y : fit.sample().ys[k]) {
        seen[k] += (int) y;
      }
    }
    return new Functions(fit.n(), p.length, fit.mean(), fit.share(), seen);
  }

  /** The sample and, per code, the estimating functions of its mean and (known codes) share. */
  private record Fitted(int n, Sample sample, Ratio[] mean, Ratio[] share) {}

  /**
   * Fits the rectified estimating functions of every code: the classifier's mean per code over the
   * scope, λ for means and for shares (the same λ for every code of each), and one {@link Ratio}
   * per code and (known codes) share.
   */
  private static Fitted fit(Codes codes, double[][] p, int[] label, Tuning tuning) {
    codes.check(p);
    List<Integer> sampled = sampled(codes, p, label);
    int bigN = p.length;
    int kk = codes.size();
    Sample s = Sample.of(codes, p, label, sampled);
    double[] meanF = new double[kk];
    double meanFk = 0;
    for (double[] row : p) {
      for (int k = 0; k < kk; k++) {
        meanF[k] += row[k] / bigN;
        if (codes.known(k)) {
          meanFk += row[k] / bigN;
        }
      }
    }
    boolean[] all = new boolean[kk];
    boolean[] knownCodes = new boolean[kk];
    for (int k = 0; k < kk; k++) {
      all[k] = true;
      knownCodes[k] = codes.known(k);
    }
    double lambdaMean = lambda(tuning, s.ys, s.ones, s.fs, s.ones, meanF, 1.0, all);
    double lambdaShare = lambda(tuning, s.ys, s.yk, s.fs, s.fk, meanF, meanFk, knownCodes);
    Ratio[] mean = new Ratio[kk];
    Ratio[] share = new Ratio[kk];
    for (int k = 0; k < kk; k++) {
      mean[k] = new Ratio(s.ys[k], s.ones, s.fs[k], s.ones, meanF[k], 1.0, lambdaMean);
      if (codes.known(k)) {
        share[k] = new Ratio(s.ys[k], s.yk, s.fs[k], s.fk, meanF[k], meanFk, lambdaShare);
      }
    }
    return new Fitted(sampled.size(), s, mean, share);
  }

  /** The items of the validation sample (label index >= 0), after checking every label slot. */
  private static List<Integer> sampled(Codes codes, double[][] p, int[] label) {
    if (label == null || label.length != p.length) {
      throw new IllegalArgumentException(
          "one label slot per item needed: "
              + (label == null ? "none" : label.length)
              + " for "
              + p.length
              + " items");
    }
    List<Integer> sample = new ArrayList<>();
    for (int i = 0; i < p.length; i++) {
      if (label[i] < -1 || label[i] >= codes.size()) {
        throw new IllegalArgumentException(
            "item " + i + ": label index " + label[i] + " is not a code of " + codes.codes());
      }
      if (label[i] >= 0) {
        sample.add(i);
      }
    }
    if (sample.size() < 2) {
      throw new IllegalArgumentException(
          "a validation sample needs at least 2 labelled items, got " + sample.size());
    }
    return sample;
  }

  /**
   * The sample's columns: per code its human indicators {@code ys} and probabilities {@code fs},
   * the indicator {@code yk} and probability {@code fk} of a known code, and a column of ones.
   */
  private record Sample(double[][] ys, double[][] fs, double[] yk, double[] fk, double[] ones) {

    static Sample of(Codes codes, double[][] p, int[] label, List<Integer> sampled) {
      int n = sampled.size();
      int kk = codes.size();
      double[][] ys = new double[kk][n];
      double[][] fs = new double[kk][n];
      double[] yk = new double[n];
      double[] fk = new double[n];
      double[] ones = new double[n];
      java.util.Arrays.fill(ones, 1.0);
      for (int j = 0; j < n; j++) {
        int i = sampled.get(j);
        int l = label[i];
        ys[l][j] = 1;
        yk[j] = codes.known(l) ? 1 : 0;
        for (int k = 0; k < kk; k++) {
          fs[k][j] = p[i][k];
          if (codes.known(k)) {
            fk[j] += p[i][k];
          }
        }
      }
      return new Sample(ys, fs, yk, fk, ones);
    }
  }

  /**
   * One code's row: the count clipped to what the sample's own labels make certain (at least the
   * items labelled c are c, at most all but the items labelled otherwise), and its share.
   */
  private static Estimate row(
      String code,
      double[] ys,
      Ratio mean,
      Ratio share,
      double[] meanCi,
      double[] shareCi,
      String method,
      int bigN,
      double level) {
    int n = ys.length;
    int seen = 0;
    for (int j = 0; j < n; j++) {
      seen += (int) ys[j];
    }
    double lo = Math.max(seen, meanCi[0] * bigN);
    double hi = Math.min(bigN - (n - seen), meanCi[1] * bigN);
    double count = Math.max(lo, Math.min(hi, mean.estimate() * bigN));
    return new Estimate(
        code,
        count,
        lo,
        Math.max(lo, hi),
        share == null ? Double.NaN : clip(share.estimate()),
        share == null ? Double.NaN : shareCi[0],
        share == null ? Double.NaN : shareCi[1],
        method,
        n,
        bigN,
        level);
  }

  /**
   * λ of a tuning. PPI++ takes one λ for all the codes (as Angelopoulos, Duchi and Zrnic do for a
   * vector estimand: the λ that minimises the trace of the estimate's covariance), here the λ that
   * minimises the summed sample variance of the linearised residuals (Y_c − s_c Y_K) − λ(f_c − s_c
   * f_K) at the PPI estimates s_c, clipped to [0, 1]. One λ per code was tried first and
   * under-covered rare codes (their λ is estimated from one or two positive items).
   */
  static double lambda(
      Tuning tuning,
      double[][] ys,
      double[] yk,
      double[][] fs,
      double[] fk,
      double[] meanF,
      double meanFk,
      boolean[] use) {
    if (tuning == Tuning.PPI) {
      return 1.0;
    }
    if (tuning == Tuning.SAMPLE_ONLY) {
      return 0.0;
    }
    int n = yk.length;
    double num = 0;
    double den = 0;
    double b1 = meanFk + mean(yk) - mean(fk);
    for (int k = 0; k < ys.length; k++) {
      if (!use[k]) {
        continue;
      }
      double a1 = meanF[k] + mean(ys[k]) - mean(fs[k]);
      double s = b1 > 1e-12 ? clip(a1 / b1) : 0;
      double[] zy = new double[n];
      double[] zf = new double[n];
      for (int j = 0; j < n; j++) {
        zy[j] = ys[k][j] - s * yk[j];
        zf[j] = fs[k][j] - s * fk[j];
      }
      num += cov(zy, zf);
      den += cov(zf, zf);
    }
    return den <= 1e-15 ? 0 : Math.max(0, Math.min(1, num / den));
  }

  static double clip(double v) {
    return Double.isNaN(v) ? v : Math.max(0, Math.min(1, v));
  }

  /** One ratio θ_c / θ_K over the sample (for a mean, y_K = f_K = 1), λ fixed at construction. */
  static final class Ratio implements EstimatingFunction {
    final double[] yc;
    final double[] yk;
    final double[] fc;
    final double[] fk;
    final double meanFc;
    final double meanFk;
    final double lambda;
    final double a;
    final double b;
    final boolean mean;
    final double floor;
    private final double ccc;
    private final double cck;
    private final double ckk;
    private final double vcc;
    private final double vck;
    private final double vkk;

    Ratio(
        double[] yc,
        double[] yk,
        double[] fc,
        double[] fk,
        double meanFc,
        double meanFk,
        double lambda) {
      this.yc = yc;
      this.yk = yk;
      this.fc = fc;
      this.fk = fk;
      this.meanFc = meanFc;
      this.meanFk = meanFk;
      this.lambda = lambda;
      this.a = lambda * meanFc + mean(yc) - lambda * mean(fc);
      this.b = lambda * meanFk + mean(yk) - lambda * mean(fk);
      this.mean = yk == fk; // a mean: both are the column of ones
      this.floor = disagreementFloor(yc.length, lambda);
      this.ccc = cov(yc, fc);
      this.cck = cov(yc, fk) + cov(yk, fc);
      this.ckk = cov(yk, fk);
      this.vcc = cov(fc, fc);
      this.vck = cov(fc, fk);
      this.vkk = cov(fk, fk);
    }

    @Override
    public double a() {
      return a;
    }

    @Override
    public double b() {
      return b;
    }

    double estimate() {
      return b > 1e-12 ? a / b : Double.NaN;
    }

    double[] interval(Interval kind, double z, double fpc) {
      return switch (kind) {
        case WALD -> wald(z, fpc);
        case SCORE -> score(z, fpc, 0);
        case SCORE_CC -> score(z, fpc, fpc * 0.5 / yc.length);
        case BOOTSTRAP -> throw new IllegalStateException("bootstrap is computed for all codes");
      };
    }

    double[] wald(double z, double fpc) {
      if (b <= 1e-12) {
        return new double[] {0, 1};
      }
      double s = a / b;
      int n = yc.length;
      double[] d = new double[n];
      for (int j = 0; j < n; j++) {
        d[j] = (yc[j] - s * yk[j]) - lambda * (fc[j] - s * fk[j]);
      }
      double se = Math.sqrt(cov(d, d) / n * fpc) / b;
      return new double[] {clip(s - z * se), clip(s + z * se)};
    }

    double[] score(double z, double fpc, double correction) {
      if (b <= 1e-12) {
        return new double[] {0, 1};
      }
      return ScoreInterval.solve(a, b, this::variance, z * z * fpc / yc.length, correction);
    }

    /**
     * The variance of one sampled item's residual at s: the labels' part taken at s (b·s(1 − s),
     * Wilson-like) less what the predictions explain, never below the disagreement floor.
     */
    @Override
    public double variance(double s) {
      double bNull = Math.min(1, b);
      double v =
          bNull * s * (1 - s)
              - 2 * lambda * (ccc - s * cck + s * s * ckk)
              + lambda * lambda * (vcc - 2 * s * vck + s * s * vkk);
      return Math.max(Math.max(0, v), floor * (mean ? 1 : (1 - s) * (1 - s)));
    }
  }

  /**
   * The disagreement floor's prior: the residual's variance is taken as at least λ²·{@value
   * #FLOOR_PRIOR} / (n + 2·{@value #FLOOR_PRIOR}), the posterior mean of a disagreement rate under
   * a Beta({@value #FLOOR_PRIOR}, {@value #FLOOR_PRIOR}) prior when a sample of n saw none. Without
   * it a sample that saw no disagreement on a code (a language model's point answers all right on
   * the sample) gives the rectifier no variance and the interval no width, although an error rate
   * up to about 3/n is plausible (the "rule of three", Hanley and Lippman-Hand, JAMA 1983); where
   * the sample saw disagreements their variance is the sample's. Chosen by the coverage of rare
   * codes in {@code
   * PredictionPoweredTest#theDisagreementFloorHoldsCoverageWhereTheSampleSawNoError}.
   */
  static final double FLOOR_PRIOR = 0.5;

  /** See {@link #FLOOR_PRIOR}. */
  static double disagreementFloor(int n, double lambda) {
    return lambda * lambda * FLOOR_PRIOR / (n + 2 * FLOOR_PRIOR);
  }

  /** Percentile bootstrap over the sample, all codes on the same resamples. */
  private static void bootstrap(
      Ratio[] mean,
      Ratio[] share,
      int n,
      double fpc,
      double level,
      long seed,
      double[][] meanCi,
      double[][] shareCi) {
    int kk = mean.length;
    int r = BOOTSTRAP_RESAMPLES;
    double[][] mb = new double[kk][r];
    double[][] sb = new double[kk][r];
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] pick = new int[n];
    for (int b = 0; b < r; b++) {
      for (int j = 0; j < n; j++) {
        pick[j] = rnd.nextInt(n);
      }
      for (int k = 0; k < kk; k++) {
        mb[k][b] = resampled(mean[k], pick);
        if (share[k] != null) {
          sb[k][b] = resampled(share[k], pick);
        }
      }
    }
    double sq = Math.sqrt(fpc);
    for (int k = 0; k < kk; k++) {
      meanCi[k] = percentiles(mean[k].estimate(), mb[k], level, sq);
      if (share[k] != null) {
        shareCi[k] = percentiles(share[k].estimate(), sb[k], level, sq);
      }
    }
  }

  private static double resampled(Ratio x, int[] pick) {
    double sy = 0;
    double sf = 0;
    double syk = 0;
    double sfk = 0;
    for (int j : pick) {
      sy += x.yc[j];
      sf += x.fc[j];
      syk += x.yk[j];
      sfk += x.fk[j];
    }
    int n = pick.length;
    double a = x.lambda * x.meanFc + (sy - x.lambda * sf) / n;
    double b = x.lambda * x.meanFk + (syk - x.lambda * sfk) / n;
    return b > 1e-12 ? a / b : Double.NaN;
  }

  private static double[] percentiles(double est, double[] boot, double level, double sq) {
    double[] v = java.util.Arrays.stream(boot).filter(d -> !Double.isNaN(d)).sorted().toArray();
    if (v.length == 0 || Double.isNaN(est)) {
      return new double[] {0, 1};
    }
    double lo = ClassifyAndCount.percentile(v, (1 - level) / 2);
    double hi = ClassifyAndCount.percentile(v, (1 + level) / 2);
    return new double[] {clip(est - sq * (est - lo)), clip(est + sq * (hi - est))};
  }

  static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  /** Sample covariance (n − 1 in the denominator). */
  static double cov(double[] x, double[] y) {
    int n = x.length;
    double mx = mean(x);
    double my = mean(y);
    double s = 0;
    for (int j = 0; j < n; j++) {
      s += (x[j] - mx) * (y[j] - my);
    }
    return n > 1 ? s / (n - 1) : 0;
  }
}
