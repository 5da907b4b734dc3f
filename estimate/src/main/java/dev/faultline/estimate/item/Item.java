package dev.faultline.estimate.item;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;

/**
 * One item of a scope as the estimates see it: the probability of each kind, and per dimension the
 * distribution of its code given the kind, with what each rests on ({@link Calibration}); made by
 * {@link ItemModel} from a statement row.
 *
 * <p>The codebook gives the bug-only dimensions ({@link ItemModel#bugOnly}: symptom, symptom class,
 * root cause, fix pattern, distributed-specific) to bug reports only: given any other kind their
 * code is "does not apply" ({@link #notApplicable}). Stage and phase are given for every kind, and
 * the classifier gives no joint of them with the kind: their distribution given a kind is their
 * distribution. Within one kind two dimensions are taken as independent (the product of their
 * conditionals), as the classifier gives one distribution per dimension and no joint.
 *
 * <p>A validation sample's labels of the item ({@link #sample()}) are kept apart: the estimates use
 * them beside the classifier's distributions, not instead of them.
 */
public final class Item {
  private final String id;
  private final double[] kind;
  private final Calibration kindCalibration;
  private final String kindTop;
  private final boolean kindPasses;
  private final List<Field> fields;
  private final double[][] given;
  private final Calibration[] calibration;
  private final String[] top;
  private final boolean[] passes;
  private final Map<String, String> sample;
  private final boolean drawn;
  private final boolean inSamplePopulation;

  Item(
      String id,
      double[] kind,
      Calibration kindCalibration,
      String kindTop,
      boolean kindPasses,
      List<Field> fields,
      double[][] given,
      Calibration[] calibration,
      String[] top,
      boolean[] passes,
      Map<String, String> sample,
      boolean drawn,
      boolean inSamplePopulation) {
    this.id = id;
    this.kind = kind;
    this.kindCalibration = kindCalibration;
    this.kindTop = kindTop;
    this.kindPasses = kindPasses;
    this.fields = fields;
    this.given = given;
    this.calibration = calibration;
    this.top = top;
    this.passes = passes;
    this.sample = sample;
    this.drawn = drawn;
    this.inSamplePopulation = inSamplePopulation;
  }

  /** The item's id (null when the statement gives none). */
  public String id() {
    return id;
  }

  /** The probability that the item is of {@code kindCode} (1 for null: every kind). */
  public double kind(String kindCode) {
    return kindCode == null ? 1 : kind[ItemModel.KIND_CODES.indexOf(kindCode)];
  }

  /** The kind's distribution over {@link Dimension#KIND}'s codes. */
  public double[] kindDistribution() {
    return kind.clone();
  }

  /** What the kind's probability rests on. */
  public Calibration kindCalibration() {
    return kindCalibration;
  }

  /** The classifier's (or a person's) kind code, as stored. */
  public String kindTop() {
    return kindTop;
  }

  /** Whether the kind's label passes its bar. */
  public boolean kindPasses() {
    return kindPasses;
  }

  /** The fields this item was read with, in order. */
  public List<Field> fields() {
    return fields;
  }

  /** The distribution of field {@code f}'s code given the item is of {@code kindCode}. */
  public double[] given(int f, String kindCode) {
    Dimension d = fields.get(f).dimension();
    if (d == Dimension.KIND) {
      if (kindCode == null) {
        return kind.clone();
      }
      double[] out = new double[kind.length];
      out[ItemModel.KIND_CODES.indexOf(kindCode)] = 1;
      return out;
    }
    if (kindCode == null || kindCode.equals("BUG") || !ItemModel.bugOnly(d)) {
      return given[f];
    }
    double[] out = new double[given[f].length];
    out[d.distributionCodes().indexOf(notApplicable(d))] = 1;
    return out;
  }

  /**
   * The probability of each code of field {@code f} and of the kind, then of "not of the kind" (the
   * last entry): P(kind and code); for a null kind, P(code) over every kind.
   */
  public double[] counted(int f, String kindCode) {
    int kk = given[f].length;
    double[] out = new double[kk + 1];
    if (kindCode != null) {
      double w = kind(kindCode);
      double[] g = given(f, kindCode);
      for (int k = 0; k < kk; k++) {
        out[k] = w * g[k];
      }
      out[kk] = Math.max(0, 1 - w);
      return out;
    }
    for (int j = 0; j < kind.length; j++) {
      if (kind[j] <= 0) {
        continue;
      }
      double[] g = given(f, ItemModel.KIND_CODES.get(j));
      for (int k = 0; k < kk; k++) {
        out[k] += kind[j] * g[k];
      }
    }
    return out;
  }

  /**
   * The probability of each pair of codes of fields {@code f1} and {@code f2} (index {@code a *
   * codes(f2) + b}) and of the kind, then of "not of the kind": the two codes independent given the
   * kind.
   */
  public double[] countedPair(int f1, int f2, String kindCode) {
    int k1 = given[f1].length;
    int k2 = given[f2].length;
    double[] out = new double[k1 * k2 + 1];
    double inKind = 0;
    for (int j = 0; j < kind.length; j++) {
      String kc = ItemModel.KIND_CODES.get(j);
      if (kind[j] <= 0 || (kindCode != null && !kindCode.equals(kc))) {
        continue;
      }
      inKind += kind[j];
      double[] a = given(f1, kc);
      double[] b = given(f2, kc);
      for (int x = 0; x < k1; x++) {
        if (a[x] == 0) {
          continue;
        }
        for (int y = 0; y < k2; y++) {
          out[x * k2 + y] += kind[j] * a[x] * b[y];
        }
      }
    }
    out[k1 * k2] = Math.max(0, 1 - inKind);
    return out;
  }

  /**
   * The probability of each triple of codes of fields {@code f1}, {@code f2}, {@code f3} (index
   * {@code (a * codes(f2) + b) * codes(f3) + c}) and of the kind, then of "not of the kind": the
   * three codes independent given the kind.
   */
  public double[] countedTriple(int f1, int f2, int f3, String kindCode) {
    int k1 = given[f1].length;
    int k2 = given[f2].length;
    int k3 = given[f3].length;
    double[] out = new double[k1 * k2 * k3 + 1];
    double inKind = 0;
    for (int j = 0; j < kind.length; j++) {
      String kc = ItemModel.KIND_CODES.get(j);
      if (kind[j] <= 0 || (kindCode != null && !kindCode.equals(kc))) {
        continue;
      }
      inKind += kind[j];
      double[] a = given(f1, kc);
      double[] b = given(f2, kc);
      double[] c = given(f3, kc);
      for (int x = 0; x < k1; x++) {
        for (int y = 0; y < k2 && a[x] > 0; y++) {
          for (int z = 0; z < k3 && b[y] > 0; z++) {
            out[(x * k2 + y) * k3 + z] += kind[j] * a[x] * b[y] * c[z];
          }
        }
      }
    }
    out[k1 * k2 * k3] = Math.max(0, 1 - inKind);
    return out;
  }

  /**
   * The slice of {@link #countedPair} (with {@code f3 < 0}) or {@link #countedTriple} where field
   * {@code f1} has code {@code x}: per code of {@code f2} (and of {@code f3}, the inner index), the
   * probability of that combination and of the kind. O(cells) rather than O(codes(f1) · cells).
   */
  public double[] countedSlice(int f1, int x, int f2, int f3, String kindCode) {
    int k2 = given[f2].length;
    int k3 = f3 < 0 ? 1 : given[f3].length;
    double[] out = new double[k2 * k3];
    for (int j = 0; j < kind.length; j++) {
      String kc = ItemModel.KIND_CODES.get(j);
      if (kind[j] <= 0 || (kindCode != null && !kindCode.equals(kc))) {
        continue;
      }
      double ax = given(f1, kc)[x];
      if (ax == 0) {
        continue;
      }
      double[] b = given(f2, kc);
      double[] c = f3 < 0 ? null : given(f3, kc);
      for (int y = 0; y < k2; y++) {
        if (c == null) {
          out[y] += kind[j] * ax * b[y];
          continue;
        }
        for (int z = 0; z < k3 && b[y] > 0; z++) {
          out[y * k3 + z] += kind[j] * ax * b[y] * c[z];
        }
      }
    }
    return out;
  }

  /** What field {@code f}'s distribution rests on. */
  public Calibration calibration(int f) {
    return calibration[f];
  }

  /** The stored code of field {@code f} (null when the item is unclassified). */
  public String top(int f) {
    return top[f];
  }

  /** Whether field {@code f}'s label passes its bar. */
  public boolean passes(int f) {
    return passes[f];
  }

  /**
   * A validation sample's labels of this item (dimension key to code; a dimension left empty is
   * absent), or null when no sample serving the scope labelled it.
   */
  public Map<String, String> sample() {
    return sample;
  }

  /** Whether the serving validation sample drew this item (labelled or not). */
  public boolean drawn() {
    return drawn;
  }

  /**
   * Whether the item belongs to the population the serving sample was drawn from (in its scope and
   * in the graph when it was drawn); true when no sample serves the scope.
   */
  public boolean inSamplePopulation() {
    return inSamplePopulation;
  }

  /**
   * The code of a bug-only dimension for an item of another kind: NONE where the dimension has it,
   * else its "cannot tell" code (UNKNOWN; null for distributed-specific).
   */
  public static String notApplicable(Dimension d) {
    List<String> codes = d.distributionCodes();
    return codes.contains("NONE") ? "NONE" : codes.contains("UNKNOWN") ? "UNKNOWN" : "null";
  }
}
