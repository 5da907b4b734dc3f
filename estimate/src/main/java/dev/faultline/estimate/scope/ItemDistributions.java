package dev.faultline.estimate.scope;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;

/**
 * Reads an item's stored distribution over a dimension's codes from a statement row: the list
 * property {@link Dimension#probabilitiesProperty()} the graph keeps beside each label, aligned
 * with {@link Dimension#distributionCodes()}. A label without one (written before distributions
 * were kept) is a point mass on its code.
 */
final class ItemDistributions {
  private ItemDistributions() {}

  /** The codes of a dimension in the order of its stored probabilities. */
  static List<String> codes(Dimension dimension) {
    return dimension.distributionCodes();
  }

  /**
   * The item's distribution over {@code codes}: the row's {@code p} list, or a point mass on its
   * {@code top} code.
   */
  static double[] distribution(Map<String, Object> item, Dimension dimension, List<String> codes) {
    return distribution(item.get("p"), item.get("top"), codes);
  }

  /** The item's probability of one code of a dimension, from the row's list or its top code. */
  static double probabilityOf(
      Map<String, Object> item,
      String listColumn,
      String topColumn,
      Dimension dimension,
      String code) {
    List<String> codes = codes(dimension);
    double[] d = distribution(item.get(listColumn), item.get(topColumn), codes);
    int k = codes.indexOf(code);
    if (k < 0) {
      throw new IllegalArgumentException("unknown " + dimension.key() + " code '" + code + "'");
    }
    return d[k];
  }

  private static double[] distribution(Object list, Object top, List<String> codes) {
    double[] d = new double[codes.size()];
    if (list instanceof List<?> values && values.size() == codes.size()) {
      double sum = 0;
      for (int k = 0; k < d.length; k++) {
        Object v = values.get(k);
        d[k] = v instanceof Number number ? Math.max(0, number.doubleValue()) : 0;
        sum += d[k];
      }
      if (sum > 0) {
        for (int k = 0; k < d.length; k++) {
          d[k] /= sum; // stored rounded: renormalise
        }
        return d;
      }
    }
    int k = top == null ? codes.indexOf("UNKNOWN") : codes.indexOf(String.valueOf(top));
    if (k < 0) {
      k = codes.contains("UNKNOWN") ? codes.indexOf("UNKNOWN") : codes.indexOf("null");
    }
    d[k] = 1;
    return d;
  }
}
