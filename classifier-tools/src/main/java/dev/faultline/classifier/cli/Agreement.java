package dev.faultline.classifier.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Agreement between gold and predicted labels of one dimension: accuracy, macro-F1 and Cohen's
 * kappa.
 */
final class Agreement {

  private final List<String> gold = new ArrayList<>();
  private final List<String> pred = new ArrayList<>();

  void add(String g, String p) {
    gold.add(g);
    pred.add(p);
  }

  int size() {
    return gold.size();
  }

  double accuracy() {
    if (gold.isEmpty()) {
      return Double.NaN;
    }
    int ok = 0;
    for (int i = 0; i < gold.size(); i++) {
      ok += gold.get(i).equals(pred.get(i)) ? 1 : 0;
    }
    return ok / (double) gold.size();
  }

  /** Classes seen in gold or predictions. */
  Set<String> classes() {
    Set<String> s = new TreeSet<>(gold);
    s.addAll(pred);
    return s;
  }

  /**
   * Macro-averaged F1 over every class seen in gold or predictions (a class absent from both is
   * skipped).
   */
  double macroF1() {
    return dev.faultline.classifier.evaluation.Metrics.macroF1(gold, pred);
  }

  /** Cohen's kappa: agreement corrected for chance. */
  double kappa() {
    int n = gold.size();
    if (n == 0) {
      return Double.NaN;
    }
    double po = accuracy();
    Map<String, Integer> gc = new TreeMap<>();
    Map<String, Integer> pc = new TreeMap<>();
    gold.forEach(g -> gc.merge(g, 1, Integer::sum));
    pred.forEach(p -> pc.merge(p, 1, Integer::sum));
    double pe = 0;
    for (String c : classes()) {
      pe += (gc.getOrDefault(c, 0) / (double) n) * (pc.getOrDefault(c, 0) / (double) n);
    }
    return pe >= 1.0 ? 1.0 : (po - pe) / (1 - pe);
  }

  /**
   * The agreement over the given records (indices into this one, repeats allowed): one bootstrap
   * resample.
   */
  Agreement resample(int[] indices) {
    Agreement a = new Agreement();
    for (int i : indices) {
      a.add(gold.get(i), pred.get(i));
    }
    return a;
  }

  /** Confusion counts, gold class to predicted class to count. */
  Map<String, Map<String, Integer>> confusion() {
    Map<String, Map<String, Integer>> m = new TreeMap<>();
    for (int i = 0; i < gold.size(); i++) {
      m.computeIfAbsent(gold.get(i), k -> new TreeMap<>()).merge(pred.get(i), 1, Integer::sum);
    }
    return m;
  }
}
