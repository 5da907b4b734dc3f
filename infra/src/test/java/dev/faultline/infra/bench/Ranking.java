package dev.faultline.infra.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Graded ranking measures (Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR
 * techniques", ACM TOIS 20(4), 2002): the gain of a result is its grade (0, 1, 2), discounted by
 * log2(rank + 1); the ideal ranking is every judged candidate of the query sorted by grade.
 */
final class Ranking {
  private Ranking() {}

  /** DCG of the first {@code k} grades. */
  static double dcg(List<Integer> grades, int k) {
    double sum = 0;
    for (int i = 0; i < Math.min(k, grades.size()); i++) {
      sum += grades.get(i) / (Math.log(i + 2) / Math.log(2));
    }
    return sum;
  }

  /**
   * nDCG@k of a ranking's grades against all judged grades of its query; 0 when no judged candidate
   * has a grade above 0 (as trec_eval counts it).
   */
  static double ndcg(List<Integer> grades, List<Integer> judged, int k) {
    List<Integer> ideal = new ArrayList<>(judged);
    ideal.sort(Comparator.reverseOrder());
    double best = dcg(ideal, k);
    return best == 0 ? 0 : dcg(grades, k) / best;
  }
}
