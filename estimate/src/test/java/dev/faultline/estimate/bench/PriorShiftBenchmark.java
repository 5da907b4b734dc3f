package dev.faultline.estimate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.learned.CachedEmbedder;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.training.CrossValidation;
import dev.faultline.classifier.training.Trainer;
import dev.faultline.estimate.Codes;
import dev.faultline.estimate.PriorShift;
import dev.faultline.estimate.TrainingPrior;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;

/**
 * Whether an unlabelled correction for the scope's mix ({@link PriorShift}: the EM of Saerens,
 * Latinne and Decaestecker 2002, damped) brings the default shares (PCC, as {@code category-shares}
 * computes them: kind-weighted, the symptom's stored distribution holding P(bug and symptom))
 * closer to the truth, and for which scopes (issue #31). A benchmark, not a test: it prints
 * Markdown tables and asserts nothing.
 *
 * <p><b>Choosing</b> uses the training corpus only: the learned layer's own 5 folds (grouped by
 * issue, the training command's seed), each fold's items answered by a model trained on the other
 * four ({@link Trainer}); the training prior a fold's scopes are corrected toward is the mean
 * out-of-fold distribution over the other folds' issues. Scopes are issues (any kind; the truth is
 * the gold shares among the gold bug reports): <em>natural</em> ones (each fold; repository
 * families and their complements over all folds; each repository within a fold with at least 8 bug
 * reports), <em>random</em> subsets of a fold (no shift: what the correction costs where there is
 * nothing to correct) and <em>artificial-prevalence</em> ones (a fold's bug reports resampled to a
 * mix drawn from a Dirichlet of concentration 30 around the fold's own, Forman's protocol made
 * milder). The rule, fixed before dev was scored: per dimension, the strength (among 1, 2, 4 per
 * item; 0 is the paper's undamped EM, shown) with the lowest mean share error on natural scopes of
 * at least 80 bug reports, adopted only if it beats PCC there and costs at most 0.002 on random
 * scopes; the gate is the smallest size band from which it beats PCC on natural scopes in that band
 * and every larger one.
 *
 * <p><b>Reporting</b>: then, once, {@code ../shared/eval/dev.jsonl} (the shipped artefact never saw
 * it), classified by the product's learned classifier as {@code faultline classify} does, the
 * distributions rounded as the graph stores them, the training prior the mean out-of-fold
 * distribution over all training issues (written to {@code --prior-output}).
 *
 * <p>{@code --calibration} trains the fold models with the trainer's calibration setting ({@code
 * temperature}, {@code bcts} or a list of dimensions; {@link Trainer#CALIBRATION}) and prints their
 * cross-validated figures per dimension; {@code --dev-only true --model FILE --prior FILE} scores
 * dev with another artefact and its training prior.
 */
public final class PriorShiftBenchmark {

  static final List<String> SYM = Dimension.SYMPTOM.distributionCodes();
  static final List<String> STG = Dimension.STAGE.distributionCodes();
  static final Codes SYM_CODES = Codes.of(SYM);
  static final Codes STG_CODES = Codes.of(STG);
  static final double[] STRENGTHS = {0, 1, 2, 4};
  static final String[] BANDS = {"< 30", "30–79", "≥ 80"};
  static final String[] DIMS = {"symptom", "stage"};

  /** One scored item: where it came from, its gold labels and its distributions. */
  record Item(
      String repo,
      boolean change,
      int fold,
      boolean bug,
      int symptom,
      int stage,
      double pBug,
      double[] sym,
      double[] stg) {}

  /** A training prior per dimension. */
  record Prior(double[] sym, double[] stg) {}

  /** dimension|protocol|band|method -> share errors. */
  final Map<String, List<Double>> errors = new TreeMap<>();

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--data", "../shared/train");
    opt.put("--dev", "../shared/eval/dev.jsonl");
    opt.put("--cache", ".faultline/train-cache");
    opt.put("--output", "target/prior-shift-bench.md");
    opt.put("--prior-output", "target/training-prior.properties");
    opt.put("--dev-only", "false");
    opt.put("--calibration", Trainer.CALIBRATION);
    opt.put("--model", "");
    opt.put("--prior", "");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!opt.containsKey(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + " (" + opt.keySet() + ")");
      }
      opt.put(args[i], args[i + 1]);
    }
    if (Boolean.parseBoolean(opt.get("--dev-only"))) {
      // dev with the product's bundled prior and the choice as the constants of PriorShift hold it
      // (--model FILE and --prior FILE: another artefact and its prior, e.g. a BCTS one)
      Prior bundled = readPrior(opt.get("--prior"));
      model = opt.get("--model").isEmpty() ? null : Path.of(opt.get("--model"));
      Map<String, double[]> chosen = new LinkedHashMap<>();
      chosen.put(
          "symptom", new double[] {PriorShift.STRENGTH, band((int) PriorShift.MIN_EXPECTED)});
      chosen.put("stage", null);
      StringBuilder md = new StringBuilder();
      dev(Path.of(opt.get("--dev")), bundled, chosen, md);
      System.out.println(md);
      return;
    }
    Predicate<Target> bcts = Trainer.bctsTargets(opt.get("--calibration"));
    CvScores cv = new CvScores();
    List<Item> items = outOfFold(Path.of(opt.get("--data")), Path.of(opt.get("--cache")), bcts, cv);
    PriorShiftBenchmark b = new PriorShiftBenchmark();
    b.natural(items);
    b.random(items);
    b.artificial(items);
    StringBuilder md = new StringBuilder();
    md.append("Calibration of the fold models: ").append(opt.get("--calibration")).append("\n\n");
    cv.report(md);
    Map<String, double[]> choice = b.report(md);
    Prior all = prior(items, i -> true);
    writePrior(Path.of(opt.get("--prior-output")), all);
    dev(Path.of(opt.get("--dev")), all, choice, md);
    String out = md.toString();
    System.out.println(out);
    Path file = Path.of(opt.get("--output"));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, out, StandardCharsets.UTF_8);
  }

  // ---- the out-of-fold answers ----

  static List<Item> outOfFold(Path data, Path cache, Predicate<Target> bcts, CvScores cv)
      throws Exception {
    List<TrainingData.Item> raw = new ArrayList<>();
    raw.addAll(TrainingData.read(data.resolve("issues.jsonl")));
    raw.addAll(TrainingData.read(data.resolve("changes.jsonl")));
    CachedEmbedder embedder = new CachedEmbedder(MiniLmEmbedder.shared(), cache);
    List<Example> all =
        TrainingData.examples(raw, new Classifier(ClassifierConfig.defaults()), embedder, n -> {});
    embedder.save();
    long seed = 20261125L;
    List<Item> out = new ArrayList<>();
    for (int f = 0; f < 5; f++) {
      List<Example> train = new ArrayList<>();
      List<Example> test = new ArrayList<>();
      for (Example e : all) {
        (CrossValidation.fold(e.group(), 5, seed) == f ? test : train).add(e);
      }
      Trainer.Fitted m = new Trainer(seed, n -> true, bcts).train(train);
      for (Example e : test) {
        out.add(item(e, f, m));
        cv.add(e, m);
      }
      System.err.printf(Locale.ROOT, "fold %d: %d held out%n", f, test.size());
    }
    return out;
  }

  /**
   * An item's distributions as the learned classifier stores them (the symptom's joint with BUG).
   */
  static Item item(Example e, int fold, Trainer.Fitted m) {
    Map<Target, double[]> p = m.probabilities(e.raw());
    DimensionModel km = m.models().get(Target.KIND);
    DimensionModel sm = m.models().get(Target.SYMPTOM);
    DimensionModel tm = m.models().get(Target.of(Dimension.STAGE));
    double pBug = DimensionModel.probabilityOf(km.classes(), p.get(Target.KIND), "BUG");
    double[] s = p.get(Target.SYMPTOM);
    double notNone = 1 - DimensionModel.probabilityOf(sm.classes(), s, "NONE");
    double scale = notNone <= 1e-12 ? 0 : pBug / notNone;
    double[] q = new double[s.length];
    for (int k = 0; k < s.length; k++) {
      q[k] = "NONE".equals(sm.classes().get(k)) ? 1 - pBug : s[k] * scale;
    }
    Map<Target, String> g = e.gold();
    return new Item(
        e.repo(),
        e.change(),
        fold,
        "BUG".equals(g.get(Target.KIND)),
        SYM.indexOf(g.get(Target.SYMPTOM)),
        STG.indexOf(g.get(Target.of(Dimension.STAGE))),
        pBug,
        aligned(Dimension.SYMPTOM, sm.classes(), q),
        aligned(Dimension.STAGE, tm.classes(), p.get(Target.of(Dimension.STAGE))));
  }

  static double[] aligned(Dimension d, List<String> classes, double[] p) {
    Map<String, Double> m = Distributions.ofClasses(d, classes, p);
    double[] out = new double[m.size()];
    int k = 0;
    double sum = 0;
    for (double v : m.values()) {
      out[k++] = v;
      sum += v;
    }
    for (k = 0; k < out.length; k++) {
      out[k] /= sum;
    }
    return out;
  }

  /** The mean distribution over the issues (not the changes) chosen by {@code which}. */
  static Prior prior(List<Item> items, Predicate<Item> which) {
    double[] sym = new double[SYM.size()];
    double[] stg = new double[STG.size()];
    int n = 0;
    for (Item i : items) {
      if (!i.change() && which.test(i)) {
        add(sym, i.sym());
        add(stg, i.stg());
        n++;
      }
    }
    for (int k = 0; k < sym.length; k++) {
      sym[k] /= n;
    }
    for (int k = 0; k < stg.length; k++) {
      stg[k] /= n;
    }
    return new Prior(sym, stg);
  }

  static void add(double[] into, double[] v) {
    for (int k = 0; k < v.length; k++) {
      into[k] += v[k];
    }
  }

  /**
   * The fold models' cross-validated figures per dimension, as {@code train}'s cross-validation
   * computes them (the same folds, seed and {@link Trainer}): macro-F1 and ECE of the answers (with
   * abstention), and the mean log loss of the distributions.
   */
  static final class CvScores {
    final Map<Target, List<String>> gold = new TreeMap<>();
    final Map<Target, List<String>> pred = new TreeMap<>();
    final Map<Target, List<Double>> conf = new TreeMap<>();
    final Map<Target, Double> logLoss = new TreeMap<>();
    final Map<Target, Map<String, Double>> meanP = new TreeMap<>();

    void add(Example e, Trainer.Fitted m) {
      Map<Target, double[]> p = m.probabilities(e.raw());
      Map<Target, dev.faultline.classifier.learned.Decision.Answer> a = m.answer(e.raw());
      for (Target t : Target.values()) {
        String g = e.gold().get(t);
        gold.computeIfAbsent(t, k -> new ArrayList<>()).add(g);
        pred.computeIfAbsent(t, k -> new ArrayList<>()).add(a.get(t).code());
        conf.computeIfAbsent(t, k -> new ArrayList<>()).add(a.get(t).confidence());
        double q = DimensionModel.probabilityOf(m.models().get(t).classes(), p.get(t), g);
        logLoss.merge(t, -Math.log(Math.max(q, 1e-12)), Double::sum);
        List<String> classes = m.models().get(t).classes();
        for (int k = 0; k < classes.size(); k++) {
          meanP
              .computeIfAbsent(t, x -> new TreeMap<>())
              .merge(classes.get(k), p.get(t)[k], Double::sum);
        }
      }
    }

    /** Half the summed absolute difference of the mean distribution and the gold codes' shares. */
    double mixGap(Target t) {
      int n = gold.get(t).size();
      Map<String, Double> freq = new TreeMap<>();
      gold.get(t).forEach(g -> freq.merge(g, 1.0 / n, Double::sum));
      Set<String> codes = new LinkedHashSet<>(freq.keySet());
      codes.addAll(meanP.get(t).keySet());
      double tv = 0;
      for (String c : codes) {
        tv += Math.abs(meanP.get(t).getOrDefault(c, 0.0) / n - freq.getOrDefault(c, 0.0)) / 2;
      }
      return tv;
    }

    void report(StringBuilder md) {
      md.append("## Cross-validated figures of the fold models (all items)\n\n");
      md.append(
          "| dimension | macro-F1 | log loss | ECE | mix gap (TV: mean distribution vs gold mix)"
              + " |\n|---|---|---|---|---|\n");
      for (Target t : Target.values()) {
        dev.faultline.classifier.evaluation.Figures f =
            dev.faultline.classifier.evaluation.Figures.of(
                gold.get(t), pred.get(t), conf.get(t), 0, 0L);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.4f | %.4f | %.4f | %.4f |%n",
                t.name(),
                f.macroF1(),
                logLoss.get(t) / gold.get(t).size(),
                f.ece(),
                mixGap(t)));
      }
      md.append("\n");
    }
  }

  // ---- the estimates of one scope ----

  /** Per method, the symptom and stage shares of a scope (method "pcc" or "em/strength"). */
  static Map<String, double[][]> estimates(List<Item> scope, Prior prior) {
    int n = scope.size();
    double[][] sym = new double[n][];
    double[][] stg = new double[n][];
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      sym[i] = scope.get(i).sym();
      stg[i] = scope.get(i).stg();
      w[i] = scope.get(i).pBug();
    }
    Map<String, double[][]> out = new LinkedHashMap<>();
    out.put("pcc", new double[][] {symptomShares(sym), stageShares(stg, w)});
    for (double s : STRENGTHS) {
      double[][] a = PriorShift.adjust(sym, prior.sym(), s, new boolean[n]).p();
      double[][] b = PriorShift.adjust(stg, prior.stg(), s, new boolean[n]).p();
      out.put(method(s), new double[][] {symptomShares(a), stageShares(b, w)});
    }
    return out;
  }

  static String method(double strength) {
    return String.format(Locale.ROOT, "em/%.0f", strength);
  }

  /** category-shares for the symptom: the stored distribution already holds P(bug and code). */
  static double[] symptomShares(double[][] p) {
    double[] sum = new double[SYM.size()];
    for (double[] row : p) {
      add(sum, row);
    }
    return shares(SYM_CODES, sum);
  }

  /** category-shares for the stage: P(bug) × P(stage), the classifier giving no joint. */
  static double[] stageShares(double[][] p, double[] pBug) {
    double[] sum = new double[STG.size()];
    for (int i = 0; i < p.length; i++) {
      for (int k = 0; k < sum.length; k++) {
        sum[k] += pBug[i] * p[i][k];
      }
    }
    return shares(STG_CODES, sum);
  }

  static double[] shares(Codes codes, double[] count) {
    return ShareErrorBenchmark.shares(codes, count);
  }

  static double[][] truth(List<Item> scope) {
    double[] sym = new double[SYM.size()];
    double[] stg = new double[STG.size()];
    for (Item i : scope) {
      if (i.bug()) {
        sym[i.symptom()]++;
        stg[i.stage()]++;
      }
    }
    return new double[][] {shares(SYM_CODES, sym), shares(STG_CODES, stg)};
  }

  static int bugs(List<Item> scope) {
    int b = 0;
    for (Item i : scope) {
      b += i.bug() ? 1 : 0;
    }
    return b;
  }

  static int band(int bugs) {
    return bugs < 30 ? 0 : bugs < 80 ? 1 : 2;
  }

  void score(String protocol, List<Item> scope, Prior prior, int onlyDim) {
    double[][] t = truth(scope);
    int b = band(bugs(scope));
    for (Map.Entry<String, double[][]> e : estimates(scope, prior).entrySet()) {
      for (int d = 0; d < 2; d++) {
        if (onlyDim < 0 || onlyDim == d) {
          Codes c = d == 0 ? SYM_CODES : STG_CODES;
          double err = ShareErrorBenchmark.tvd(c, t[d], e.getValue()[d]);
          errors
              .computeIfAbsent(
                  DIMS[d] + "|" + protocol + "|" + b + "|" + e.getKey(), x -> new ArrayList<>())
              .add(err);
        }
      }
    }
  }

  // ---- the protocols ----

  static final Map<String, Set<String>> FAMILIES =
      Map.of(
          "DeepSpeed",
          Set.of("deepspeedai/DeepSpeed", "deepspeedai/Megatron-DeepSpeed"),
          "NVIDIA",
          Set.of(
              "NVIDIA/Megatron-LM",
              "NVIDIA/TransformerEngine",
              "NVIDIA/apex",
              "NVIDIA/nccl",
              "NVIDIA-NeMo/Speech"),
          "Colossal-AI",
          Set.of("hpcaitech/ColossalAI"));

  void natural(List<Item> items) {
    List<Item> issues = items.stream().filter(i -> !i.change()).toList();
    for (int f = 0; f < 5; f++) {
      int fold = f;
      Prior p = prior(items, i -> i.fold() != fold);
      List<Item> inFold = issues.stream().filter(i -> i.fold() == fold).toList();
      score("natural", inFold, p, -1);
      for (String repo : new LinkedHashSet<>(inFold.stream().map(Item::repo).toList())) {
        List<Item> sub = inFold.stream().filter(i -> i.repo().equals(repo)).toList();
        if (bugs(sub) >= 8) {
          score("natural", sub, p, -1);
        }
      }
    }
    // over all folds: each item was answered out of fold; the prior is the mean over all issues
    Prior all = prior(items, i -> true);
    Set<String> named = new LinkedHashSet<>();
    FAMILIES.values().forEach(named::addAll);
    Map<String, Predicate<Item>> groups = new LinkedHashMap<>();
    FAMILIES.forEach((k, v) -> groups.put(k, i -> v.contains(i.repo())));
    groups.put("other", i -> !named.contains(i.repo()));
    for (Predicate<Item> g : groups.values()) {
      score("natural", issues.stream().filter(g).toList(), all, -1);
      score("natural", issues.stream().filter(g.negate()).toList(), all, -1);
    }
  }

  void random(List<Item> items) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    for (int f = 0; f < 5; f++) {
      int fold = f;
      Prior p = prior(items, i -> i.fold() != fold);
      List<Item> inFold = items.stream().filter(i -> !i.change() && i.fold() == fold).toList();
      for (int n : new int[] {40, 100}) {
        for (int rep = 0; rep < 10; rep++) {
          int[] order = ShareErrorBenchmark.shuffled(inFold.size(), r);
          List<Item> sub = new ArrayList<>();
          for (int j = 0; j < n; j++) {
            sub.add(inFold.get(order[j]));
          }
          score("random", sub, p, -1);
        }
      }
    }
  }

  void artificial(List<Item> items) {
    Well19937c rng = new Well19937c(31);
    for (int f = 0; f < 5; f++) {
      int fold = f;
      Prior p = prior(items, i -> i.fold() != fold);
      List<Item> inFold = items.stream().filter(i -> !i.change() && i.fold() == fold).toList();
      List<Item> others = inFold.stream().filter(i -> !i.bug()).toList();
      for (int d = 0; d < 2; d++) {
        Map<Integer, List<Item>> byCode = new TreeMap<>();
        for (Item i : inFold) {
          if (i.bug()) {
            byCode.computeIfAbsent(d == 0 ? i.symptom() : i.stage(), x -> new ArrayList<>()).add(i);
          }
        }
        for (int n : new int[] {25, 60, 150}) {
          for (int rep = 0; rep < 20; rep++) {
            score("artificial", resample(byCode, others, n, rng), p, d);
          }
        }
      }
    }
  }

  /** n bug reports of a Dirichlet(30 × the fold's mix) mix, with non-bugs in the fold's ratio. */
  static List<Item> resample(
      Map<Integer, List<Item>> byCode, List<Item> others, int n, Well19937c rng) {
    List<List<Item>> pools = new ArrayList<>(byCode.values());
    int total = 0;
    for (List<Item> pool : pools) {
      total += pool.size();
    }
    double[] mix = new double[pools.size()];
    double sum = 0;
    for (int c = 0; c < mix.length; c++) {
      double shape = 30.0 * pools.get(c).size() / total + 0.05;
      mix[c] = new GammaDistribution(rng, shape, 1).sample();
      sum += mix[c];
    }
    List<Item> scope = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      double u = rng.nextDouble() * sum;
      int c = 0;
      while (c < mix.length - 1 && u >= mix[c]) {
        u -= mix[c];
        c++;
      }
      List<Item> pool = pools.get(c);
      scope.add(pool.get(rng.nextInt(pool.size())));
    }
    long extra = Math.round((double) n * others.size() / total);
    for (long j = 0; j < extra; j++) {
      scope.add(others.get(rng.nextInt(others.size())));
    }
    return scope;
  }

  // ---- the choice and the tables ----

  double mean(String dim, String protocol, int band, String method) {
    List<Double> v = errors.get(dim + "|" + protocol + "|" + band + "|" + method);
    if (v == null || v.isEmpty()) {
      return Double.NaN;
    }
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.size();
  }

  double randomMean(String dim, String method) {
    double s = 0;
    int n = 0;
    for (int b = 0; b < 3; b++) {
      List<Double> v = errors.get(dim + "|random|" + b + "|" + method);
      if (v != null) {
        for (double x : v) {
          s += x;
          n++;
        }
      }
    }
    return s / n;
  }

  /** The rule of the class comment; per dimension {strength, gate band} or null for PCC. */
  Map<String, double[]> report(StringBuilder md) {
    md.append("## Share error (TVD over known codes) on the training corpus's folds: choosing\n\n");
    md.append("| dimension | scopes | bug reports | n | PCC |");
    for (double s : STRENGTHS) {
      md.append(s == 0 ? " EM (undamped) |" : String.format(Locale.ROOT, " EM α=%.0fn |", s));
    }
    md.append("\n|---|---|---|---|---|---|---|---|---|\n");
    for (String dim : DIMS) {
      for (String protocol : List.of("natural", "random", "artificial")) {
        for (int b = 0; b < 3; b++) {
          List<Double> v = errors.get(dim + "|" + protocol + "|" + b + "|pcc");
          if (v == null) {
            continue;
          }
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %s | %d | %.4f |",
                  dim,
                  protocol,
                  BANDS[b],
                  v.size(),
                  mean(dim, protocol, b, "pcc")));
          for (double s : STRENGTHS) {
            md.append(String.format(Locale.ROOT, " %.4f |", mean(dim, protocol, b, method(s))));
          }
          md.append("\n");
        }
      }
    }
    Map<String, double[]> choice = new LinkedHashMap<>();
    md.append("\nThe rule's outcome:\n\n");
    for (String dim : DIMS) {
      double[] c = choose(dim);
      choice.put(dim, c);
      md.append(
          c == null
              ? String.format(
                  Locale.ROOT,
                  "- %s: PCC (no damped EM beat it on natural scopes of ≥ 80 bug reports at no cost on random ones)%n",
                  dim)
              : String.format(
                  Locale.ROOT,
                  "- %s: EM with α = %.0fn for scopes of %s bug reports%n",
                  dim,
                  c[0],
                  BANDS[(int) c[1]]));
    }
    return choice;
  }

  double[] choose(String dim) {
    double best = mean(dim, "natural", 2, "pcc");
    double strength = -1;
    for (double s : STRENGTHS) {
      if (s == 0) {
        continue;
      }
      double e = mean(dim, "natural", 2, method(s));
      if (e < best && randomMean(dim, method(s)) <= randomMean(dim, "pcc") + 0.002) {
        best = e;
        strength = s;
      }
    }
    if (strength < 0) {
      return null;
    }
    int gate = 2;
    while (gate > 0
        && mean(dim, "natural", gate - 1, method(strength))
            < mean(dim, "natural", gate - 1, "pcc")) {
      gate--;
    }
    return new double[] {strength, gate};
  }

  // ---- the training prior and dev ----

  /** The training prior as {@link dev.faultline.estimate.TrainingPrior} reads it. */
  static void writePrior(Path file, Prior p) throws Exception {
    StringBuilder b = new StringBuilder();
    b.append(
            "# The mean out-of-fold distribution over the training issues (the learned layer's 5 grouped\n")
        .append(
            "# folds, seed 20261125), for PriorShift. Written by PriorShiftBenchmark (docs/estimates.md);\n")
        .append(
            "# regenerate it whenever the artefact changes (TrainingPriorTest compares the hash).\n");
    b.append("classifierVersion=").append(LearnedClassifier.versionFor()).append('\n');
    b.append("artefactSha256=").append(artefactSha256()).append('\n');
    for (int k = 0; k < SYM.size(); k++) {
      b.append(String.format(Locale.ROOT, "symptom.%s=%.6f%n", SYM.get(k), p.sym()[k]));
    }
    for (int k = 0; k < STG.size(); k++) {
      b.append(String.format(Locale.ROOT, "stage.%s=%.6f%n", STG.get(k), p.stg()[k]));
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, b, StandardCharsets.UTF_8);
  }

  /** The SHA-256 of the bundled artefact's bytes (hex). */
  static String artefactSha256() throws Exception {
    try (java.io.InputStream in = dev.faultline.artefact.LearnedArtefact.open()) {
      return java.util.HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()));
    }
  }

  /** The artefact dev is classified with (null: the committed one). */
  static Path model;

  /** The training prior of a file PriorShiftBenchmark wrote, or (empty path) the bundled one. */
  static Prior readPrior(String file) throws Exception {
    if (file.isEmpty()) {
      TrainingPrior t = TrainingPrior.bundled();
      return new Prior(t.of("symptom", SYM).orElseThrow(), t.of("stage", STG).orElseThrow());
    }
    java.util.Properties p = new java.util.Properties();
    try (java.io.Reader r = Files.newBufferedReader(Path.of(file))) {
      p.load(r);
    }
    double[] sym =
        SYM.stream()
            .mapToDouble(c -> Double.parseDouble(p.getProperty("symptom." + c, "0")))
            .toArray();
    double[] stg =
        STG.stream()
            .mapToDouble(c -> Double.parseDouble(p.getProperty("stage." + c, "0")))
            .toArray();
    return new Prior(sym, stg);
  }

  static void dev(Path dev, Prior prior, Map<String, double[]> choice, StringBuilder md)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    LearnedClassifier c = LearnedClassifier.shared();
    if (model != null) {
      try (java.io.InputStream in = Files.newInputStream(model)) {
        c =
            new LearnedClassifier(
                new Classifier(ClassifierConfig.defaults()),
                new VectorCache(MiniLmEmbedder.shared(), VectorCache.CAPACITY),
                LearnedModel.read(in));
      }
    }
    List<Item> all = new ArrayList<>();
    for (String line : Files.readAllLines(dev, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode rec = json.readTree(line);
      String url = rec.path("url").asText("");
      Classification k =
          c.classify(
              ThreadText.ofRecord(rec),
              ChangeDetails.ofRecord(
                  url, rec.path("text").asText(""), rec.path("diff").asText("")));
      JsonNode g = rec.path("gold");
      all.add(
          new Item(
              rec.path("repo").asText(""),
              url.contains("/pull/"),
              -1,
              "BUG".equals(g.path("kind").asText()),
              SYM.indexOf(g.path("symptom").asText()),
              STG.indexOf(g.path("stage").asText()),
              stored(Dimension.KIND, k)[Dimension.KIND.distributionCodes().indexOf("BUG")],
              stored(Dimension.SYMPTOM, k),
              stored(Dimension.STAGE, k)));
    }
    md.append("\n## dev.jsonl, once, after the choice (the shipped artefact never saw it)\n\n");
    md.append(
        "| scope | items | bug reports | dimension | PCC | chosen | EM α=2n | floor |\n|---|---|---|---|---|---|---|---|\n");
    devRow("all", all, prior, choice, md);
    devRow("issues only", all.stream().filter(i -> !i.change()).toList(), prior, choice, md);
  }

  /** A label's distribution as the graph stores it (rounded to 4 decimals), renormalised. */
  static double[] stored(Dimension d, Classification k) {
    List<Double> l = Distributions.aligned(d, k.label(d));
    double[] out = new double[l.size()];
    double sum = 0;
    for (int i = 0; i < out.length; i++) {
      out[i] = l.get(i);
      sum += out[i];
    }
    for (int i = 0; i < out.length; i++) {
      out[i] /= sum;
    }
    return out;
  }

  static void devRow(
      String name, List<Item> scope, Prior prior, Map<String, double[]> choice, StringBuilder md) {
    double[][] t = truth(scope);
    Map<String, double[][]> e = estimates(scope, prior);
    double expectedBugs = 0;
    for (Item i : scope) {
      expectedBugs += 1 - i.sym()[SYM.indexOf("NONE")];
    }
    for (int d = 0; d < 2; d++) {
      Codes codes = d == 0 ? SYM_CODES : STG_CODES;
      double[] ch = choice.get(DIMS[d]);
      boolean on = ch != null && band((int) Math.floor(expectedBugs)) >= ch[1];
      String chosen = on ? method(ch[0]) : "pcc";
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %s | %.4f | %.4f (%s) | %.4f | %.3f |%n",
              name,
              scope.size(),
              bugs(scope),
              DIMS[d],
              ShareErrorBenchmark.tvd(codes, t[d], e.get("pcc")[d]),
              ShareErrorBenchmark.tvd(codes, t[d], e.get(chosen)[d]),
              chosen,
              ShareErrorBenchmark.tvd(codes, t[d], e.get(method(2))[d]),
              floor(scope, d)));
    }
  }

  /**
   * The error PCC would have with perfectly calibrated probabilities: each item's label drawn from
   * its own distribution (the stage's joint with P(bug)), 400 times, the mean TVD between those
   * labels' shares and PCC's.
   */
  static double floor(List<Item> scope, int d) {
    int n = scope.size();
    int k = d == 0 ? SYM.size() : STG.size() + 1;
    Codes codes = d == 0 ? SYM_CODES : STG_CODES;
    double[][] p = new double[n][k];
    double[] expected = new double[k];
    for (int i = 0; i < n; i++) {
      Item it = scope.get(i);
      for (int c = 0; c < k; c++) {
        p[i][c] = d == 0 ? it.sym()[c] : c < STG.size() ? it.pBug() * it.stg()[c] : 1 - it.pBug();
        expected[c] += p[i][c];
      }
    }
    double[] pcc = shares(codes, java.util.Arrays.copyOf(expected, codes.size()));
    java.util.SplittableRandom r = new java.util.SplittableRandom(d + 1);
    double sum = 0;
    for (int draw = 0; draw < 400; draw++) {
      double[] count = new double[codes.size()];
      for (double[] row : p) {
        double u = r.nextDouble();
        int c = 0;
        while (c < k - 1 && u >= row[c]) {
          u -= row[c];
          c++;
        }
        if (c < codes.size()) {
          count[c]++;
        }
      }
      sum += ShareErrorBenchmark.tvd(codes, shares(codes, count), pcc);
    }
    return sum / 400;
  }
}
