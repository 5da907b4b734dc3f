package dev.faultline.estimate.group;

import dev.faultline.estimate.item.Item;

/**
 * How much one item counts in one cell of a grouped estimate, for statistics over the items beside
 * the counts (the weighted median of a fix's changed lines per category): with {@link
 * GroupedEstimator.Mode#ESTIMATE} the item's probability of the kind and the cell's code (or pair
 * of codes) as classified ({@link Item#counted}, {@link Item#countedPair}; the scope-mix correction
 * and validation-sample labels of the counts are not applied); with mode confident or all, 1 where
 * {@link Counted} counts the item in the cell, else 0.
 */
public final class Weights {
  private Weights() {}

  /**
   * The item's weight in the cell {@code code} (and {@code code2} for a pair, {@code code3} for a
   * triple; null without one).
   */
  public static double of(
      Item item, GroupedEstimator.Spec spec, String code, String code2, String code3) {
    int a = spec.dimension().distributionCodes().indexOf(code);
    int b =
        spec.pair() == null
            ? -1
            : spec.cells().indexOf(spec.third() == null ? code2 : code2 + "|" + code3);
    if (a < 0 || (spec.pair() != null && b < 0)) {
      return 0;
    }
    if (spec.mode() != GroupedEstimator.Mode.ESTIMATE) {
      int[] cell = Counted.cell(item, spec);
      return cell != null && cell[0] == a && (spec.pair() == null || cell[1] == b) ? 1 : 0;
    }
    if (spec.pair() == null) {
      return item.counted(0, spec.kind())[a];
    }
    int k2 = spec.cells().size();
    double[] p =
        spec.third() == null
            ? item.countedPair(0, 1, spec.kind())
            : item.countedTriple(0, 1, 2, spec.kind());
    return p[a * k2 + b];
  }
}
