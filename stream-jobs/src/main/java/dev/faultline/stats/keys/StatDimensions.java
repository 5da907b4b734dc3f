package dev.faultline.stats.keys;

import dev.faultline.schemas.StatDimension;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Arrays;
import java.util.List;

/**
 * The dimensions the statistics count over: every {@link Dimension} but the kind, in declaration
 * order.
 */
public final class StatDimensions {
  /** The counted dimensions; an issue contributes one entry per dimension, in this order. */
  public static final List<Dimension> COUNTED =
      Arrays.stream(Dimension.values()).filter(d -> d != Dimension.KIND).toList();

  private StatDimensions() {}

  /** The position of a counted dimension in {@link #COUNTED}. */
  public static int indexOf(Dimension d) {
    int i = COUNTED.indexOf(d);
    if (i < 0) {
      throw new IllegalArgumentException(d + " is not counted by the statistics");
    }
    return i;
  }

  /**
   * Whether the codebook gives a dimension to bug reports only (the others get NONE, UNKNOWN or
   * null), so its distribution already holds P(bug and code): every counted dimension but stage and
   * phase, as the estimate module's item model reads them ({@code graph.estimate.CategoryShares}).
   */
  public static boolean onlyForBugs(Dimension d) {
    return d != Dimension.STAGE && d != Dimension.PHASE && d != Dimension.KIND;
  }

  /** The Avro enum of the same name: the one mapping to the statistics and alert topics. */
  public static StatDimension toAvro(Dimension d) {
    return StatDimension.valueOf(d.name());
  }

  /**
   * Number of categories of the taxonomy in this dimension that the detectors alert on (not {@code
   * UNKNOWN}, {@code NONE}, {@code UNREPORTED} or {@code OTHER}).
   */
  public static int informativeCategories(Dimension d) {
    if (d == Dimension.DISTRIBUTED_SPECIFIC) {
      return 2; // TRUE, FALSE
    }
    int n = 0;
    for (String code : d.symbols()) {
      n += Categories.informative(code) ? 1 : 0;
    }
    return n;
  }
}
