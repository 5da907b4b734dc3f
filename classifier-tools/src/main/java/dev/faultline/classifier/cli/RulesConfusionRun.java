package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.evaluation.DistributionScores;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.rules.RulesCalibration;
import dev.faultline.classifier.training.RulesConfusion;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * {@code train --rules-confusion}: counts the rules' confusion on the labelled corpus ({@link
 * RulesConfusion}), chooses its row keys and prior strength on grouped folds, prints the choice and
 * the distributions' figures before (the rules' hand-set confidence on their code, the rest spread
 * by the training mix) and after (the confusion rows: out of fold on the corpus, and on a labelled
 * file kept apart with {@code --dev}), and writes the artefact ({@link RulesCalibration#RESOURCE}:
 * counts and the report, no text).
 */
final class RulesConfusionRun {

  /** Where the artefact goes by default (the classifier module's resources). */
  static final String DEFAULT_OUTPUT = "classifier/src/main/resources" + RulesCalibration.RESOURCE;

  private RulesConfusionRun() {}

  /**
   * @param devUrls the URL of each item of {@code devItems}, in order (for the half the rules'
   *     author did not read, {@link EvalCommand#inHalf})
   */
  static int run(
      List<TrainingData.Item> items,
      List<TrainingData.Item> devItems,
      List<String> devUrls,
      int folds,
      long seed,
      Path output,
      PrintStream out)
      throws IOException {
    String version = Classifier.VERSION;
    Classifier rules =
        new Classifier(ClassifierConfig.defaults(), RulesCalibration.uncounted(version));
    List<RulesConfusion.Answered> all = RulesConfusion.answer(items, rules);
    out.printf(
        Locale.ROOT,
        "faultline train --rules-confusion: %s on %d labelled items, %d folds grouped by issue%n",
        version,
        all.size(),
        folds);
    ObjectMapper json = new ObjectMapper();
    ObjectNode report = json.createObjectNode();
    report.put("items", all.size());
    report.put("folds", folds);
    report.put("seed", seed);
    report.put(
        "rule",
        "the candidate (row key parts, prior strength) with the lowest mean out-of-fold log loss"
            + " over the labelled dimensions");
    List<RulesConfusion.Score> scores = RulesConfusion.select(all, folds, seed, version);
    RulesConfusion.Score best = RulesConfusion.best(scores);
    printSelection(scores, best, report.putArray("selection"), out);
    RulesCalibration chosen = RulesConfusion.fit(all, best.candidate(), version);
    Map<Dimension, List<Map<String, Double>>> oof =
        RulesConfusion.outOfFold(all, best.candidate(), folds, seed, version);
    out.println();
    out.println("Out of fold on the corpus (the split that chose the candidate):");
    ObjectNode cv = report.putObject("outOfFold");
    for (Dimension d : Dimension.LABELLED) {
      figures(
          d,
          RulesConfusion.scores(d, all, RulesConfusion::before),
          RulesConfusion.scores(d, all, oof.get(d)),
          cv,
          out);
    }
    if (!devItems.isEmpty()) {
      devFigures(devItems, devUrls, rules, chosen, report, out);
    }
    ObjectNode artefact =
        chosen.toJson(
            json,
            "The rules' confusion with the gold labels of ../shared/train (issues.jsonl and"
                + " changes.jsonl): counts per row key (the rules' answer, then the parts in 'key'),"
                + " made by faultline train --rules-confusion; the rules' label distributions"
                + " (RulesCalibration). Counts only, no text.",
            report);
    Files.createDirectories(output.toAbsolutePath().getParent());
    Files.writeString(
        output,
        json.writerWithDefaultPrettyPrinter().writeValueAsString(artefact) + "\n",
        StandardCharsets.UTF_8);
    out.printf(Locale.ROOT, "%nwrote %s%n", output);
    return 0;
  }

  /** The figures on the items kept apart ({@code --dev}) and on its half b, before and after. */
  private static void devFigures(
      List<TrainingData.Item> devItems,
      List<String> devUrls,
      Classifier rules,
      RulesCalibration chosen,
      ObjectNode report,
      PrintStream out) {
    List<RulesConfusion.Answered> dev = RulesConfusion.answer(devItems, rules);
    out.println();
    out.printf(
        Locale.ROOT,
        "On %d items kept apart (--dev; chose nothing of the confusion, but the rules were"
            + " written reading such a file):%n",
        dev.size());
    ObjectNode devReport = report.putObject("dev");
    devReport.put("items", dev.size());
    BiFunction<RulesConfusion.Answered, Dimension, Map<String, Double>> after =
        RulesConfusion.after(chosen);
    for (Dimension d : Dimension.LABELLED) {
      figures(
          d,
          RulesConfusion.scores(d, dev, RulesConfusion::before),
          RulesConfusion.scores(d, dev, after),
          devReport,
          out);
    }
    List<RulesConfusion.Answered> halfB = new java.util.ArrayList<>();
    for (int i = 0; i < dev.size(); i++) {
      if (EvalCommand.inHalf(devUrls.get(i)) == 'b') {
        halfB.add(dev.get(i));
      }
    }
    out.printf(
        Locale.ROOT,
        "Its half b (%d items; eval --half b: the half the rules' author did not read):%n",
        halfB.size());
    ObjectNode halfReport = report.putObject("devHalfB");
    halfReport.put("items", halfB.size());
    for (Dimension d : Dimension.LABELLED) {
      figures(
          d,
          RulesConfusion.scores(d, halfB, RulesConfusion::before),
          RulesConfusion.scores(d, halfB, after),
          halfReport,
          out);
    }
  }

  private static void printSelection(
      List<RulesConfusion.Score> scores,
      RulesConfusion.Score best,
      ArrayNode json,
      PrintStream out) {
    out.println();
    out.println("Candidates (mean over the labelled dimensions, out of fold):");
    out.printf(
        Locale.ROOT,
        "  %-28s %8s %9s %7s %7s%n",
        "row key",
        "strength",
        "log loss",
        "Brier",
        "ECE");
    for (RulesConfusion.Score s : scores) {
      String key = keyName(s.candidate());
      out.printf(
          Locale.ROOT,
          "  %-28s %8.0f %9.4f %7.4f %7.4f%s%n",
          key,
          s.candidate().strength(),
          s.logLoss(),
          s.brier(),
          s.ece(),
          s == best ? "  <- chosen" : "");
      ObjectNode o = json.addObject();
      o.put("key", key);
      o.put("strength", s.candidate().strength());
      o.put("logLoss", round(s.logLoss()));
      o.put("brier", round(s.brier()));
      o.put("ece", round(s.ece()));
      o.put("chosen", s == best);
    }
  }

  private static String keyName(RulesConfusion.Candidate c) {
    StringBuilder b = new StringBuilder("answer");
    c.parts().forEach(p -> b.append('+').append(p.name().toLowerCase(Locale.ROOT)));
    return b.toString();
  }

  private static void figures(
      Dimension d,
      DistributionScores before,
      DistributionScores after,
      ObjectNode json,
      PrintStream out) {
    out.printf(
        Locale.ROOT,
        "  %-21s ECE %.3f -> %.3f   Brier %.3f -> %.3f   log loss %.3f -> %.3f   share error"
            + " (bug reports, PCC) %s -> %s%n",
        d.field(),
        before.ece(),
        after.ece(),
        before.brier(),
        after.brier(),
        before.logLoss(),
        after.logLoss(),
        fmt(before.shareError()),
        fmt(after.shareError()));
    ObjectNode o = json.putObject(d.key());
    o.put("items", after.items());
    ObjectNode b = o.putObject("before");
    ObjectNode a = o.putObject("after");
    put(b, before);
    put(a, after);
  }

  private static void put(ObjectNode o, DistributionScores s) {
    o.put("ece", round(s.ece()));
    o.put("brier", round(s.brier()));
    o.put("logLoss", round(s.logLoss()));
    if (!Double.isNaN(s.shareError())) {
      o.put("shareError", round(s.shareError()));
    }
  }

  private static String fmt(double x) {
    return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
  }

  private static double round(double x) {
    return Math.round(x * 10000) / 10000.0;
  }
}
