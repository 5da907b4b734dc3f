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
 */
public record Field(Dimension dimension, String top, String p, String calibration, String passes) {
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
   * The columns of the counted dimension of a grouped query: {@code top, p, calibration, passes}.
   */
  public static Field primary(Dimension d) {
    return new Field(d, "top", "p", "calibration", "passes");
  }

  /** The columns of a pair's second dimension: {@code top2, p2, calibration2, passes2}. */
  public static Field secondary(Dimension d) {
    return new Field(d, "top2", "p2", "calibration2", "passes2");
  }

  /** The column names, for a statement's inputs. */
  public List<String> columns() {
    return List.of(top, p, calibration, passes);
  }
}
