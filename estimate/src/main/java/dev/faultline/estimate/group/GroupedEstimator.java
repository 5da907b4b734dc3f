package dev.faultline.estimate.group;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The one estimator behind every count and share the product shows: per group (a month, a release,
 * a framework, or one group for the whole scope) and per code of a dimension (or pair of codes of
 * two dimensions), the expected number of items of a kind with that code and its share among the
 * group's known codes, each with a 90% interval, the method and what it rests on ({@link Row}).
 * Items come from {@link ItemModel} (field 0: the dimension; field 1: the pair's second); the
 * arithmetic of each family of cells is {@link Family}'s.
 *
 * <p>{@link Mode#CONFIDENT} and {@link Mode#ALL} count labels instead (above the bar, or every top
 * label): no interval, method "count of labels".
 */
public final class GroupedEstimator {
  /** The intervals' nominal coverage. */
  public static final double LEVEL = 0.9;

  private static final double Z =
      new NormalDistribution().inverseCumulativeProbability((1 + LEVEL) / 2);

  /** What is counted. */
  public enum Mode {
    /** Expected counts and shares with intervals (the default). */
    ESTIMATE,
    /** Labels above the bar (and of the kind above its bar). */
    CONFIDENT,
    /** Every top label. */
    ALL;

    /** {@code estimate}, {@code confident} or {@code all} (null: estimate). */
    public static Mode parse(String text) {
      if (text == null) {
        return ESTIMATE;
      }
      for (Mode m : values()) {
        if (m.name().equalsIgnoreCase(text)) {
          return m;
        }
      }
      throw new IllegalArgumentException(
          "mode must be estimate, confident or all, not '" + text + "'");
    }
  }

  /**
   * What to estimate.
   *
   * @param dimension the counted dimension (the items' field 0)
   * @param pair the second dimension of a pair (field 1), or null
   * @param kind count items of this kind (null: every kind)
   * @param mode estimate, or count labels
   * @param modelError the calibration error added to the classifier's per-item uncertainty
   * @param third the third dimension of a triple (field 2; needs a pair), or null: a family is then
   *     a code of the first dimension, its cells the pairs of the second's and third's codes
   */
  public record Spec(
      Dimension dimension,
      Dimension pair,
      String kind,
      Mode mode,
      ModelError modelError,
      Dimension third) {
    /** One dimension or a pair. */
    public Spec(
        Dimension dimension, Dimension pair, String kind, Mode mode, ModelError modelError) {
      this(dimension, pair, kind, mode, modelError, null);
    }

    public Spec {
      if (third != null && pair == null) {
        throw new IllegalArgumentException("a third dimension needs a pair");
      }
      Objects.requireNonNull(dimension, "dimension");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(modelError, "modelError");
      if (kind != null && !ItemModel.KIND_CODES.contains(kind)) {
        throw new IllegalArgumentException(
            "unknown kind '" + kind + "' (kinds: " + ItemModel.KIND_CODES + ")");
      }
    }

    /**
     * The cells of a family of the second dimension (of a triple: each pair of the second's and
     * third's codes, named {@code second|third}, the second's outer).
     */
    public List<String> cells() {
      List<String> codes2 = pair.distributionCodes();
      if (third == null) {
        return codes2;
      }
      List<String> out = new ArrayList<>();
      for (String b : codes2) {
        for (String c : third.distributionCodes()) {
          out.add(b + "|" + c);
        }
      }
      return out;
    }

    /** One dimension, items of a kind, estimated with the shipped calibration error. */
    public static Spec of(Dimension dimension, String kind) {
      return new Spec(dimension, null, kind, Mode.ESTIMATE, ModelError.shipped());
    }
  }

  private GroupedEstimator() {}

  /**
   * The rows: per group in order of first appearance, per code (per pair of codes, the first
   * dimension's outer) in the dimensions' code order.
   *
   * @param items the scope's items; a null entry only names its group (a group with no item, e.g. a
   *     release nobody filed an issue against, still gets its rows: zero estimates, no share)
   * @param groups each item's group key (same order as {@code items})
   */
  public static List<Row> estimate(List<Item> items, List<List<Object>> groups, Spec spec) {
    return estimate(items, groups, spec, Keep.ALL);
  }

  /**
   * The rows, as {@link #estimate(List, List, Spec)}, with intervals only for the cells {@code
   * keep} selects in each family (the others: expected count only, {@link Keep#NOTE}).
   */
  public static List<Row> estimate(
      List<Item> items, List<List<Object>> groups, Spec spec, Keep keep) {
    if (items.size() != groups.size()) {
      throw new IllegalArgumentException(
          items.size() + " items but " + groups.size() + " group keys");
    }
    Map<List<Object>, List<Item>> byGroup = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      List<Item> members = byGroup.computeIfAbsent(groups.get(i), g -> new ArrayList<>());
      if (items.get(i) != null) {
        members.add(items.get(i));
      }
    }
    List<Row> out = new ArrayList<>();
    byGroup.forEach((g, members) -> out.addAll(group(g, members, spec, keep)));
    return out;
  }

  private static List<Row> group(List<Object> key, List<Item> items, Spec spec, Keep keep) {
    List<String> codes = spec.dimension().distributionCodes();
    List<String> codes2 = spec.pair() == null ? null : spec.cells();
    double expected = 0;
    for (Item item : items) {
      expected += item.kind(spec.kind());
    }
    List<Row> out = new ArrayList<>();
    if (spec.mode() != Mode.ESTIMATE) {
      return Counted.rows(key, items, spec, expected);
    }
    long[][] labelled = labelled(items, spec);
    if (codes2 == null) {
      List<Family.Cell> cells = single(items, spec, expected).estimate(keep);
      for (int k = 0; k < codes.size(); k++) {
        out.add(row(key, codes.get(k), null, cells.get(k), labelled[k][0], items, expected));
      }
      return out;
    }
    for (int a = 0; a < codes.size(); a++) {
      List<Family.Cell> cells = paired(items, spec, a).estimate(keep);
      for (int b = 0; b < codes2.size(); b++) {
        String[] parts = codes2.get(b).split("\\|", 2);
        Row r = row(key, codes.get(a), parts[0], cells.get(b), labelled[a][b], items, expected);
        out.add(parts.length == 1 ? r : withThird(r, parts[1]));
      }
    }
    return out;
  }

  private static Row row(
      List<Object> key,
      String code,
      String code2,
      Family.Cell c,
      long labelled,
      List<Item> items,
      double expected) {
    return new Row(
        key,
        code,
        code2,
        c.count(),
        c.countLow(),
        c.countHigh(),
        c.share(),
        c.shareLow(),
        c.shareHigh(),
        c.method(),
        c.basis(),
        c.note(),
        labelled,
        c.sampleSize(),
        items.size(),
        expected);
  }

  static Row withThird(Row r, String code3) {
    return new Row(
        r.group(),
        r.code(),
        r.code2(),
        r.estimate(),
        r.estimateLow(),
        r.estimateHigh(),
        r.share(),
        r.shareLow(),
        r.shareHigh(),
        r.method(),
        r.basis(),
        r.note(),
        r.labelled(),
        r.sampleSize(),
        r.items(),
        r.expected(),
        code3);
  }

  /**
   * The family of one dimension's codes; where {@link ScopeMix} applies, the learned items'
   * probabilities corrected for the scope's mix of codes.
   */
  private static Family single(List<Item> items, Spec spec, double expected) {
    Dimension d = spec.dimension();
    List<String> codes = d.distributionCodes();
    double[][] p = new double[items.size()][];
    for (int i = 0; i < items.size(); i++) {
      p[i] = java.util.Arrays.copyOf(items.get(i).counted(0, spec.kind()), codes.size());
    }
    boolean shifted = ScopeMix.adjust(items, spec, expected, p);
    Family f = family(d, codes, spec, shifted);
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      f.add(
          p[i],
          exact(item, 0, spec),
          uncalibrated(item, 0, spec),
          Samples.label(item, spec, codes, -1),
          item.inSamplePopulation());
    }
    return f;
  }

  /**
   * The family of the second dimension's codes (of a triple: pairs of the second's and third's)
   * with the first's code {@code a}.
   */
  private static Family paired(List<Item> items, Spec spec, int a) {
    List<String> codes2 = spec.cells();
    boolean triple = spec.third() != null;
    Family f = triple ? tripleFamily(spec) : family(spec.pair(), codes2, spec);
    for (Item item : items) {
      double[] row = item.countedSlice(0, a, 1, triple ? 2 : -1, spec.kind());
      f.add(
          row,
          exact(item, 0, spec) && exact(item, 1, spec) && (!triple || exact(item, 2, spec)),
          uncalibrated(item, 0, spec)
              || uncalibrated(item, 1, spec)
              || (triple && uncalibrated(item, 2, spec)),
          Samples.label(item, spec, codes2, a),
          item.inSamplePopulation());
    }
    return f;
  }

  /**
   * A triple's family: a cell is known when both its codes are; its calibration error the sum of
   * the two codes' (conservative: the errors of two labels can add up).
   */
  private static Family tripleFamily(Spec spec) {
    List<String> cells = spec.cells();
    boolean[] known = new boolean[cells.size()];
    double[] tau = new double[cells.size()];
    for (int k = 0; k < cells.size(); k++) {
      String[] parts = cells.get(k).split("\\|", 2);
      known[k] = !Codes.NOT_KNOWN.contains(parts[0]) && !Codes.NOT_KNOWN.contains(parts[1]);
      tau[k] =
          spec.modelError().tau(spec.pair(), parts[0])
              + spec.modelError().tau(spec.third(), parts[1]);
    }
    double tauKnown =
        spec.modelError().tauKnown(spec.pair()) + spec.modelError().tauKnown(spec.third());
    return new Family(cells, known, tau, tauKnown, LEVEL, Z, noun(spec.kind()), false);
  }

  private static Family family(Dimension d, List<String> codes, Spec spec) {
    return family(d, codes, spec, false);
  }

  private static Family family(Dimension d, List<String> codes, Spec spec, boolean shifted) {
    boolean[] known = new boolean[codes.size()];
    double[] tau = new double[codes.size()];
    for (int k = 0; k < codes.size(); k++) {
      known[k] = !Codes.NOT_KNOWN.contains(codes.get(k));
      tau[k] = spec.modelError().tau(d, codes.get(k));
    }
    return new Family(
        codes, known, tau, spec.modelError().tauKnown(d), LEVEL, Z, noun(spec.kind()), shifted);
  }

  /** Whether an item's counted labels are a person's (no calibration error). */
  private static boolean exact(Item item, int f, Spec spec) {
    return item.calibration(f).human() && (spec.kind() == null || item.kindCalibration().human());
  }

  private static boolean uncalibrated(Item item, int f, Spec spec) {
    return item.calibration(f).basis() == dev.faultline.estimate.item.Calibration.Basis.PRIOR
        || (spec.kind() != null
            && item.kindCalibration().basis()
                == dev.faultline.estimate.item.Calibration.Basis.PRIOR);
  }

  /**
   * Per cell, the items whose labels of the cell pass the bar and whose kind is the kind, above its
   * bar: indexed by the first dimension's code and the family's cell (one column without a pair; of
   * a triple, the pair of the second's and third's codes, the second's outer, as {@link
   * Spec#cells()}), counted in one pass.
   */
  static long[][] labelled(List<Item> items, Spec spec) {
    List<String> codes = spec.dimension().distributionCodes();
    List<String> codes2 = spec.pair() == null ? null : spec.pair().distributionCodes();
    List<String> codes3 = spec.third() == null ? null : spec.third().distributionCodes();
    int n3 = codes3 == null ? 1 : codes3.size();
    long[][] n = new long[codes.size()][codes2 == null ? 1 : codes2.size() * n3];
    for (Item item : items) {
      boolean kindOk =
          spec.kind() == null || (spec.kind().equals(item.kindTop()) && item.kindPasses());
      int a = index(codes, item, 0);
      int b = codes2 == null ? 0 : index(codes2, item, 1);
      int c = codes3 == null ? 0 : index(codes3, item, 2);
      if (kindOk && a >= 0 && b >= 0 && c >= 0) {
        n[a][b * n3 + c]++;
      }
    }
    return n;
  }

  /** The index of field {@code f}'s label among the codes when it passes its bar, else -1. */
  private static int index(List<String> codes, Item item, int f) {
    return item.passes(f) && item.top(f) != null ? codes.indexOf(item.top(f)) : -1;
  }

  /** What the items of a kind are called in a row's basis. */
  static String noun(String kind) {
    if (kind == null) {
      return "issues";
    }
    return switch (kind) {
      case "BUG" -> "bug reports";
      case "FEATURE_REQUEST" -> "feature requests";
      case "QUESTION" -> "questions";
      case "DOCUMENTATION" -> "documentation issues";
      default -> kind.toLowerCase(Locale.ROOT) + " issues";
    };
  }
}
