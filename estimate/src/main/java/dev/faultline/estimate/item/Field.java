package dev.faultline.estimate.item;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Objects;

/**
 * Where a statement row keeps one dimension's label of an item: the columns of its code, its stored
 * distribution, its calibration marker and whether it passes the confidence bar.
 *
 * @param dimension the dimension (for the symptom class, the row may carry the symptom's
 *     distribution: {@link ItemModel} sums it by class)
 * @param top column of the code (a string; true/false/null for distributed-specific)
 * @param p column of the distribution, a list aligned with {@link Dimension#distributionCodes()}
 * @param calibration column of the {@code <key>Calibration} marker
 * @param passes column of whether the label passes the bar (for the {@code labelled} counts)
 * @param kindP optional column of the kind distribution the field's distribution was written with,
 *     where it comes from another node than the item's kind (a merged change's own fix pattern
 *     beside the kind of the bug report it fixes); null, or the column absent or null in a row: the
 *     item's kind distribution
 */
public record Field(
    Dimension dimension, String top, String p, String calibration, String passes, String kindP) {
  /** A field whose distribution was written with the item's kind distribution. */
  public Field(Dimension dimension, String top, String p, String calibration, String passes) {
    this(dimension, top, p, calibration, passes, null);
  }

  public Field {
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(top, "top");
    Objects.requireNonNull(p, "p");
    Objects.requireNonNull(calibration, "calibration");
    Objects.requireNonNull(passes, "passes");
  }

  /**
   * The columns named after the dimension: {@code <key>}, {@code <key>P}, {@code <key>Calibration},
   * {@code <key>Passes}.
   */
  public static Field named(Dimension d) {
    return new Field(d, d.key(), d.key() + "P", d.key() + "Calibration", d.key() + "Passes");
  }

  /**
   * The columns of the counted dimension of a grouped query: {@code top, p, calibration, passes}
   * (and the optional {@code pKind}).
   */
  public static Field primary(Dimension d) {
    return new Field(d, "top", "p", "calibration", "passes", "pKind");
  }

  /**
   * The columns of a pair's second dimension: {@code top2, p2, calibration2, passes2} (and the
   * optional {@code p2Kind}).
   */
  public static Field secondary(Dimension d) {
    return new Field(d, "top2", "p2", "calibration2", "passes2", "p2Kind");
  }

  /**
   * The columns of a triple's third dimension: {@code top3, p3, calibration3, passes3} (and the
   * optional {@code p3Kind}).
   */
  public static Field tertiary(Dimension d) {
    return new Field(d, "top3", "p3", "calibration3", "passes3", "p3Kind");
  }

  /** The column names, for a statement's inputs ({@link #kindP} is optional and not among them). */
  public List<String> columns() {
    return List.of(top, p, calibration, passes);
  }
}
