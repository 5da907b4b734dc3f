package dev.faultline.classifier.rules;

import java.util.EnumMap;
import java.util.Map;

/**
 * The highest score of a table of scores and the runner-up's (on ties the earlier entry wins): how
 * body-word rules pick a code and how sure they are of it.
 *
 * @param best the code with the highest positive score, or the given default when no score is
 *     positive
 * @param top its score (0 when none is positive)
 * @param second the runner-up's score
 */
record Ranking<K extends Enum<K>>(K best, double top, double second) {

  static <K extends Enum<K>> Ranking<K> of(EnumMap<K, Double> scores, K none) {
    K best = none;
    double b = 0;
    double second = 0;
    for (Map.Entry<K, Double> e : scores.entrySet()) {
      if (e.getValue() > b) {
        second = b;
        b = e.getValue();
        best = e.getKey();
      } else if (e.getValue() > second) {
        second = e.getValue();
      }
    }
    return new Ranking<>(best, b, second);
  }
}
