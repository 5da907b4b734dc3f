package dev.faultline.estimate.group;

import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Synthetic scopes for the estimators' tests, drawn here with the test's own generator (not by the
 * code under test): each item's classifier distribution first, then its true kind and code drawn
 * from what that distribution claims (so the classifier is calibrated by construction), or from a
 * stated error rate for point answers.
 */
final class Synthetic {
  static final Dimension STAGE = Dimension.STAGE;
  static final List<String> CODES = STAGE.distributionCodes();

  /** A skewed mix of the stage codes (UNKNOWN last). */
  static final double[] MIX = {0.15, 0.10, 0.40, 0.22, 0.05, 0.03, 0.05};

  /** How items' distributions are made. */
  enum Tier {
    /** Calibrated soft distributions (the learned layer). */
    LEARNED,
    /** Point answers stored with a prior error marker, right with probability 1 − ε. */
    POINT,
    /** A person's labels: exact. */
    HUMAN
  }

  /** An item's statement row and its truth. */
  record Drawn(Map<String, Object> row, boolean bug, int code) {}

  private Synthetic() {}

  static Drawn draw(Tier tier, SplittableRandom r, double epsilon) {
    double bug = tier == Tier.HUMAN ? (r.nextDouble() < 0.8 ? 1 : 0) : 0.5 + 0.5 * r.nextDouble();
    boolean isBug = r.nextDouble() < bug;
    double[] p;
    int code;
    Map<String, Object> row = new HashMap<>();
    switch (tier) {
      case LEARNED -> {
        p = soft(pick(MIX, r.nextDouble()), r);
        code = pick(p, r.nextDouble());
        row.put("calibration", "cv:synthetic");
      }
      case POINT -> {
        int answer = pick(MIX, r.nextDouble());
        code = r.nextDouble() < 1 - epsilon ? answer : other(answer, r);
        p = new double[CODES.size()];
        p[answer] = 1;
        row.put("calibration", "prior:" + epsilon);
      }
      default -> {
        code = pick(MIX, r.nextDouble());
        p = new double[CODES.size()];
        p[code] = 1;
        row.put("calibration", "human");
      }
    }
    row.put("p", list(p));
    row.put("top", CODES.get(argmax(p)));
    row.put("passes", true);
    double[] kind = new double[ItemModel.KIND_CODES.size()];
    kind[ItemModel.KIND_CODES.indexOf("BUG")] = bug;
    kind[ItemModel.KIND_CODES.indexOf("QUESTION")] = 1 - bug;
    row.put("kind", bug >= 0.5 ? "BUG" : "QUESTION");
    row.put("kindP", list(kind));
    row.put("kindCalibration", tier == Tier.HUMAN ? "human" : "cv:synthetic");
    row.put("kindPasses", true);
    row.put("humanGiven", List.of());
    return new Drawn(row, isBug, code);
  }

  /** Half the mass on a code, the rest spread at random. */
  static double[] soft(int on, SplittableRandom r) {
    double[] p = new double[CODES.size()];
    double s = 0;
    for (int k = 0; k < p.length; k++) {
      p[k] = r.nextDouble();
      s += p[k];
    }
    double keep = 0.3 + 0.6 * r.nextDouble();
    for (int k = 0; k < p.length; k++) {
      p[k] = (1 - keep) * p[k] / s + (k == on ? keep : 0);
    }
    return p;
  }

  static int pick(double[] p, double u) {
    double c = 0;
    for (int k = 0; k < p.length; k++) {
      c += p[k];
      if (u < c) {
        return k;
      }
    }
    return p.length - 1;
  }

  private static int other(int answer, SplittableRandom r) {
    int k = r.nextInt(CODES.size() - 1);
    return k >= answer ? k + 1 : k;
  }

  private static int argmax(double[] p) {
    int b = 0;
    for (int k = 1; k < p.length; k++) {
      b = p[k] > p[b] ? k : b;
    }
    return b;
  }

  private static List<Double> list(double[] p) {
    List<Double> out = new ArrayList<>();
    for (double v : p) {
      out.add(v);
    }
    return out;
  }

  static List<Item> items(List<Drawn> drawn) {
    ItemModel model = ItemModel.of(Field.primary(STAGE));
    List<Item> out = new ArrayList<>();
    drawn.forEach(d -> out.add(model.item(d.row())));
    return out;
  }
}
