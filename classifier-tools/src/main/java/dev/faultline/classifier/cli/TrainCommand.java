package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.evaluation.Figures;
import dev.faultline.classifier.evaluation.Metrics;
import dev.faultline.classifier.learned.CachedEmbedder;
import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.EncoderFingerprint;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.Neighbours;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.rules.RulesCalibration;
import dev.faultline.classifier.training.CrossValidation;
import dev.faultline.classifier.training.Trainer;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code train --data DIR [--dev FILE] [--output FILE] [--folds K] [--seed N] [--no-cv]}: trains
 * the learned layer on the labelled corpus in DIR ({@code issues.jsonl}, {@code changes.jsonl}),
 * cross-validates it (folds grouped by issue; rules alone, model alone and both; learning curve at
 * 25/50/100% of each training fold), writes the artefact (weights, vocabulary, thresholds, training
 * report; no corpus text), and, with {@code --dev}, reports the final model (trained without that
 * file) on it. Deterministic: the same input gives the same artefact bytes.
 */
@Command(
    name = "train",
    description = {
      "Train and cross-validate the learned classifier layer on a labelled corpus.",
      "",
      "Trains and cross-validates the learned classifier layer on the labelled corpus in DIR (issues.jsonl,",
      "changes.jsonl): folds grouped by issue; rules alone, model alone and both; a learning curve. Writes the",
      "artefact (weights, vocabulary, thresholds, training report; no corpus text). Deterministic: the same input",
      "gives the same artefact bytes.",
      "",
      "With --rules-confusion, instead counts the rules' confusion with the gold labels (the rules' probabilities),",
      "chooses its row keys and prior strength on the same grouped folds, prints the rules' distributions' figures",
      "before and after (and on --dev), and writes classifier/src/main/resources"
          + RulesCalibration.RESOURCE
          + " (a second or so; no encoder)."
    })
public final class TrainCommand extends CliCommand {

  static final long DEFAULT_SEED = 20261125L;

  static final String DEFAULT_OUTPUT = "artefact/src/main/resources" + LearnedModel.RESOURCE;

  @Option(
      names = "--data",
      required = true,
      paramLabel = "DIR",
      description =
          "directory with issues.jsonl and changes.jsonl (labelled; e.g. ../shared/train)")
  Path data;

  @Option(
      names = "--dev",
      paramLabel = "FILE",
      description = "a labelled file kept out of training, reported on with the final model")
  Path dev;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      defaultValue = DEFAULT_OUTPUT,
      description = "artefact to write")
  Path output;

  @Option(
      names = "--folds",
      paramLabel = "K",
      defaultValue = "5",
      description = "cross-validation folds (at least 2)")
  int folds;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_SEED,
      description = "seed of folds and held-back split")
  long seed;

  @Option(
      names = "--no-cv",
      description = "skip cross-validation (the artefact then carries no cross-validated figures)")
  boolean noCv;

  @Option(
      names = "--rules-confusion",
      description =
          "count the rules' confusion (their probabilities) instead of training the learned layer;"
              + " --output defaults to the classifier module's rules-confusion.json")
  boolean rulesConfusion;

  @Option(
      names = "--cache",
      paramLabel = "DIR",
      defaultValue = ".faultline/train-cache",
      description = "directory keeping the text vectors between runs, by hash")
  Path cache;

  public TrainCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit code (0 ok, 2 usage or bad input, 1 I/O error). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(new TrainCommand(), args, out, err);
  }

  @Override
  public Integer call() {
    if (folds < 2) {
      throw usageError("--folds must be a whole number >= 2, not " + folds);
    }
    try {
      List<TrainingData.Item> items = new ArrayList<>();
      items.addAll(TrainingData.read(data.resolve("issues.jsonl")));
      items.addAll(TrainingData.read(data.resolve("changes.jsonl")));
      List<TrainingData.Item> devItems = dev == null ? List.of() : TrainingData.read(dev);
      if (rulesConfusion) {
        Path target =
            output.equals(Path.of(DEFAULT_OUTPUT))
                ? Path.of(RulesConfusionRun.DEFAULT_OUTPUT)
                : output;
        return RulesConfusionRun.run(items, devItems, urls(dev), folds, seed, target, out);
      }
      CachedEmbedder embedder = new CachedEmbedder(MiniLmEmbedder.shared(), cache);
      int code = train(items, devItems, folds, seed, !noCv, output, embedder, out);
      embedder.save();
      return code;
    } catch (TrainingData.BadInput e) {
      err.println("train: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      err.println("train: " + e.getMessage());
      return 1;
    }
  }

  /** The {@code url} of every record of a labelled file, in order (none without a file). */
  private static List<String> urls(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    if (file == null) {
      return out;
    }
    ObjectMapper json = new ObjectMapper();
    try (JsonLines lines = JsonLines.open(file)) {
      String line;
      while ((line = lines.nextLine()) != null) {
        out.add(json.readTree(line).path("url").asText(""));
      }
    }
    return out;
  }

  static int train(
      List<TrainingData.Item> items,
      List<TrainingData.Item> devItems,
      int folds,
      long seed,
      boolean cv,
      Path output,
      TextEmbedder embedder,
      PrintStream out)
      throws IOException {
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    out.printf(
        Locale.ROOT,
        "faultline train: %d labelled items (%d issues, %d changes), encoder %s, %s%n",
        items.size(),
        items.stream().filter(i -> !i.change()).count(),
        items.stream().filter(TrainingData.Item::change).count(),
        embedder.name(),
        LearnedClassifier.versionFor());
    List<Example> all = features(items, rules, embedder, out, "training items");
    ObjectMapper json = new ObjectMapper();
    ObjectNode report = json.createObjectNode();
    report.put("items", all.size());
    report.put("folds", folds);
    report.put("seed", seed);
    // This machine's encoder, not the vector cache's (which may hold vectors of an earlier run).
    report.put(
        "encoderFingerprint",
        EncoderFingerprint.of(
            embedder instanceof CachedEmbedder c ? c.inner() : (TextEmbedder) embedder));
    Map<Target, Double> level = new TreeMap<>();
    if (cv) {
      crossValidate(all, folds, seed, report, level, out);
    } else {
      for (Target t : Target.values()) {
        level.put(t, 1.0);
      }
    }
    long t0 = System.nanoTime();
    Trainer.Fitted fitted = new Trainer(seed, n -> true).train(all);
    out.printf(
        Locale.ROOT,
        "final model trained on all %d items in %.1f s: %s%n",
        all.size(),
        (System.nanoTime() - t0) / 1e9,
        fitted.vectorizer());
    printCalibration(fitted, level, report, out);
    LearnedModel model =
        new LearnedModel(
            LearnedClassifier.versionFor(),
            embedder.name(),
            fitted.vectorizer(),
            fitted.models(),
            level,
            neighbours(all),
            report);
    if (!devItems.isEmpty()) {
      evaluateOnDev(devItems, rules, embedder, fitted, seed, report, out);
    }
    write(model, output, out);
    return 0;
  }

  /**
   * Stores each dimension's temperature, threshold and precision level in the report; prints them.
   */
  private static void printCalibration(
      Trainer.Fitted fitted, Map<Target, Double> level, ObjectNode report, PrintStream out) {
    ObjectNode calib = report.putObject("calibration");
    fitted
        .models()
        .forEach(
            (t, m) -> {
              ObjectNode d = calib.putObject(t.field);
              d.put("temperature", Math.round(m.temperature() * 1000) / 1000.0);
              d.put("threshold", m.threshold());
              d.put("precisionLevel", level.get(t));
              out.printf(
                  Locale.ROOT,
                  "  %-22s temperature %.3f, abstains below %.2f, precision 0.9 from confidence %.3f%n",
                  t.field,
                  m.temperature(),
                  m.threshold(),
                  level.get(t));
            });
  }

  /** The training items' ids, labels and byte-quantised text vectors, for the nearest items. */
  private static Neighbours neighbours(List<Example> all) {
    List<String> ids = new ArrayList<>();
    List<Map<String, String>> labels = new ArrayList<>();
    byte[][] vectors = new byte[all.size()][];
    for (int i = 0; i < all.size(); i++) {
      Example e = all.get(i);
      ids.add(e.id());
      Map<String, String> l = new LinkedHashMap<>();
      for (Target t : Target.values()) {
        l.put(t.field, e.gold().get(t));
      }
      labels.add(l);
      vectors[i] = Neighbours.quantise(e.raw().embedding());
    }
    return new Neighbours(ids, labels, vectors);
  }

  /** The final model's figures on the --dev items (trained without them) beside the rules. */
  private static void evaluateOnDev(
      List<TrainingData.Item> devItems,
      Classifier rules,
      TextEmbedder embedder,
      Trainer.Fitted fitted,
      long seed,
      ObjectNode report,
      PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%n== %d items of --dev, final model (trained without them) beside the rules ==%n",
        devItems.size());
    List<Example> dev = features(devItems, rules, embedder, out, "dev items");
    List<CrossValidation.Answered> answered = new ArrayList<>();
    for (Example e : dev) {
      answered.add(new CrossValidation.Answered(e, fitted.answer(e.raw())));
    }
    ObjectNode d = report.putObject("dev");
    table(answered, 2000, seed, d, out);
  }

  private static void write(LearnedModel model, Path output, PrintStream out) throws IOException {
    Path parent = output.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream o = Files.newOutputStream(output)) {
      model.write(o);
    }
    out.printf(Locale.ROOT, "wrote %s (%,d bytes)%n", output, Files.size(output));
  }

  static List<Example> features(
      List<TrainingData.Item> items,
      Classifier rules,
      TextEmbedder embedder,
      PrintStream out,
      String what) {
    long start = System.nanoTime();
    int every = Math.max(1, items.size() / 10);
    return TrainingData.examples(
        items,
        rules,
        embedder,
        n -> {
          if (n % every == 0 || n == items.size()) {
            double s = (System.nanoTime() - start) / 1e9;
            out.printf(
                Locale.ROOT,
                "  features of %s: %d/%d (%.0f/s, ETA %.0f s)%n",
                what,
                n,
                items.size(),
                n / s,
                (items.size() - n) / (n / s));
          }
        });
  }

  static void crossValidate(
      List<Example> all,
      int folds,
      long seed,
      ObjectNode report,
      Map<Target, Double> level,
      PrintStream out) {
    Map<String, Predicate<String>> variants = new LinkedHashMap<>();
    variants.put("both", n -> true);
    if (!Boolean.getBoolean("faultline.train.quick")) {
      variants.put("model", Trainer.RULE_FEATURE.negate());
    }
    ObjectNode cvNode = report.putObject("crossValidation");
    List<CrossValidation.Answered> both = null;
    for (Map.Entry<String, Predicate<String>> v : variants.entrySet()) {
      long t0 = System.nanoTime();
      List<CrossValidation.Answered> ans =
          CrossValidation.run(
              all,
              folds,
              seed,
              v.getValue(),
              1.0,
              f ->
                  out.printf(
                      Locale.ROOT,
                      "  cross-validation (%s): fold %d/%d done, %.0f s%n",
                      v.getKey(),
                      f,
                      folds,
                      (System.nanoTime() - t0) / 1e9));
      if (both == null) {
        both = ans;
      } else {
        ObjectNode m = cvNode.putObject("modelAlone");
        out.printf(
            Locale.ROOT,
            "%n== ablation: the model without the rules' answers and cues (%d-fold) ==%n",
            folds);
        table(ans, 0, seed, m, out, false);
      }
    }
    out.printf(
        Locale.ROOT,
        "%n== %d-fold cross-validation on the training corpus (grouped by issue): rules alone and"
            + " rules + model ==%n",
        folds);
    table(both, 1000, seed, cvNode.putObject("all"), out);
    for (boolean change : new boolean[] {false, true}) {
      List<CrossValidation.Answered> part =
          both.stream().filter(x -> x.example().change() == change).toList();
      out.printf(Locale.ROOT, "%n-- %s only --%n", change ? "changes" : "issues");
      table(part, 0, seed, cvNode.putObject(change ? "changes" : "issues"), out);
    }
    precisionLevels(both, level);
    if (Boolean.getBoolean("faultline.train.quick")) {
      return;
    }
    leaveOneRepositoryOut(all, seed, cvNode, out);
    learningCurve(all, folds, seed, both, cvNode, out);
  }

  /** Per dimension, the confidence from which the cross-validated answers are 90% precise. */
  private static void precisionLevels(
      List<CrossValidation.Answered> both, Map<Target, Double> level) {
    for (Target t : Target.values()) {
      List<Boolean> ok = new ArrayList<>();
      List<Double> conf = new ArrayList<>();
      for (CrossValidation.Answered x : both) {
        Decision.Answer an = x.answers().get(t);
        if (!an.abstained()) {
          ok.add(an.code().equals(x.example().gold().get(t)));
          conf.add(an.confidence());
        }
      }
      level.put(t, Metrics.precisionLevel(ok, conf, 0.9));
    }
  }

  private static void leaveOneRepositoryOut(
      List<Example> all, long seed, ObjectNode cvNode, PrintStream out) {
    long t1 = System.nanoTime();
    List<CrossValidation.Answered> loro =
        CrossValidation.byRepository(
            all,
            seed,
            n -> true,
            f ->
                out.printf(
                    Locale.ROOT,
                    "  leave-one-repository-out: %d repositories done, %.0f s%n",
                    f,
                    (System.nanoTime() - t1) / 1e9));
    out.printf(
        Locale.ROOT,
        "%n== leave one repository out (each repository answered by a model of the others) ==%n");
    table(loro, 0, seed, cvNode.putObject("byRepository"), out);
  }

  /** Macro-F1 with 25, 50 and 100% of each training fold ({@code both}: the 100% answers). */
  private static void learningCurve(
      List<Example> all,
      int folds,
      long seed,
      List<CrossValidation.Answered> both,
      ObjectNode cvNode,
      PrintStream out) {
    ObjectNode curve = cvNode.putObject("learningCurve");
    out.printf(
        Locale.ROOT, "%n== learning curve: macro-F1 with 25/50/100%% of each training fold ==%n");
    Map<Double, List<CrossValidation.Answered>> byShare = new LinkedHashMap<>();
    for (double share : new double[] {0.25, 0.5}) {
      byShare.put(share, CrossValidation.run(all, folds, seed, n -> true, share, f -> {}));
    }
    byShare.put(1.0, both);
    out.printf(Locale.ROOT, "%-22s %8s %8s %8s%n", "dimension", "25%", "50%", "100%");
    for (Target t : Target.values()) {
      ObjectNode c = curve.putObject(t.field);
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-22s", t.field));
      for (Map.Entry<Double, List<CrossValidation.Answered>> e : byShare.entrySet()) {
        List<String> g = e.getValue().stream().map(x -> x.example().gold().get(t)).toList();
        List<String> p = e.getValue().stream().map(x -> x.answers().get(t).code()).toList();
        double f1 = Metrics.macroF1(g, p);
        c.put(String.valueOf((int) (e.getKey() * 100)), Math.round(f1 * 1000) / 1000.0);
        row.append(String.format(Locale.ROOT, " %8.3f", f1));
      }
      out.println(row);
    }
  }

  static void table(
      List<CrossValidation.Answered> ans,
      int resamples,
      long seed,
      ObjectNode into,
      PrintStream out) {
    table(ans, resamples, seed, into, out, true);
  }

  /** Per dimension: the rules' figures (optional) and the model's, on the same answers. */
  static void table(
      List<CrossValidation.Answered> ans,
      int resamples,
      long seed,
      ObjectNode into,
      PrintStream out,
      boolean withRules) {
    out.println(Figures.header());
    for (Target t : Target.values()) {
      List<String> gold = ans.stream().map(x -> x.example().gold().get(t)).toList();
      if (withRules) {
        Figures r =
            Figures.of(
                gold,
                ans.stream().map(x -> x.example().rulesCode(t)).toList(),
                ans.stream().map(x -> x.example().rulesConfidence(t)).toList(),
                resamples,
                seed);
        out.println(r.row(t.field, "rules"));
        r.into(into.putObject(t.field).putObject("rules"));
      }
      Figures m =
          Figures.of(
              gold,
              ans.stream().map(x -> x.answers().get(t).code()).toList(),
              ans.stream().map(x -> x.answers().get(t).confidence()).toList(),
              resamples,
              seed);
      out.println(m.row(t.field, withRules ? "learned" : "model"));
      ObjectNode d = into.has(t.field) ? (ObjectNode) into.get(t.field) : into.putObject(t.field);
      m.into(d.putObject(withRules ? "learned" : "model"));
    }
  }
}
