package dev.faultline.estimate;

import java.util.ArrayList;
import java.util.List;

/**
 * A two-dimension table (e.g. stage &times; symptom) of expected counts. Each item's joint
 * probability of a cell is the <em>product of its two marginal distributions</em>: the classifier
 * gives one calibrated distribution per dimension and nothing about how they depend on each other
 * for the same item, so within an item the two labels are treated as independent (across items they
 * may still be strongly associated, which is what the table shows). A cell's expected count is the
 * sum of those products (probabilistic classify-and-count, Bella et al. 2010, see {@link
 * ClassifyAndCount}), its interval the exact Poisson-binomial interval of the cell's indicators;
 * like PCC's, it holds only the per-item uncertainty.
 */
public final class JointTable {

  /**
   * One cell.
   *
   * @param row the row dimension's code
   * @param column the column dimension's code
   * @param count the expected count
   * @param countLow lower end of its interval
   * @param countHigh upper end of its interval
   * @param method how it was computed
   */
  public record Cell(
      String row, String column, double count, double countLow, double countHigh, String method) {}

  /** The method named in each cell. */
  public static final String METHOD = "pcc, joint = product of marginals";

  private JointTable() {}

  /**
   * Every cell, rows outer, at the given level.
   *
   * @param pr per item, its distribution over the row codes
   * @param pc per item (same order), its distribution over the column codes
   */
  public static List<Cell> estimate(
      Codes rows, double[][] pr, Codes columns, double[][] pc, double level) {
    rows.check(pr);
    columns.check(pc);
    ClassifyAndCount.checkLevel(level);
    if (pr.length != pc.length) {
      throw new IllegalArgumentException(
          "the two dimensions cover different items: " + pr.length + " and " + pc.length);
    }
    int n = pr.length;
    List<Cell> out = new ArrayList<>();
    double[] q = new double[n];
    for (int a = 0; a < rows.size(); a++) {
      for (int b = 0; b < columns.size(); b++) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
          q[i] = Math.min(1, Math.max(0, pr[i][a] * pc[i][b]));
          sum += q[i];
        }
        int[] ci = PoissonBinomial.interval(q, level);
        out.add(new Cell(rows.codes().get(a), columns.codes().get(b), sum, ci[0], ci[1], METHOD));
      }
    }
    return out;
  }
}
