package dev.faultline.infra.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The similar-issues benchmark's measures on hand-computed cases: nDCG@5 ({@link Ranking}), the
 * percentile bootstrap's coverage on samples drawn from a known mean, and the TF-IDF baseline's
 * ranking.
 */
class SimilarMeasuresTest {

  @Test
  void ndcgDiscountsByLog2OfTheRankAgainstTheIdealOfEveryJudgedCandidate() {
    // DCG = 2/log2(2) + 0 + 1/log2(4) = 2.5; ideal (2, 1, 1) = 2 + 1/log2(3) + 1/log2(4)
    double ideal = 2 + 1 / (Math.log(3) / Math.log(2)) + 0.5;
    assertEquals(
        2.5 / ideal, Ranking.ndcg(List.of(2, 0, 1, 0, 0), List.of(0, 1, 0, 2, 1, 0), 5), 1e-12);
    // only the first five count, of the ranking and of the ideal
    assertEquals(
        1.0, Ranking.ndcg(List.of(1, 1, 1, 1, 1, 2), List.of(1, 1, 1, 1, 1, 1, 1), 5), 1e-12);
    // nothing relevant judged: 0, not a division by zero
    assertEquals(0.0, Ranking.ndcg(List.of(0, 0), List.of(0, 0, 0), 5));
  }

  @Test
  void theNinetyPercentIntervalCoversTheTrueMeanAboutNinetyTimesInAHundred() {
    // 40 queries a sample (the dev split's size), each query's precision@5 = Binomial(5, 0.3) / 5
    Random random = new Random(7);
    int trials = 400;
    int covered = 0;
    for (int t = 0; t < trials; t++) {
      double[] perQuery = new double[40];
      for (int q = 0; q < perQuery.length; q++) {
        int hits = 0;
        for (int r = 0; r < 5; r++) {
          hits += random.nextDouble() < 0.3 ? 1 : 0;
        }
        perQuery[q] = hits / 5.0;
      }
      double[] interval = SimilarIssuesBenchmark.bootstrap(perQuery);
      assertTrue(interval[0] <= interval[1]);
      if (interval[0] <= 0.3 && 0.3 <= interval[1]) {
        covered++;
      }
    }
    double coverage = covered / (double) trials;
    // the percentile bootstrap under-covers a little at n = 40; 400 trials: standard error 0.015
    assertTrue(coverage >= 0.84 && coverage <= 0.95, "coverage " + coverage);
  }

  @Test
  void tfidfRanksARareSharedWordAboveACommonOneAndLeavesTheQueryOut() {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put("q", "allgather hangs with watchdog");
    texts.put("rare", "the watchdog fired");
    texts.put("common", "the allgather the hangs the");
    texts.put("c1", "allgather hangs in the loop");
    texts.put("c2", "allgather hangs on start");
    texts.put("none", "typo in the docs");
    SimilarMethods.TfIdf tfidf = new SimilarMethods.TfIdf(texts);
    List<String> top = tfidf.top("q", 10);
    assertEquals(5, top.size(), top.toString());
    assertTrue(!top.contains("q"), top.toString());
    assertEquals("none", top.get(4), top.toString());
    // "watchdog" is in one other text, "allgather" and "hangs" in three others: idf favours it
    assertTrue(top.indexOf("rare") < top.indexOf("c1"), top.toString());
  }
}
