package dev.faultline.classifier.training;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import dev.faultline.classifier.evaluation.Metrics;
import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.RawFeatures;
import dev.faultline.classifier.learned.SparseVector;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.Vectorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Trains the learned layer on labelled {@link Example}s: per dimension an L2-regularised logistic
 * regression (LIBLINEAR, one-vs-rest, deterministic), then, on a quarter of the items held back by
 * group, a softmax temperature (calibration; with {@link #CALIBRATION} {@code bcts}, a temperature
 * and one bias per class, folded into the model's biases) and an abstention threshold per
 * dimension; finally the same models refitted on all items with that calibration and those
 * thresholds.
 */
public final class Trainer {

  /** LIBLINEAR's inverse regularisation strength: fixed, not tuned on any reported split. */
  public static final double COST =
      Double.parseDouble(System.getProperty("faultline.train.cost", "1.0"));

  /**
   * Regularised logistic regression solved in the dual (the same optimum as the primal, about twice
   * as fast here).
   */
  static final SolverType SOLVER =
      SolverType.valueOf(System.getProperty("faultline.train.solver", "L2R_LR_DUAL"));

  /**
   * Class weights (largest class / this class)^BALANCE: 0.5 was chosen over 0 (unweighted) by
   * 5-fold cross-validation on the training corpus (macro-F1 up 0.002-0.021 per dimension,
   * calibration error unchanged), never by dev figures.
   */
  static final double BALANCE =
      Double.parseDouble(System.getProperty("faultline.train.balance", "0.5"));

  /**
   * The calibration: {@code temperature} (one softmax temperature per dimension, the default),
   * {@code bcts} (bias-corrected temperature scaling on every dimension) or a comma-separated list
   * of the dimensions' artefact names (any case, e.g. {@code kind,symptom,stage}) that get BCTS
   * (the others keep the temperature alone).
   */
  public static final String CALIBRATION =
      System.getProperty("faultline.train.calibration", "temperature");

  static final double EPS = Double.parseDouble(System.getProperty("faultline.train.eps", "0.01"));

  static final long RANDOM_SEED = 20261125L;

  /** Share of the training items held back (by group) to fit calibration and thresholds. */
  public static final double HOLD_BACK = 0.25;

  /** Thresholds tried, on the calibrated confidence. */
  static final double[] THRESHOLDS = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};

  /** Named features that come from the rules: left out in the "model alone" ablation. */
  public static final Predicate<String> RULE_FEATURE =
      n -> n.startsWith("rule.") || n.startsWith("cue");

  static {
    Linear.disableDebugOutput();
  }

  private final long seed;
  private final Predicate<String> keepFixed;
  private final Predicate<Target> bcts;

  /**
   * With the calibration {@link #CALIBRATION} names.
   *
   * @param seed seeds the held-back split
   * @param keepFixed which named features to use
   */
  public Trainer(long seed, Predicate<String> keepFixed) {
    this(seed, keepFixed, bctsTargets(CALIBRATION));
  }

  /**
   * @param seed seeds the held-back split
   * @param keepFixed which named features to use
   * @param bcts which dimensions are calibrated by BCTS (the others by a temperature alone)
   */
  public Trainer(long seed, Predicate<String> keepFixed, Predicate<Target> bcts) {
    this.seed = seed;
    this.keepFixed = keepFixed;
    this.bcts = bcts;
  }

  /** The dimensions a calibration setting ({@link #CALIBRATION}'s values) gives BCTS. */
  public static Predicate<Target> bctsTargets(String setting) {
    String v = setting.trim();
    if (v.equals("temperature")) {
      return t -> false;
    }
    if (v.equals("bcts")) {
      return t -> true;
    }
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (String n : v.split(",")) {
      String name = n.trim().toUpperCase(java.util.Locale.ROOT);
      if (Target.values().stream().noneMatch(t -> t.name().equals(name))) {
        throw new IllegalArgumentException(
            "faultline.train.calibration: '"
                + name
                + "' is neither temperature, bcts nor a dimension ("
                + Target.values().stream().map(Target::name).toList()
                + ")");
      }
      names.add(name);
    }
    return t -> names.contains(t.name());
  }

  /** A trained set of dimension models and its features. */
  public record Fitted(Vectorizer vectorizer, Map<Target, DimensionModel> models) {

    /** Calibrated probabilities per dimension for an item. */
    public Map<Target, double[]> probabilities(RawFeatures raw) {
      SparseVector x = vectorizer.vectorize(raw);
      Map<Target, double[]> p = new TreeMap<>();
      models.forEach((t, m) -> p.put(t, m.probabilities(x)));
      return p;
    }

    /** Answers per dimension for an item. */
    public Map<Target, Decision.Answer> answer(RawFeatures raw) {
      return Decision.decide(models, probabilities(raw));
    }
  }

  /** Trains on the items: calibration and thresholds from a held-back quarter, weights from all. */
  public Fitted train(List<Example> items) {
    List<Example> fit = new ArrayList<>();
    List<Example> hold = new ArrayList<>();
    for (Example e : items) {
      (inHoldBack(e.group()) ? hold : fit).add(e);
    }
    Fitted first = fitWeights(fit);
    Map<Target, Calibration.Bcts> calibration = new TreeMap<>();
    Map<Target, List<double[]>> holdScores = new TreeMap<>();
    List<SparseVector> hx = hold.stream().map(e -> first.vectorizer().vectorize(e.raw())).toList();
    for (Map.Entry<Target, DimensionModel> en : first.models().entrySet()) {
      Target t = en.getKey();
      DimensionModel m = en.getValue();
      List<double[]> scores = hx.stream().map(m::scores).toList();
      List<Integer> gold = hold.stream().map(e -> m.classes().indexOf(e.gold().get(t))).toList();
      Calibration.Bcts c = calibrate(t, scores, gold, m.classes().size());
      calibration.put(t, c);
      holdScores.put(t, scores.stream().map(c::shift).toList());
    }
    Map<Target, DimensionModel> calibrated = new TreeMap<>();
    first.models().forEach((t, m) -> calibrated.put(t, calibrated(m, calibration.get(t), 0.0)));
    List<Map<Target, double[]>> holdProbs = new ArrayList<>();
    for (int i = 0; i < hold.size(); i++) {
      Map<Target, double[]> p = new TreeMap<>();
      for (Target t : calibrated.keySet()) {
        p.put(
            t, DimensionModel.softmax(holdScores.get(t).get(i), calibration.get(t).temperature()));
      }
      holdProbs.add(p);
    }
    Map<Target, Double> thresholds = chooseThresholds(calibrated, holdProbs, hold);
    Fitted all = fitWeights(items);
    Map<Target, DimensionModel> out = new TreeMap<>();
    all.models()
        .forEach((t, m) -> out.put(t, calibrated(m, calibration.get(t), thresholds.get(t))));
    return new Fitted(all.vectorizer(), out);
  }

  /** A dimension's calibration on the held-back scores: BCTS, or the temperature with no biases. */
  private Calibration.Bcts calibrate(
      Target t, List<double[]> scores, List<Integer> gold, int classes) {
    if (classes > 1 && bcts.test(t)) {
      return Calibration.fitBcts(scores, gold, classes);
    }
    return new Calibration.Bcts(Calibration.fitTemperature(scores, gold), new double[classes]);
  }

  /** The model with the calibration folded in: biases b + T·c, temperature T, the threshold. */
  static DimensionModel calibrated(DimensionModel m, Calibration.Bcts c, double threshold) {
    float[] bias = m.bias().clone();
    for (int k = 0; k < bias.length; k++) {
      if (c.bias()[k] != 0) {
        bias[k] = (float) (bias[k] + c.temperature() * c.bias()[k]);
      }
    }
    return new DimensionModel(m.classes(), m.weights(), bias, c.temperature(), threshold);
  }

  /**
   * Whether a group falls in the held-back quarter (a fixed function of the seed and the group).
   */
  boolean inHoldBack(String group) {
    return new SplittableRandom(seed ^ group.hashCode() * 0x9E3779B97F4A7C15L).nextDouble()
        < HOLD_BACK;
  }

  /**
   * Per dimension, the threshold of {@link #THRESHOLDS} with the best macro-F1 on the held-back
   * items.
   */
  static Map<Target, Double> chooseThresholds(
      Map<Target, DimensionModel> models, List<Map<Target, double[]>> probs, List<Example> hold) {
    Map<Target, Double> best = new TreeMap<>();
    for (Target t : models.keySet()) {
      if (t.abstain == null) {
        best.put(t, 0.0);
        continue;
      }
      double bestF1 = -1;
      double bestT = 0;
      for (double th : THRESHOLDS) {
        Map<Target, Double> ths = new TreeMap<>();
        ths.put(t, th);
        List<String> gold = new ArrayList<>();
        List<String> pred = new ArrayList<>();
        for (int i = 0; i < hold.size(); i++) {
          gold.add(hold.get(i).gold().get(t));
          pred.add(Decision.decide(models, probs.get(i), ths).get(t).code());
        }
        double f1 = Metrics.macroF1(gold, pred);
        if (f1 > bestF1 + 1e-9) {
          bestF1 = f1;
          bestT = th;
        }
      }
      best.put(t, bestT);
    }
    return best;
  }

  /** Weights only (temperature 1, no threshold): the vocabulary and one model per dimension. */
  Fitted fitWeights(List<Example> items) {
    Vectorizer vec = Vectorizer.fit(items.stream().map(Example::raw).toList(), keepFixed);
    List<SparseVector> xs = items.stream().map(e -> vec.vectorize(e.raw())).toList();
    Feature[][] x = toLiblinear(xs, vec.dimension());
    Map<Target, DimensionModel> models = new TreeMap<>();
    for (Target t : Target.values()) {
      models.put(
          t,
          fitDimension(t, x, items.stream().map(e -> e.gold().get(t)).toList(), vec.dimension()));
    }
    return new Fitted(vec, models);
  }

  static Feature[][] toLiblinear(List<SparseVector> xs, int dims) {
    Feature[][] x = new Feature[xs.size()][];
    for (int i = 0; i < xs.size(); i++) {
      SparseVector v = xs.get(i);
      Feature[] row = new Feature[v.index().length + 1];
      for (int k = 0; k < v.index().length; k++) {
        row[k] = new FeatureNode(v.index()[k] + 1, v.value()[k]);
      }
      row[v.index().length] = new FeatureNode(dims + 1, 1.0);
      x[i] = row;
    }
    return x;
  }

  /**
   * One dimension: the classes seen in training, in the taxonomy's order, each with its weights.
   */
  static DimensionModel fitDimension(Target t, Feature[][] x, List<String> gold, int dims) {
    List<String> classes = t.codes.stream().filter(gold::contains).toList();
    if (classes.size() == 1) {
      float[][] w = {new float[dims]};
      return new DimensionModel(classes, w, new float[] {0f}, 1.0, 0.0);
    }
    Problem p = new Problem();
    p.l = x.length;
    p.n = dims + 1;
    p.x = x;
    p.bias = 1.0;
    p.y = new double[x.length];
    Map<String, Integer> idx = new HashMap<>();
    for (int k = 0; k < classes.size(); k++) {
      idx.put(classes.get(k), k);
    }
    for (int i = 0; i < x.length; i++) {
      p.y[i] = idx.get(gold.get(i));
    }
    Model m = Linear.train(p, parameter(classes.size(), p.y));
    int[] labels = m.getLabels();
    float[][] w = new float[classes.size()][dims];
    float[] b = new float[classes.size()];
    for (int li = 0; li < labels.length; li++) {
      int k = labels[li];
      for (int j = 0; j < dims; j++) {
        w[k][j] = (float) m.getDecfunCoef(j + 1, li);
      }
      b[k] = (float) m.getDecfunBias(li);
    }
    return new DimensionModel(classes, w, b, 1.0, 0.0);
  }

  /**
   * LIBLINEAR's settings for one dimension: solver, cost, tolerance, a fixed shuffle, damped class
   * weights.
   */
  static Parameter parameter(int nClasses, double[] labels) {
    Parameter param = new Parameter(SOLVER, COST, EPS);
    param.setRandom(
        new java.util.Random(RANDOM_SEED)); // the dual solver shuffles: the same order every time
    if (BALANCE > 0) {
      // rare classes weigh more (macro-F1 counts every class alike), damped so that the priors stay
      // near the data
      int[] count = new int[nClasses];
      for (double y : labels) {
        count[(int) y]++;
      }
      int max = java.util.Arrays.stream(count).max().orElse(1);
      double[] weight = new double[nClasses];
      int[] label = new int[nClasses];
      for (int k = 0; k < nClasses; k++) {
        label[k] = k;
        weight[k] = Math.pow(max / (double) Math.max(1, count[k]), BALANCE);
      }
      param.setWeights(weight, label);
    }
    return param;
  }
}
