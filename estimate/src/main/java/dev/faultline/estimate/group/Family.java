package dev.faultline.estimate.group;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.EstimatingFunction;
import dev.faultline.estimate.PoissonBinomial;
import dev.faultline.estimate.PredictionPowered;
import dev.faultline.estimate.ScoreInterval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The arithmetic of one family of cells: the cells whose shares are taken among each other (a
 * group's codes; for a pair, the codes paired with one code). Each item gives its probability of
 * each cell (the rest: outside the family, e.g. of another kind); a validation sample gives some
 * items' true cell.
 *
 * <p>Without a usable sample, probabilistic classify-and-count (PCC): a cell's count is the sum of
 * its probabilities, its interval the exact Poisson-binomial's combined with the calibration error
 * ({@link ModelError}) by the MOVER (Zou and Donner, "Construction of confidence limits about
 * effect measures: a general approach", Statistics in Medicine 2008); a share's interval is the
 * score-type (Fieller) interval of N_c − s·N_K with the variance of both parts at s ({@link
 * ScoreInterval}). With a sample of at least {@link #MIN_SAMPLE} labelled items in the population
 * it was drawn from: PPI with the continuity-corrected score interval on that population ({@link
 * PredictionPowered}), PCC on the items outside it (added after the draw, or outside its scope),
 * the two combined as strata: counts by the MOVER, shares by one estimating function whose variance
 * is the sum of the strata's. A sample whose drawn items were not all labelled for these cells
 * ("partial") is used with bounds: each cell's interval is the hull of the intervals with every
 * unlabelled drawn item counted in the cell and out of it, so it holds whatever the people skipped.
 */
final class Family {
  /** Labelled sample items in a family's population before PPI is used. */
  static final int MIN_SAMPLE = 10;

  /** Expected known items in a family below which no share is given. */
  static final double MIN_KNOWN = 3;

  /** The PPI interval (chosen by measured coverage, docs/estimates.md). */
  static final PredictionPowered.Tuning TUNING = PredictionPowered.Tuning.PPI;

  /**
   * Continuity correction of the PCC share interval, in items (half an item, as the PPI interval's
   * correction; chosen by coverage on synthetic scopes, GroupedEstimatorCoverageTest).
   */
  static final double PCC_CORRECTION = 0.5;

  /** Label slot of an item outside the sample. */
  static final int NOT_SAMPLED = -1;

  /** Label slot of an item the sample drew and nobody labelled for these cells. */
  static final int MISSING = -2;

  private final List<String> cells;
  private final boolean[] known;
  private final double[] tau;
  private final double tauKnown;
  private final double level;
  private final double z;
  private final String noun;
  private final boolean shifted;
  private final List<double[]> q = new ArrayList<>();
  private final List<Boolean> exact = new ArrayList<>();
  private final List<Boolean> uncalibrated = new ArrayList<>();
  private final List<Integer> label = new ArrayList<>();
  private final List<Boolean> population = new ArrayList<>();

  /** One cell's figures. */
  record Cell(
      double count,
      double countLow,
      double countHigh,
      double share,
      double shareLow,
      double shareHigh,
      String method,
      String basis,
      String note,
      int sampleSize) {}

  /**
   * A family.
   *
   * @param cells the cells' names
   * @param known which cells count in shares
   * @param tau each cell's calibration error τ
   * @param tauKnown the calibration error of the known cells together
   * @param noun what the items of the family are, for the basis ("bug reports")
   * @param shifted whether the items' probabilities were corrected for the scope's mix ({@link
   *     ScopeMix}): the method says so
   */
  Family(
      List<String> cells,
      boolean[] known,
      double[] tau,
      double tauKnown,
      double level,
      double z,
      String noun,
      boolean shifted) {
    this.cells = cells;
    this.known = known;
    this.tau = tau;
    this.tauKnown = tauKnown;
    this.level = level;
    this.z = z;
    this.noun = noun;
    this.shifted = shifted;
  }

  /**
   * Adds an item.
   *
   * @param p its probability of each cell (at most 1 together)
   * @param isExact whether its cells are known for sure (a person's labels): no calibration error
   * @param isUncalibrated whether it rests on a stated prior error
   * @param sampleLabel its cell by the sample ({@code cells.size()}: outside the family), or {@link
   *     #NOT_SAMPLED}, or {@link #MISSING}
   * @param inPopulation whether it belongs to the population the sample was drawn from
   */
  void add(
      double[] p, boolean isExact, boolean isUncalibrated, int sampleLabel, boolean inPopulation) {
    q.add(p);
    exact.add(isExact);
    uncalibrated.add(isUncalibrated);
    label.add(sampleLabel);
    population.add(inPopulation);
  }

  /** The figures of every cell, in the order of {@code cells}. */
  List<Cell> estimate() {
    return estimate(Keep.ALL);
  }

  /**
   * The figures of every cell, in the order of {@code cells}; the cells {@code keep} leaves out get
   * their expected count only ({@link Keep#NOTE}).
   */
  List<Cell> estimate(Keep keep) {
    int labelled = 0;
    int missing = 0;
    for (int i = 0; i < q.size(); i++) {
      if (population.get(i)) {
        labelled += label.get(i) >= 0 ? 1 : 0;
        missing += label.get(i) == MISSING ? 1 : 0;
      }
    }
    boolean ppi = labelled >= MIN_SAMPLE && countPopulation() > labelled;
    Pcc pcc = new Pcc(ppi);
    Ppi rect = ppi ? new Ppi(labelled, missing) : null;
    double[] counts = new double[cells.size()];
    for (int k = 0; k < counts.length; k++) {
      counts[k] = rect == null ? pcc.expected[k] : rect.count(rect.base, k) + pcc.expected[k];
    }
    boolean[] chosen = keep.select(counts, known);
    List<Cell> out = new ArrayList<>();
    for (int k = 0; k < cells.size(); k++) {
      if (!chosen[k]) {
        out.add(leftOut(counts[k]));
      } else {
        out.add(rect == null ? pccCell(pcc, k) : ppiCell(rect, pcc, k));
      }
    }
    return out;
  }

  private static Cell leftOut(double count) {
    return new Cell(
        count,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        "not estimated",
        "",
        Keep.NOTE,
        0);
  }

  private int countPopulation() {
    int n = 0;
    for (boolean b : population) {
      n += b ? 1 : 0;
    }
    return n;
  }

  /** A cell without a sample. */
  private Cell pccCell(Pcc pcc, int k) {
    double[] ci = pcc.countInterval(k);
    Share share = share(k, pcc.expected[k], pcc.expectedKnown, 0, 0, null, pcc);
    String method =
        "pcc"
            + (shifted ? "+prior-shift" : "")
            + pcc.modelErrorTag()
            + (pcc.uncalibratedItems > 0 ? " uncalibrated" : "");
    return new Cell(
        pcc.expected[k],
        ci[0],
        ci[1],
        share.point,
        share.low,
        share.high,
        method,
        pcc.basis(),
        share.note,
        0);
  }

  /** A cell with a sample: PPI on its population, PCC on the rest, bounds for a partial sample. */
  private Cell ppiCell(Ppi rect, Pcc rest, int k) {
    double[] countA = rect.countInterval(rect.base, k);
    double[] countB = rest.countInterval(k);
    double count = rect.count(rect.base, k) + rest.expected[k];
    double[] ci =
        rest.size == 0 ? countA : mover(rect.count(rect.base, k), countA, rest.expected[k], countB);
    Share share = rect.share(k, rest);
    if (rect.missing > 0) {
      // bounds: every unlabelled drawn item in the cell, then out of it
      PredictionPowered.Functions up = rect.imputed(k);
      PredictionPowered.Functions down = rect.imputed(rect.otherThan(k));
      double[] hi = mover(rect.count(up, k), rect.countInterval(up, k), rest.expected[k], countB);
      double[] lo =
          mover(rect.count(down, k), rect.countInterval(down, k), rest.expected[k], countB);
      ci = new double[] {Math.min(ci[0], lo[0]), Math.max(ci[1], hi[1])};
      if (!Double.isNaN(share.point)) {
        Share sUp = rect.share(up, k, rest);
        Share sDown = rect.share(down, k, rest);
        share =
            new Share(
                share.point,
                Math.min(share.low, sDown.low),
                Math.max(share.high, sUp.high),
                share.note);
      }
    }
    String method =
        "ppi/score_cc"
            + (rest.size == 0 ? "" : "+pcc" + rest.modelErrorTag())
            + (rect.missing > 0 ? " partial" : "");
    return new Cell(
        count,
        Math.min(ci[0], count),
        Math.max(ci[1], count),
        share.point,
        share.low,
        share.high,
        method,
        rect.basis() + (rest.size == 0 ? "" : "; " + rest.basis() + " outside it"),
        share.note,
        rect.labelled);
  }

  /** A share and its interval, or NaN with a note. */
  private record Share(double point, double low, double high, String note) {}

  /**
   * The share of cell k from one estimating function over the strata: D(s) = a − s·b, with the
   * variance of the PPI stratum (if any) and of the PCC stratum at s.
   */
  private Share share(
      int k,
      double a,
      double b,
      double aVarScale,
      double correction,
      EstimatingFunction f,
      Pcc pcc) {
    if (!known[k]) {
      return new Share(Double.NaN, Double.NaN, Double.NaN, null);
    }
    if (b < MIN_KNOWN) {
      return new Share(
          Double.NaN,
          Double.NaN,
          Double.NaN,
          String.format(Locale.ROOT, "too few to estimate (≈ %.1f known)", Math.max(0, b)));
    }
    double cc = correction + (pcc.uncertain(k) ? PCC_CORRECTION : 0);
    double[] ci =
        ScoreInterval.solve(
            a,
            b,
            s -> (f == null ? 0 : aVarScale * f.variance(s)) + pcc.shareVariance(k, s),
            z * z,
            cc);
    return new Share(Math.max(0, Math.min(1, a / b)), ci[0], ci[1], null);
  }

  /** The MOVER sum of two independent estimates with their intervals. */
  static double[] mover(double e1, double[] ci1, double e2, double[] ci2) {
    double lo = e1 + e2 - Math.hypot(e1 - Math.min(ci1[0], e1), e2 - Math.min(ci2[0], e2));
    double hi = e1 + e2 + Math.hypot(Math.max(ci1[1], e1) - e1, Math.max(ci2[1], e2) - e2);
    return new double[] {Math.max(0, lo), hi};
  }

  /** The PCC part: every item, or (with PPI) the items outside the sample's population. */
  private final class Pcc {
    final int size;
    final double[] expected;
    double expectedKnown;
    final double[] a;
    final double[] b;
    double c;
    double mass;
    int uncalibratedItems;
    final List<Integer> members = new ArrayList<>();
    private String basis;

    Pcc(boolean onlyOutsidePopulation) {
      int m = cells.size();
      expected = new double[m];
      a = new double[m];
      b = new double[m];
      for (int i = 0; i < q.size(); i++) {
        if (onlyOutsidePopulation && population.get(i)) {
          continue;
        }
        members.add(i);
        add(q.get(i), exact.get(i), uncalibrated.get(i));
      }
      size = members.size();
    }

    private void add(double[] p, boolean isExact, boolean isUncalibrated) {
      double inFamily = 0;
      double pk = 0;
      for (int k = 0; k < p.length; k++) {
        inFamily += p[k];
        pk += known[k] ? p[k] : 0;
      }
      for (int k = 0; k < p.length; k++) {
        expected[k] += p[k];
        a[k] += p[k] * (1 - p[k]);
        b[k] += known[k] ? p[k] * (1 - pk) : 0;
      }
      expectedKnown += pk;
      c += pk * (1 - pk);
      mass += isExact ? 0 : inFamily;
      uncalibratedItems += isUncalibrated && inFamily > 0 ? 1 : 0;
    }

    /** The count's interval: the Poisson-binomial's with the calibration error (MOVER). */
    double[] countInterval(int k) {
      double e = expected[k];
      if (size == 0) {
        return new double[] {0, 0};
      }
      double[] col = new double[size];
      for (int j = 0; j < size; j++) {
        col[j] = Math.min(1, Math.max(0, q.get(members.get(j))[k]));
      }
      int[] pb = PoissonBinomial.interval(col, level);
      double sd = tau[k] * mass;
      double lo = e - Math.hypot(e - Math.min(pb[0], e), z * sd);
      double hi = e + Math.hypot(Math.max(pb[1], e) - e, z * sd);
      return new double[] {Math.max(0, lo), Math.min(size, hi)};
    }

    /** Var(N_k − s·N_K) at s: per item, and the calibration error. */
    double shareVariance(int k, double s) {
      if (size == 0) {
        return 0;
      }
      double perItem = a[k] - 2 * s * b[k] + s * s * c;
      double model =
          mass * mass * ((1 - s) * (1 - s) * tau[k] * tau[k] + s * s * tauKnown * tauKnown);
      return Math.max(0, perItem) + model;
    }

    /**
     * Whether cell k's share rests on any uncertainty of the PCC part (not only people's labels).
     */
    boolean uncertain(int k) {
      return size > 0 && (a[k] + c > 1e-12 || mass > 0);
    }

    String modelErrorTag() {
      return mass > 0 && (tauKnown > 0 || Arrays.stream(tau).anyMatch(t -> t > 0))
          ? "+model-error"
          : "";
    }

    String basis() {
      if (basis == null) {
        basis = describe();
      }
      return basis;
    }

    private String describe() {
      return String.format(
              Locale.ROOT,
              "pcc over ≈ %.1f %s (%d item%s)",
              Arrays.stream(expected).sum(),
              noun,
              size,
              size == 1 ? "" : "s")
          + (uncalibratedItems > 0 ? "; " + uncalibratedItems + " uncalibrated" : "");
    }
  }

  /** The PPI part over the sample's population. */
  private final class Ppi {
    final int labelled;
    final int missing;
    final List<Integer> members = new ArrayList<>();
    final Codes codes;
    final double[][] p;
    final int[] labels;
    final PredictionPowered.Functions base;

    Ppi(int labelled, int missing) {
      this.labelled = labelled;
      this.missing = missing;
      int m = cells.size();
      List<String> withOutside = new ArrayList<>(cells);
      withOutside.add("\u0000outside");
      Set<String> excluded = new HashSet<>();
      for (int k = 0; k < m; k++) {
        if (!known[k]) {
          excluded.add(cells.get(k));
        }
      }
      excluded.add("\u0000outside");
      codes = new Codes(withOutside, excluded);
      for (int i = 0; i < q.size(); i++) {
        if (population.get(i)) {
          members.add(i);
        }
      }
      p = new double[members.size()][];
      labels = new int[members.size()];
      for (int j = 0; j < members.size(); j++) {
        double[] row = Arrays.copyOf(q.get(members.get(j)), m + 1);
        double in = 0;
        for (int k = 0; k < m; k++) {
          in += row[k];
        }
        row[m] = Math.max(0, 1 - in);
        normalise(row);
        p[j] = row;
        labels[j] = label.get(members.get(j));
      }
      base = PredictionPowered.functions(codes, p, withMissingAs(NOT_SAMPLED), TUNING);
    }

    private int[] withMissingAs(int slot) {
      int[] out = labels.clone();
      for (int j = 0; j < out.length; j++) {
        if (out[j] == MISSING) {
          out[j] = slot;
        } else if (out[j] < NOT_SAMPLED) {
          out[j] = NOT_SAMPLED;
        }
      }
      return out;
    }

    /** The functions with every unlabelled drawn item labelled {@code slot}. */
    PredictionPowered.Functions imputed(int slot) {
      return PredictionPowered.functions(codes, p, withMissingAs(slot), TUNING);
    }

    /** A slot that is not cell k: another known cell, else outside. */
    int otherThan(int k) {
      for (int j = 0; j < cells.size(); j++) {
        if (j != k && known[j]) {
          return j;
        }
      }
      return cells.size();
    }

    double count(PredictionPowered.Functions f, int k) {
      return Math.max(0, Math.min(1, f.mean()[k].a())) * f.bigN();
    }

    double[] countInterval(PredictionPowered.Functions f, int k) {
      double fpc = f.fpc();
      double[] ci =
          ScoreInterval.solve(
              f.mean()[k].a(), 1, f.mean()[k]::variance, z * z * fpc / f.n(), fpc * 0.5 / f.n());
      int seen = f.seen()[k];
      double lo = Math.max(seen, ci[0] * f.bigN());
      double hi = Math.min(f.bigN() - (f.n() - seen), ci[1] * f.bigN());
      return new double[] {lo, Math.max(lo, hi)};
    }

    Share share(int k, Pcc rest) {
      return share(base, k, rest);
    }

    Share share(PredictionPowered.Functions f, int k, Pcc rest) {
      EstimatingFunction s = f.share()[k];
      if (s == null) {
        return new Share(Double.NaN, Double.NaN, Double.NaN, null);
      }
      double bigN = f.bigN();
      double fpc = f.fpc();
      return Family.this.share(
          k,
          bigN * s.a() + rest.expected[k],
          bigN * s.b() + rest.expectedKnown,
          bigN * bigN * fpc / f.n(),
          bigN * fpc * 0.5 / f.n(),
          s,
          rest);
    }

    String basis() {
      int drawn = labelled + missing;
      return String.format(
          Locale.ROOT,
          "ppi over %d %s in the sample's population, %d labelled%s",
          members.size(),
          noun,
          labelled,
          missing > 0
              ? String.format(
                  Locale.ROOT,
                  " (partial: %d of %d drawn labelled, bounds for the %d unlabelled)",
                  labelled,
                  drawn,
                  missing)
              : "");
    }
  }

  private static void normalise(double[] row) {
    double s = 0;
    for (double v : row) {
      s += v;
    }
    if (s > 0) {
      for (int k = 0; k < row.length; k++) {
        row[k] /= s;
      }
    }
  }
}
