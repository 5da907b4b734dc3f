package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.evaluation.Figures;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.llm.LlmClassifier;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eval --gold FILE [--predictions FILE]}: agreement of the classifier with adjudicated
 * labels, per dimension (accuracy, macro-F1, Cohen's kappa), a symptom confusion table and version
 * precision/recall, printed beside the annotators' own agreement from {@code
 * ../shared/eval/README.md}. Without {@code --predictions} the gold file's records are classified
 * in-process first.
 */
@Command(
    name = "eval",
    description = {
      "Measure the classifier against a labelled JSONL file.",
      "",
      "Agreement per dimension (accuracy, macro-F1, Cohen's kappa) beside the annotators' own, a symptom confusion",
      "table, version precision and recall. Without --predictions the gold file's records are classified first."
    },
    footer = {"", LlmOptions.FOOTER})
public final class EvalCommand extends CliCommand {

  static final int DEFAULT_RESAMPLES = 2000;
  private static final long BOOTSTRAP_SEED = 20261122L;

  /** Annotator agreement (macro-F1, kappa) from the eval README: the targets. */
  private static final Map<String, double[]> TARGETS = new LinkedHashMap<>();

  static {
    TARGETS.put(Dimension.KIND.field(), new double[] {0.99, 0.98});
    TARGETS.put(Dimension.SYMPTOM.field(), new double[] {0.96, 0.97});
    TARGETS.put(Dimension.ROOT_CAUSE.field(), new double[] {0.88, 0.89});
    TARGETS.put(Dimension.FIX_PATTERN.field(), new double[] {0.87, 0.85});
    TARGETS.put(Dimension.STAGE.field(), new double[] {0.96, 0.96});
    TARGETS.put(Dimension.PHASE.field(), new double[] {0.96, 0.91});
    TARGETS.put(Dimension.DISTRIBUTED_SPECIFIC.field(), new double[] {0.93, 0.91});
    TARGETS.put("framework", new double[] {1.00, Double.NaN});
  }

  private static final double TARGET_VERSION_P = 0.91;
  private static final double TARGET_VERSION_R = 0.90;

  @Option(
      names = "--gold",
      required = true,
      paramLabel = "FILE",
      description = "JSON lines with the classify input fields plus a 'gold' object")
  Path gold;

  @Option(
      names = "--tier",
      defaultValue = "learned",
      paramLabel = "TIER",
      completionCandidates = Tiers.Names.class,
      description =
          "learned, rules or llm: whose answers the agreement table shows; the calibration table shows it"
              + " beside the rules, and the learned layer's cross-validated figures follow; llm adds its requests, tokens,"
              + " cache hits, fallbacks and cost per 1,000 items")
  String tier;

  @Mixin ModelFlag modelFlag;

  @Option(
      names = "--predictions",
      paramLabel = "FILE",
      description = "output of classify for the same records (default: classify them now)")
  Path predictions;

  @Option(
      names = "--errors",
      paramLabel = "FIELD",
      description = "also list the disagreements on one field, e.g. symptom")
  String errorField;

  @Option(
      names = "--half",
      paramLabel = "a|b",
      description =
          "only the records whose url's Java hashCode is even (a) or odd (b): a fixed split, so rules can be"
              + " developed reading one half and checked on the other")
  String half;

  @Option(
      names = "--resamples",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_RESAMPLES,
      description = "bootstrap resamples for the 95%% intervals (0: none)")
  int resamples;

  @Mixin ConfigFlags configFlags;

  private final Map<String, String> env;

  /**
   * A command reading the language-model tier's {@code FAULTLINE_LLM_*} settings from {@code env}.
   */
  public EvalCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * Runs the command with an empty environment; returns the process exit code (0 ok, 2 usage error,
   * 1 I/O or data error).
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(new EvalCommand(Map.of()), args, out, err);
  }

  /** What was classified: the gold records and the answers of the tier (and of the rules). */
  private static final class Run {
    List<JsonNode> gold;
    final Map<String, JsonNode> predictions = new HashMap<>();

    /** Empty when the predictions were read from a file. */
    final Map<String, JsonNode> rulesPredictions = new HashMap<>();

    final Map<String, Integer> fallbackReasons = new java.util.TreeMap<>();
    LlmClassifier llm;
    DefectClassifier learned;
    String version;
  }

  /** The agreement of the predictions with the gold labels, per field, and of the versions. */
  private static final class Tally {
    final Map<String, Agreement> agreements = new LinkedHashMap<>();
    int vTp;
    int vPred;
    int vGold;
    int kTp;
    int missing;
    final List<String> errors = new ArrayList<>();
  }

  @Override
  public Integer call() {
    String half = checkOptions();
    LlmOptions llmOptions;
    try {
      llmOptions = configFlags.forTier(tier, env);
    } catch (IllegalArgumentException e) {
      throw usageError(e.getMessage());
    }
    Run run;
    try {
      run = classify(half, llmOptions);
    } catch (IOException | IllegalStateException | java.io.UncheckedIOException e) {
      err.println("eval: " + e.getMessage());
      return 1;
    }
    Tally tally = tally(run);
    printAgreement(run, tally, half);
    printConfusion(out, tally.agreements.get("symptom"));
    if (!run.rulesPredictions.isEmpty() && run.learned != null) {
      printConfidence(run);
    }
    if (run.llm != null) {
      printLlm(out, run.llm, llmOptions, run.gold.size(), run.fallbackReasons);
    }
    if (!tally.errors.isEmpty()) {
      out.println();
      out.println("disagreements on " + errorField + ":");
      tally.errors.forEach(out::println);
    }
    return 0;
  }

  /** The options picocli cannot check; returns {@code --half} in lower case (null: all records). */
  private String checkOptions() {
    String half = this.half == null ? null : this.half.toLowerCase(Locale.ROOT);
    if (half != null && !half.equals("a") && !half.equals("b")) {
      throw usageError("--half must be a or b, not '" + this.half + "'");
    }
    if (resamples < 0) {
      throw usageError("--resamples must be a whole number >= 0, not '" + resamples + "'");
    }
    if (!Tiers.NAMES.contains(tier)) {
      throw usageError("--tier must be one of " + Tiers.NAMES + ", not '" + tier + "'");
    }
    return half;
  }

  /** Reads the gold records (of one half) and the predictions, from the file or classified now. */
  private Run classify(String half, LlmOptions llmOptions) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Run run = new Run();
    run.version = tier;
    run.gold = JsonLines.read(this.gold, json);
    if (half != null) {
      run.gold.removeIf(g -> inHalf(g.path("url").asText()) != half.charAt(0));
    }
    if (this.predictions != null) {
      for (JsonNode p : JsonLines.read(this.predictions, json)) {
        run.predictions.put(p.path("url").asText(), p);
      }
      return run;
    }
    ClassifierConfig config = configFlags.load();
    DefectClassifier classifier;
    try {
      classifier = Tiers.of(tier, config, modelFlag.model, llmOptions);
    } catch (IllegalArgumentException e) {
      throw usageError(e.getMessage());
    }
    run.llm = classifier instanceof LlmClassifier l ? l : null;
    DefectClassifier rules = Tiers.of("rules", config, null);
    run.version = classifier.version();
    if (classifier != rules && !"rules".equals(tier)) {
      run.learned = classifier;
    }
    for (JsonNode g : run.gold) {
      String url = g.path("url").asText();
      ObjectNode p = ClassifyCommand.output(json, classifier, run.llm, g);
      if (p.hasNonNull("fallback_reason")) {
        run.fallbackReasons.merge(reasonKind(p.get("fallback_reason").asText()), 1, Integer::sum);
      }
      run.predictions.put(url, p);
      run.rulesPredictions.put(
          url, Records.output(json, url, rules.classify(ThreadText.ofRecord(g))));
    }
    return run;
  }

  private Tally tally(Run run) {
    Tally tally = new Tally();
    TARGETS.keySet().forEach(f -> tally.agreements.put(f, new Agreement()));
    for (JsonNode g : run.gold) {
      String url = g.path("url").asText();
      JsonNode gl = g.path("gold");
      JsonNode p = run.predictions.get(url);
      if (p == null) {
        tally.missing++;
        continue;
      }
      for (String field : TARGETS.keySet()) {
        String gv = Records.value(gl, field);
        String pv = Records.value(p, field);
        tally.agreements.get(field).add(gv, pv);
        if (field.equals(errorField) && !gv.equals(pv)) {
          JsonNode ev = p.path("evidence").path(field);
          tally.errors.add(
              String.format(
                  Locale.ROOT, "%-60s gold=%-22s pred=%-22s %s", url, gv, pv, ev.asText()));
        }
      }
      tallyVersions(tally, url, Records.versions(gl), Records.versions(p));
    }
    return tally;
  }

  private void tallyVersions(
      Tally tally, String url, Map<String, String> gvs, Map<String, String> pvs) {
    tally.vGold += gvs.size();
    tally.vPred += pvs.size();
    for (Map.Entry<String, String> e : pvs.entrySet()) {
      if (e.getValue().equals(gvs.get(e.getKey()))) {
        tally.vTp++;
      }
      if (gvs.containsKey(e.getKey())) {
        tally.kTp++;
      }
    }
    if ("versions".equals(errorField) && !gvs.equals(pvs)) {
      tally.errors.add(String.format(Locale.ROOT, "%-60s gold=%s pred=%s", url, gvs, pvs));
    }
  }

  /** The agreement table: one row per field beside the annotators' figures, then the versions. */
  private void printAgreement(Run run, Tally tally, String half) {
    out.printf(
        Locale.ROOT,
        "faultline eval: %d gold records%s, %s%n",
        run.gold.size(),
        half == null ? "" : " (half " + half + ")",
        run.version);
    if (tally.missing > 0) {
      out.printf(
          Locale.ROOT,
          "WARNING: %d gold records have no prediction (counted nowhere)%n",
          tally.missing);
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "%-22s %5s %9s %9s %-13s %7s %-13s  %-20s %s%n",
        "dimension",
        "n",
        "accuracy",
        "macro-F1",
        resamples > 0 ? "  95% interval" : "",
        "kappa",
        resamples > 0 ? "  95% interval" : "",
        "annotators F1/kappa",
        "target");
    out.println("-".repeat(118));
    java.util.SplittableRandom random = new java.util.SplittableRandom(BOOTSTRAP_SEED);
    for (Map.Entry<String, Agreement> e : tally.agreements.entrySet()) {
      printAgreementRow(e.getKey(), e.getValue(), random);
    }
    printVersions(tally);
    out.println();
  }

  private void printAgreementRow(String field, Agreement ag, java.util.SplittableRandom random) {
    double[] t = TARGETS.get(field);
    double f1 = ag.macroF1();
    double kappa = ag.kappa();
    double[][] ci = resamples > 0 && ag.size() > 0 ? bootstrap(ag, resamples, random) : null;
    boolean met = f1 >= t[0] && (Double.isNaN(t[1]) || kappa >= t[1]);
    boolean reachable = ci != null && ci[0][1] >= t[0] && (Double.isNaN(t[1]) || ci[1][1] >= t[1]);
    out.printf(
        Locale.ROOT,
        "%-22s %5d %9.3f %9.3f %-13s %7s %-13s  %.2f / %-13s %s%n",
        field,
        ag.size(),
        ag.accuracy(),
        f1,
        interval(ci == null ? null : ci[0]),
        fmt(kappa),
        interval(ci == null ? null : ci[1]),
        t[0],
        Double.isNaN(t[1]) ? "-" : String.format(Locale.ROOT, "%.2f", t[1]),
        met ? "met" : reachable ? "below (target inside the interval)" : "below");
  }

  private void printVersions(Tally tally) {
    double p = tally.vPred == 0 ? Double.NaN : tally.vTp / (double) tally.vPred;
    double r = tally.vGold == 0 ? Double.NaN : tally.vTp / (double) tally.vGold;
    out.printf(
        Locale.ROOT,
        "%-22s %5d %9s %9s %-13s %7s %-13s  P %.2f R %.2f          %s%n",
        "versions (key=value)",
        tally.vGold,
        "",
        "",
        "",
        "",
        "",
        TARGET_VERSION_P,
        TARGET_VERSION_R,
        p >= TARGET_VERSION_P && r >= TARGET_VERSION_R ? "met" : "below");
    out.printf(
        Locale.ROOT,
        "    precision %.3f (%d/%d)  recall %.3f (%d/%d)  key-only P %.3f R %.3f%n",
        p,
        tally.vTp,
        tally.vPred,
        r,
        tally.vTp,
        tally.vGold,
        tally.vPred == 0 ? Double.NaN : tally.kTp / (double) tally.vPred,
        tally.vGold == 0 ? Double.NaN : tally.kTp / (double) tally.vGold);
  }

  /**
   * Per dimension, the rules alone beside the tier on the same records (accuracy of the most
   * confident answers, ECE, macro-F1), then the learned layer's cross-validated report.
   */
  private void printConfidence(Run run) {
    out.println();
    out.println(
        "Confidence: accuracy of the 30/50/70% most confident answers and of all, expected calibration"
            + " error (ECE, 10 bins),");
    out.println(
        "macro-F1"
            + (resamples > 0 ? " with its 95% bootstrap interval" : "")
            + "; rules alone beside the learned layer, same records:");
    out.println(Figures.header(resamples > 0));
    for (Target t : Target.values()) {
      List<String> g = new ArrayList<>();
      List<String> rp = new ArrayList<>();
      List<Double> rc = new ArrayList<>();
      List<String> lp = new ArrayList<>();
      List<Double> lc = new ArrayList<>();
      for (JsonNode gr : run.gold) {
        String url = gr.path("url").asText();
        g.add(Records.value(gr.path("gold"), t.field));
        rp.add(Records.value(run.rulesPredictions.get(url), t.field));
        rc.add(run.rulesPredictions.get(url).path("confidence").path(t.field).asDouble());
        lp.add(Records.value(run.predictions.get(url), t.field));
        lc.add(run.predictions.get(url).path("confidence").path(t.field).asDouble());
      }
      out.println(
          Figures.of(g, rp, rc, Math.min(resamples, 1000), BOOTSTRAP_SEED).row(t.field, "rules"));
      out.println(
          Figures.of(g, lp, lc, Math.min(resamples, 1000), BOOTSTRAP_SEED).row(t.field, tier));
    }
    if (run.learned instanceof LearnedClassifier lcl) {
      CvReport.print(lcl.model().report(), out);
    }
  }

  /**
   * What the language-model tier cost: requests, tokens, cache hits, fallbacks by reason, per 1,000
   * items.
   */
  private static void printLlm(
      PrintStream out,
      LlmClassifier llm,
      LlmOptions options,
      int items,
      Map<String, Integer> fallbackReasons) {
    LlmStats s = llm.stats();
    LlmConfig c = options.config();
    double per1k = items == 0 ? Double.NaN : 1000.0 / items;
    out.println();
    out.printf(
        Locale.ROOT,
        "language-model tier %s (%s):%n",
        llm.version(),
        c.endpointConfigured() ? "endpoint " + c.endpoint() : "cached answers only, no endpoint");
    out.printf(
        Locale.ROOT,
        "  items %d: %d answered by the model (%d from the cache), %d kept the learned tier's"
            + " labels%n",
        items,
        s.answered(),
        s.cacheHits(),
        s.fallbacks());
    fallbackReasons.forEach((r, n) -> out.printf(Locale.ROOT, "    %5d  %s%n", n, r));
    out.printf(
        Locale.ROOT,
        "  requests %d (%d retries, %d failed), tokens %d prompt + %d completion, mean latency"
            + " %s ms%n",
        s.requests(),
        s.retries(),
        s.failures(),
        s.promptTokens(),
        s.completionTokens(),
        Double.isNaN(s.meanLatencyMillis())
            ? "-"
            : String.format(Locale.ROOT, "%.0f", s.meanLatencyMillis()));
    double cost = c.cost(s.promptTokens(), s.completionTokens());
    out.printf(
        Locale.ROOT,
        "  per 1,000 items: %.0f requests, %.0f prompt + %.0f completion tokens, cost %.4f"
            + " (at %s per 1k prompt and %s per 1k completion tokens; FAULTLINE_LLM_PRICE_*_PER_1K)%n",
        s.requests() * per1k,
        s.promptTokens() * per1k,
        s.completionTokens() * per1k,
        cost * per1k,
        c.priceInputPer1k(),
        c.priceOutputPer1k());
  }

  /** A reason as counted in a summary: at most 100 characters. */
  static String reasonKind(String reason) {
    return reason.length() > 100 ? reason.substring(0, 100) + "…" : reason;
  }

  /**
   * Percentile bootstrap over records: 2.5% and 97.5% quantiles of macro-F1 ({@code [0]}) and kappa
   * ({@code [1]}) over {@code n} resamples of the same size drawn with replacement. Shows how far a
   * figure on a few hundred issues can move by the choice of issues alone.
   */
  static double[][] bootstrap(Agreement ag, int n, java.util.SplittableRandom random) {
    double[] f1 = new double[n];
    double[] kappa = new double[n];
    int[] idx = new int[ag.size()];
    for (int r = 0; r < n; r++) {
      for (int i = 0; i < idx.length; i++) {
        idx[i] = random.nextInt(idx.length);
      }
      Agreement sample = ag.resample(idx);
      f1[r] = sample.macroF1();
      kappa[r] = sample.kappa();
    }
    return new double[][] {quantiles(f1), quantiles(kappa)};
  }

  private static double[] quantiles(double[] values) {
    double[] v = java.util.Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
    if (v.length == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    return new double[] {
      v[(int) Math.floor(0.025 * (v.length - 1))], v[(int) Math.ceil(0.975 * (v.length - 1))]
    };
  }

  private static String interval(double[] ci) {
    if (ci == null || Double.isNaN(ci[0])) {
      return "";
    }
    return String.format(Locale.ROOT, "[%.2f, %.2f]", ci[0], ci[1]);
  }

  /** The fixed half of a record: 'a' when its url's {@link String#hashCode()} is even, else 'b'. */
  static char inHalf(String url) {
    return (url.hashCode() & 1) == 0 ? 'a' : 'b';
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static void printConfusion(PrintStream out, Agreement symptom) {
    Map<String, Map<String, Integer>> m = symptom.confusion();
    Set<String> cols = new TreeSet<>(symptom.classes());
    List<String> colList = new ArrayList<>(cols);
    out.println("symptom confusion (rows gold, columns predicted):");
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-36s", ""));
    for (int i = 0; i < colList.size(); i++) {
      head.append(String.format(Locale.ROOT, "%4s", abbrev(colList.get(i))));
    }
    out.println(head);
    for (String row : colList) {
      Map<String, Integer> r = m.getOrDefault(row, Map.of());
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "%-31s %4s", row, abbrev(row)));
      for (String c : colList) {
        int v = r.getOrDefault(c, 0);
        line.append(String.format(Locale.ROOT, "%4s", v == 0 ? "." : Integer.toString(v)));
      }
      out.println(line);
    }
  }

  /** Short column names: initials of the words, e.g. OUT_OF_MEMORY -> OOM. */
  private static String abbrev(String code) {
    StringBuilder b = new StringBuilder();
    for (String w : code.split("_")) {
      if (!w.isEmpty()) {
        b.append(w.charAt(0));
      }
    }
    String s = b.toString();
    return s.length() == 1 ? code.substring(0, Math.min(3, code.length())) : s;
  }
}
