package dev.faultline.classifier.training;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Confusion;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.evaluation.DistributionScores;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.rules.RulesCalibration;
import dev.faultline.classifier.rules.RulesCalibration.Part;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Counts the rules' confusion with the gold labels of a labelled corpus ({@link RulesCalibration})
 * and chooses its row keys and prior strength on grouped folds: every candidate ({@link
 * #CANDIDATES}: the answer alone, with the kind of item, with the kind of item and a band of the
 * rules' confidence; {@link #STRENGTHS} pseudo-counts) is fitted on k−1 folds and scored on the
 * held-out one, and the candidate with the lowest mean out-of-fold log loss over the labelled
 * dimensions wins (a proper scoring rule: it rewards calibration and sharpness together). The rules
 * are not fitted to the corpus, so only the counts need held-out folds.
 */
public final class RulesConfusion {

  /** The candidate row keys (parts after the answered code). */
  public static final List<List<Part>> CANDIDATES =
      List.of(List.of(), List.of(Part.ITEM), List.of(Part.ITEM, Part.CONFIDENCE));

  /** The candidate prior strengths (pseudo-counts per row). */
  public static final double[] STRENGTHS = {1, 2, 4, 8, 16, 32, 64, 128};

  /**
   * The rules' confidence bands, fixed before any count: below 0.5, below 0.75, the rest (the
   * rules' hand-set confidences run from 0.3 to 0.9).
   */
  public static final double[] BANDS = {0.5, 0.75};

  /**
   * One labelled item as the rules answered it.
   *
   * @param group its fold group (an issue and the changes that close it)
   * @param rules the rules' own labels ({@link Classifier#analyse}: their hand-set confidences)
   * @param gold per labelled dimension its gold code
   */
  public record Answered(
      String group, boolean change, Classification rules, Map<Dimension, String> gold) {}

  /** A candidate: the row keys' parts and the prior strength. */
  public record Candidate(List<Part> parts, double strength) {}

  /** A candidate's mean out-of-fold scores over the labelled dimensions. */
  public record Score(Candidate candidate, double logLoss, double ece, double brier) {}

  private RulesConfusion() {}

  /** The rules' answers of labelled items. */
  public static List<Answered> answer(List<TrainingData.Item> items, Classifier rules) {
    List<String> groups = TrainingData.groups(items);
    List<Answered> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      TrainingData.Item it = items.get(i);
      Map<Dimension, String> gold = new EnumMap<>(Dimension.class);
      it.gold().forEach((t, code) -> gold.put(t.dimension, code));
      out.add(
          new Answered(
              groups.get(i), it.change(), rules.analyse(it.text()).classification(), gold));
    }
    return out;
  }

  /** Counts the rules' confusion of every labelled dimension (people's labels are not counted). */
  public static RulesCalibration fit(List<Answered> items, Candidate c, String rulesVersion) {
    Map<Dimension, Confusion> out = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      List<Confusion.Observation> obs = new ArrayList<>();
      for (Answered a : items) {
        Label<?> l = a.rules().label(d);
        if (!l.humanGiven()) {
          obs.add(
              new Confusion.Observation(
                  RulesCalibration.key(
                      Dimension.codeOf(l.value()), l.confidence(), a.change(), c.parts(), BANDS),
                  a.gold().get(d)));
        }
      }
      out.put(d, Confusion.fit(d, obs, c.strength(), RulesCalibration.base(d)));
    }
    return new RulesCalibration(rulesVersion, c.parts(), BANDS, c.strength(), out);
  }

  /**
   * Every candidate's mean out-of-fold scores, in candidate order; folds by {@link
   * CrossValidation#fold} of each item's group.
   */
  public static List<Score> select(List<Answered> all, int folds, long seed, String version) {
    List<Score> out = new ArrayList<>();
    for (List<Part> parts : CANDIDATES) {
      for (double strength : STRENGTHS) {
        Candidate c = new Candidate(parts, strength);
        Map<Dimension, List<Map<String, Double>>> p = outOfFold(all, c, folds, seed, version);
        double ll = 0;
        double ece = 0;
        double brier = 0;
        for (Dimension d : Dimension.LABELLED) {
          DistributionScores s = scores(d, all, p.get(d));
          ll += s.logLoss();
          ece += s.ece();
          brier += s.brier();
        }
        int n = Dimension.LABELLED.size();
        out.add(new Score(c, ll / n, ece / n, brier / n));
      }
    }
    return out;
  }

  /** The candidate with the lowest mean log loss (the first of equals). */
  public static Score best(List<Score> scores) {
    Score best = scores.get(0);
    for (Score s : scores) {
      if (s.logLoss() < best.logLoss()) {
        best = s;
      }
    }
    return best;
  }

  /**
   * Each item's distribution per labelled dimension from a confusion counted on the other folds (in
   * item order).
   */
  public static Map<Dimension, List<Map<String, Double>>> outOfFold(
      List<Answered> all, Candidate c, int folds, long seed, String version) {
    int[] fold = new int[all.size()];
    for (int i = 0; i < all.size(); i++) {
      fold[i] = CrossValidation.fold(all.get(i).group(), folds, seed);
    }
    Map<Dimension, List<Map<String, Double>>> out = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      List<Map<String, Double>> ps = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        ps.add(null);
      }
      out.put(d, ps);
    }
    for (int f = 0; f < folds; f++) {
      List<Answered> train = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        if (fold[i] != f) {
          train.add(all.get(i));
        }
      }
      RulesCalibration cal = fit(train, c, version);
      for (int i = 0; i < all.size(); i++) {
        if (fold[i] == f) {
          Answered a = all.get(i);
          for (Dimension d : Dimension.LABELLED) {
            out.get(d).set(i, after(cal).apply(a, d));
          }
        }
      }
    }
    return out;
  }

  /** The distributions the rules gave before their confusion: the spread of their confidence. */
  public static Map<String, Double> before(Answered a, Dimension d) {
    Label<?> l = a.rules().label(d);
    return l.humanGiven()
        ? Distributions.of(d, l)
        : Distributions.spread(d, l.value(), l.confidence());
  }

  /** The distributions the rules give with a confusion (a person's label a point mass). */
  public static BiFunction<Answered, Dimension, Map<String, Double>> after(RulesCalibration cal) {
    return (a, d) -> Distributions.of(d, cal.calibrate(d, a.rules().label(d), a.change()));
  }

  /** The scores of one dimension's distributions of the items (in item order). */
  public static DistributionScores scores(
      Dimension d, List<Answered> items, List<Map<String, Double>> p) {
    List<String> labelled = new ArrayList<>();
    List<String> gold = new ArrayList<>();
    List<Boolean> bug = new ArrayList<>();
    for (Answered a : items) {
      labelled.add(Dimension.codeOf(a.rules().label(d).value()));
      gold.add(a.gold().get(d));
      bug.add("BUG".equals(a.gold().get(Dimension.KIND)));
    }
    return DistributionScores.of(d, labelled, gold, p, bug);
  }

  /** The scores of one dimension's distributions given by {@code f}. */
  public static DistributionScores scores(
      Dimension d, List<Answered> items, BiFunction<Answered, Dimension, Map<String, Double>> f) {
    List<Map<String, Double>> p = new ArrayList<>();
    items.forEach(a -> p.add(f.apply(a, d)));
    return scores(d, items, p);
  }
}
