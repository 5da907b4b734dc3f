package dev.faultline.estimate.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.estimate.Codes;
import dev.faultline.estimate.TrainingPrior;
import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The grouped estimator's correction for a scope's mix of symptoms (ScopeMix, PriorShift): where it
 * applies, and that on a scope whose mix moved away from the training prior it brings the shares
 * closer to the truth than plain PCC. Scopes are drawn by the test: a true code from the scope's
 * mix, a likelihood favouring it, and the classifier's distribution the posterior under the
 * training prior (calibrated where the mix is the training one, as the learned layer is).
 */
class ScopeMixTest {
  private static final Dimension D = Dimension.SYMPTOM;
  private static final List<String> CODES = D.distributionCodes();
  private static final double[] TRAINING =
      TrainingPrior.bundled().of("symptom", CODES).orElseThrow();
  private static final GroupedEstimator.Spec SPEC = GroupedEstimator.Spec.of(D, "BUG");

  private record Scope(List<Item> items, double[] truth) {}

  /** The scope's mix: the training prior with HANG tripled and RUNTIME_CRASH halved. */
  private static double[] shifted() {
    double[] mix = TRAINING.clone();
    mix[CODES.indexOf("HANG")] *= 3;
    mix[CODES.indexOf("RUNTIME_CRASH")] *= 0.5;
    double s = 0;
    for (double v : mix) {
      s += v;
    }
    for (int k = 0; k < mix.length; k++) {
      mix[k] /= s;
    }
    return mix;
  }

  private static Scope scope(int n, double[] mix, String calibration, SplittableRandom r) {
    ItemModel model = ItemModel.of(Field.primary(D));
    List<Item> items = new ArrayList<>();
    double[] truth = new double[CODES.size()];
    for (int i = 0; i < n; i++) {
      int c = Synthetic.pick(mix, r.nextDouble());
      truth[c]++;
      double[] p = new double[CODES.size()];
      double s = 0;
      for (int k = 0; k < p.length; k++) {
        double likelihood = Math.exp(r.nextGaussian()) * (k == c ? 6 : 1);
        p[k] = likelihood * TRAINING[k];
        s += p[k];
      }
      for (int k = 0; k < p.length; k++) {
        p[k] /= s;
      }
      double bug = 1 - p[CODES.indexOf("NONE")];
      double[] kind = new double[ItemModel.KIND_CODES.size()];
      kind[ItemModel.KIND_CODES.indexOf("BUG")] = bug;
      kind[ItemModel.KIND_CODES.indexOf("QUESTION")] = 1 - bug;
      Map<String, Object> row = new HashMap<>();
      row.put("p", list(p));
      row.put("calibration", calibration);
      row.put("top", CODES.get(c));
      row.put("passes", false);
      row.put("kind", bug >= 0.5 ? "BUG" : "QUESTION");
      row.put("kindP", list(kind));
      row.put("kindCalibration", calibration);
      row.put("kindPasses", false);
      row.put("humanGiven", List.of());
      items.add(model.item(row));
    }
    return new Scope(items, truth);
  }

  /** The truth's shares among the known codes of the realised bug reports. */
  private static double[] shares(double[] counts) {
    double known = 0;
    for (int k = 0; k < counts.length; k++) {
      known += Codes.NOT_KNOWN.contains(CODES.get(k)) ? 0 : counts[k];
    }
    double[] out = new double[counts.length];
    for (int k = 0; k < counts.length; k++) {
      out[k] = Codes.NOT_KNOWN.contains(CODES.get(k)) ? 0 : counts[k] / known;
    }
    return out;
  }

  /** Total variation between the rows' shares and the truth's. */
  private static double tv(List<Row> rows, double[] truth) {
    double[] t = shares(truth);
    double sum = 0;
    for (int k = 0; k < CODES.size(); k++) {
      if (!Codes.NOT_KNOWN.contains(CODES.get(k))) {
        sum += Math.abs(rows.get(k).share() - t[k]);
      }
    }
    return sum / 2;
  }

  private static List<Row> estimate(Scope s) {
    List<List<Object>> groups = new ArrayList<>();
    s.items().forEach(i -> groups.add(List.of()));
    return GroupedEstimator.estimate(s.items(), groups, SPEC);
  }

  @Test
  void correctsAShiftedMixOfALargeLearnedScopeTowardItsTruth() {
    SplittableRandom r = new SplittableRandom(7);
    double pcc = 0;
    double corrected = 0;
    int trials = 30;
    for (int t = 0; t < trials; t++) {
      Scope s = scope(400, shifted(), "cv:synthetic", r);
      List<Row> rows = estimate(s);
      assertTrue(rows.get(0).method().startsWith("pcc+prior-shift"), rows.get(0).method());
      corrected += tv(rows, s.truth());
      // the same scope through a tier the correction must leave alone gives plain PCC
      List<Row> plain = estimate(relabel(s, "confusion:m/p"));
      assertFalse(plain.get(0).method().contains("prior-shift"), plain.get(0).method());
      pcc += tv(plain, s.truth());
    }
    System.out.printf(
        Locale.ROOT, "mean TV: pcc %.4f, prior shift %.4f%n", pcc / trials, corrected / trials);
    assertTrue(
        corrected < 0.95 * pcc, "prior shift " + corrected / trials + " pcc " + pcc / trials);
  }

  /** Per code and scope, whether the rows' 90% intervals held the scope's truth. */
  private record Coverage(double count, double share, double plainCount, double plainShare) {}

  /**
   * Coverage of the corrected rows' 90% intervals and of plain PCC's on the same scopes (400
   * learned bug reports and questions, no sample): over every known code and scope, how often the
   * count's interval holds the scope's true count and the share's its true share. The truth is
   * drawn by the test, not by the estimator.
   */
  private static Coverage coverage(double[] mix, int trials, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int cells = 0;
    int[] hits = new int[4];
    for (int t = 0; t < trials; t++) {
      Scope s = scope(400, mix, "cv:synthetic", r);
      List<Row> rows = estimate(s);
      assertTrue(rows.get(0).method().startsWith("pcc+prior-shift"), rows.get(0).method());
      List<Row> plain = estimate(relabel(s, "confusion:m/p"));
      double[] share = shares(s.truth());
      for (int k = 0; k < CODES.size(); k++) {
        if (Codes.NOT_KNOWN.contains(CODES.get(k))) {
          continue;
        }
        cells++;
        hits[0] += rows.get(k).countCovers(s.truth()[k]) ? 1 : 0;
        hits[1] += rows.get(k).shareCovers(share[k]) ? 1 : 0;
        hits[2] += plain.get(k).countCovers(s.truth()[k]) ? 1 : 0;
        hits[3] += plain.get(k).shareCovers(share[k]) ? 1 : 0;
      }
    }
    Coverage c =
        new Coverage(
            hits[0] / (double) cells,
            hits[1] / (double) cells,
            hits[2] / (double) cells,
            hits[3] / (double) cells);
    System.out.printf(Locale.ROOT, "coverage over %d code x scope cells: %s%n", cells, c);
    return c;
  }

  /** Where the scope's mix is the training one, the corrected intervals keep their 90%. */
  @Test
  void correctedIntervalsCoverTheTruthOfAnUnshiftedScope() {
    Coverage c = coverage(TRAINING, 30, 11);
    assertTrue(c.count() >= 0.85, "count coverage " + c);
    assertTrue(c.share() >= 0.85, "share coverage " + c);
  }

  /**
   * On a strongly shifted scope (HANG tripled, RUNTIME_CRASH halved) neither plain PCC's intervals
   * nor the corrected ones reach 90% (docs/estimates.md gives the figures): the classifier of this
   * world sees too little of the shift. The correction must not make them worse.
   */
  @Test
  void correctedIntervalsCoverAShiftedTruthAsOftenAsPlainPcc() {
    Coverage c = coverage(shifted(), 30, 13);
    assertTrue(c.count() >= c.plainCount() - 0.03, "count coverage " + c);
    assertTrue(c.share() >= c.plainShare() - 0.03, "share coverage " + c);
  }

  @Test
  void appliesOnlyWhereItWasChosen() {
    SplittableRandom r = new SplittableRandom(3);
    Scope big = scope(300, TRAINING, "cv:synthetic", r);
    assertTrue(ScopeMix.applies(big.items(), SPEC, 80));
    assertFalse(ScopeMix.applies(big.items(), SPEC, 79.9), "below 80 expected bug reports");
    assertFalse(
        ScopeMix.applies(big.items(), GroupedEstimator.Spec.of(Dimension.STAGE, "BUG"), 200),
        "the stage keeps PCC");
    assertFalse(
        ScopeMix.applies(big.items(), GroupedEstimator.Spec.of(D, null), 200), "every kind");
    GroupedEstimator.Spec confident =
        new GroupedEstimator.Spec(D, null, "BUG", GroupedEstimator.Mode.CONFIDENT, ModelError.NONE);
    assertFalse(ScopeMix.applies(big.items(), confident, 200), "labels counted");
  }

  @Test
  void keepsOtherTiersItemsAsTheyAre() {
    SplittableRandom r = new SplittableRandom(5);
    Scope s = scope(200, shifted(), "confusion:m/p", r);
    double[][] p = new double[s.items().size()][];
    double[][] before = new double[p.length][];
    for (int i = 0; i < p.length; i++) {
      p[i] = java.util.Arrays.copyOf(s.items().get(i).counted(0, "BUG"), CODES.size());
      before[i] = p[i].clone();
    }
    assertTrue(ScopeMix.applies(s.items(), SPEC, 200), "applies to the scope");
    assertFalse(ScopeMix.adjust(s.items(), SPEC, 200, p), "nothing learned to correct");
    for (int i = 0; i < p.length; i++) {
      for (int k = 0; k < CODES.size(); k++) {
        assertEquals(before[i][k], p[i][k], 0.0, "item " + i + " code " + k);
      }
    }
  }

  /** The scope's items read again with another calibration marker. */
  private static Scope relabel(Scope s, String calibration) {
    ItemModel model = ItemModel.of(Field.primary(D));
    List<Item> out = new ArrayList<>();
    for (Item item : s.items()) {
      double[] given = item.given(0, "BUG");
      double bug = item.kind("BUG");
      double[] joint = new double[given.length];
      for (int k = 0; k < given.length; k++) {
        joint[k] = bug * given[k];
      }
      joint[CODES.indexOf("NONE")] += 1 - bug;
      Map<String, Object> row = new HashMap<>();
      row.put("p", list(joint));
      row.put("calibration", calibration);
      row.put("top", item.top(0));
      row.put("passes", false);
      row.put("kind", item.kindTop());
      row.put("kindP", list(item.kindDistribution()));
      row.put("kindCalibration", calibration);
      row.put("kindPasses", false);
      row.put("humanGiven", List.of());
      out.add(model.item(row));
    }
    return new Scope(out, s.truth());
  }

  private static List<Double> list(double[] p) {
    List<Double> out = new ArrayList<>();
    for (double v : p) {
      out.add(v);
    }
    return out;
  }
}
