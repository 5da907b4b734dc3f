package dev.faultline.estimate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.estimate.Codes;
import dev.faultline.estimate.TrainingPrior;
import dev.faultline.estimate.group.GroupedEstimator;
import dev.faultline.estimate.group.Row;
import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Why the product path's share error without a sample (docs/estimates.md, "The product's own path")
 * differs from dev.jsonl scored on the classifier's own output (PriorShiftBenchmark): a diagnostic
 * main class, not a test; it prints Markdown and asserts nothing.
 *
 * <p>It takes dev.jsonl's issues in the order and split {@code ProductPathBenchmark} gives them
 * (the same seeded shuffle; the first {@code 154 - held} are the year scope of its "learned" phase)
 * and classifies each twice with the shipped learned classifier: <b>thread</b>, the record parsed
 * into opening post and comments as {@code faultline classify} and PriorShiftBenchmark read it;
 * <b>opened</b>, the issue as the benchmark's "opened" webhook delivers it (the record's whole text
 * as the body, no comments, state open). With {@code --graph} (the file {@code ProductPathBenchmark
 * --dump} writes) a third set, the distributions the graph holds. Each set is scored with two
 * estimators: PriorShiftBenchmark's (the symptom's stored joint, the stage P(bug) × P(stage), EM at
 * α = 2n from 80 expected bug reports) and the product's own ({@link ItemModel} and {@link
 * GroupedEstimator}, as {@code category-shares} runs them). The spread of the score over random
 * subsets of the same size shows how much one scope's figure can move by chance.
 */
public final class ProductScopeCheck {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SYM = PriorShiftBenchmark.SYM;
  private static final List<String> STG = PriorShiftBenchmark.STG;
  private static final List<String> KIND = Dimension.KIND.distributionCodes();

  /** One issue: its id, gold labels and per set of distributions its row for the estimators. */
  record Issue(
      String id, boolean bug, int symptom, int stage, Map<String, Map<String, Object>> sets) {}

  private ProductScopeCheck() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--dev", "../shared/eval/dev.jsonl");
    opt.put("--seed", "31");
    opt.put("--held", "32");
    opt.put("--graph", "");
    opt.put("--subsets", "1000");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!opt.containsKey(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + " (" + opt.keySet() + ")");
      }
      opt.put(args[i], args[i + 1]);
    }
    List<Issue> all = issues(Path.of(opt.get("--dev")), Long.parseLong(opt.get("--seed")));
    if (!opt.get("--graph").isEmpty()) {
      addGraph(all, Path.of(opt.get("--graph")));
    }
    List<Issue> year = all.subList(0, all.size() - Integer.parseInt(opt.get("--held")));
    StringBuilder md = new StringBuilder();
    scores(md, year, all);
    compare(md, year);
    spread(md, all, year.size(), Integer.parseInt(opt.get("--subsets")));
    System.out.println(md);
  }

  /** dev.jsonl's issues in ProductPathBenchmark.readGold's order, classified both ways. */
  static List<Issue> issues(Path dev, long seed) throws Exception {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(dev, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        JsonNode r = JSON.readTree(line);
        if (r.path("url").asText().contains("/issues/")) {
          records.add(r);
        }
      }
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<JsonNode> shuffled = new ArrayList<>();
    for (int i = records.size() - 1; i >= 0; i--) {
      shuffled.add(records.remove(rnd.nextInt(i + 1)));
    }
    LearnedClassifier c = LearnedClassifier.shared();
    List<Issue> out = new ArrayList<>();
    for (JsonNode r : shuffled) {
      JsonNode g = r.path("gold");
      Map<String, Map<String, Object>> sets = new LinkedHashMap<>();
      sets.put("thread", row(c.classify(ThreadText.ofRecord(r), ChangeDetails.NONE)));
      sets.put("opened", row(c.classify(opened(r), ChangeDetails.NONE)));
      out.add(
          new Issue(
              (r.path("repo").asText() + "#" + r.path("number").asInt()).toLowerCase(Locale.ROOT),
              "BUG".equals(g.path("kind").asText()),
              SYM.indexOf(g.path("symptom").asText()),
              STG.indexOf(g.path("stage").asText()),
              sets));
    }
    return out;
  }

  /** The issue as ProductPathBenchmark's "opened" webhook gives it to the pipeline. */
  static IssueText opened(JsonNode r) {
    List<String> labels = new ArrayList<>();
    r.path("labels").forEach(l -> labels.add(l.asText()));
    return new IssueText(
        r.path("repo").asText(),
        r.path("number").asInt(),
        r.path("title").asText(),
        r.path("text").asText(),
        labels,
        List.of(),
        List.of(),
        "open");
  }

  /** A category-shares statement row's kind columns and distributions, as the graph stores them. */
  static Map<String, Object> row(Classification k) {
    Map<String, Object> m = new HashMap<>();
    m.put("kind", String.valueOf(k.label(Dimension.KIND).value()));
    m.put("kindP", Distributions.aligned(Dimension.KIND, k.label(Dimension.KIND)));
    m.put("kindCalibration", "cv:direct");
    m.put("symptomP", Distributions.aligned(Dimension.SYMPTOM, k.label(Dimension.SYMPTOM)));
    m.put("symptomCalibration", "cv:direct");
    m.put("stageP", Distributions.aligned(Dimension.STAGE, k.label(Dimension.STAGE)));
    m.put("stageCalibration", "cv:direct");
    return m;
  }

  private static void addGraph(List<Issue> all, Path dump) throws Exception {
    Map<String, Map<String, Object>> byId = new HashMap<>();
    for (String line : Files.readAllLines(dump, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = JSON.readValue(line, Map.class);
        Map<String, Object> r = new HashMap<>();
        r.put("kind", m.get("kind"));
        r.put("kindP", m.get("kindP"));
        r.put("kindCalibration", m.get("kindCal"));
        r.put("symptomP", m.get("symptomP"));
        r.put("symptomCalibration", m.get("symptomCal"));
        r.put("stageP", m.get("stageP"));
        r.put("stageCalibration", m.get("stageCal"));
        byId.put(String.valueOf(m.get("id")).toLowerCase(Locale.ROOT), r);
      }
    }
    for (Issue i : all) {
      Map<String, Object> r = byId.get(i.id());
      if (r != null) {
        i.sets().put("graph", r);
      }
    }
  }

  // ---- the estimators ----

  /**
   * Symptom and stage share error of one set of one scope: {bench symptom, stage, product symptom,
   * stage}.
   */
  static double[] errors(List<Issue> scope, String set) {
    double[][] truth = PriorShiftBenchmark.truth(benchItems(scope, set));
    Map<String, double[][]> e = benchEstimates(scope, set);
    double[] out = new double[4];
    out[0] = ShareErrorBenchmark.tvd(PriorShiftBenchmark.SYM_CODES, truth[0], e.get("chosen")[0]);
    out[1] = ShareErrorBenchmark.tvd(PriorShiftBenchmark.STG_CODES, truth[1], e.get("chosen")[1]);
    out[2] = productError(scope, set, Dimension.SYMPTOM, truth[0], PriorShiftBenchmark.SYM_CODES);
    out[3] = productError(scope, set, Dimension.STAGE, truth[1], PriorShiftBenchmark.STG_CODES);
    return out;
  }

  private static List<PriorShiftBenchmark.Item> benchItems(List<Issue> scope, String set) {
    List<PriorShiftBenchmark.Item> out = new ArrayList<>();
    for (Issue i : scope) {
      Map<String, Object> r = i.sets().get(set);
      double[] kind = normalised(r.get("kindP"));
      out.add(
          new PriorShiftBenchmark.Item(
              i.id(),
              false,
              -1,
              i.bug(),
              i.symptom(),
              i.stage(),
              kind[KIND.indexOf("BUG")],
              normalised(r.get("symptomP")),
              normalised(r.get("stageP"))));
    }
    return out;
  }

  /** PriorShiftBenchmark's estimate with its rule (EM α = 2n for the symptom from 80 expected). */
  private static Map<String, double[][]> benchEstimates(List<Issue> scope, String set) {
    List<PriorShiftBenchmark.Item> items = benchItems(scope, set);
    TrainingPrior t = TrainingPrior.bundled();
    PriorShiftBenchmark.Prior prior =
        new PriorShiftBenchmark.Prior(
            t.of("symptom", SYM).orElseThrow(), t.of("stage", STG).orElseThrow());
    Map<String, double[][]> e = PriorShiftBenchmark.estimates(items, prior);
    double expected = 0;
    for (PriorShiftBenchmark.Item i : items) {
      expected += 1 - i.sym()[SYM.indexOf("NONE")];
    }
    double[][] pcc = e.get("pcc");
    double[][] em = e.get(PriorShiftBenchmark.method(2));
    e.put("chosen", new double[][] {expected >= 80 ? em[0] : pcc[0], pcc[1]});
    return e;
  }

  /**
   * category-shares' estimator (ItemModel, GroupedEstimator) on the set's rows: its share error.
   */
  static double productError(
      List<Issue> scope, String set, Dimension d, double[] truth, Codes codes) {
    double[] s = productShares(scope, set, d);
    return ShareErrorBenchmark.tvd(codes, truth, s);
  }

  static double[] productShares(List<Issue> scope, String set, Dimension d) {
    ItemModel model = ItemModel.of(Field.primary(d));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Issue i : scope) {
      Map<String, Object> r = i.sets().get(set);
      Map<String, Object> row = new HashMap<>();
      row.put("id", i.id());
      row.put("kind", r.get("kind"));
      row.put("kindP", r.get("kindP"));
      row.put("kindCalibration", r.get("kindCalibration"));
      row.put("p", r.get(d.key() + "P"));
      row.put("calibration", r.get(d.key() + "Calibration"));
      rows.add(row);
    }
    List<Item> items = model.items(rows);
    List<List<Object>> groups = new ArrayList<>();
    items.forEach(x -> groups.add(List.of()));
    List<Row> out = GroupedEstimator.estimate(items, groups, GroupedEstimator.Spec.of(d, "BUG"));
    double[] s = new double[out.size()];
    for (int k = 0; k < s.length; k++) {
      s[k] = out.get(k).share();
    }
    lastMethod.put(d.key(), out.get(0).method());
    return s;
  }

  static final Map<String, String> lastMethod = new HashMap<>();

  private static double[] normalised(Object list) {
    List<?> l = (List<?>) list;
    double[] p = new double[l.size()];
    double sum = 0;
    for (int k = 0; k < p.length; k++) {
      p[k] = ((Number) l.get(k)).doubleValue();
      sum += p[k];
    }
    for (int k = 0; k < p.length; k++) {
      p[k] /= sum;
    }
    return p;
  }

  // ---- the report ----

  private static List<String> sets(List<Issue> scope) {
    List<String> s = new ArrayList<>(List.of("thread", "opened"));
    if (scope.stream().allMatch(i -> i.sets().containsKey("graph"))) {
      s.add("graph");
    }
    return s;
  }

  private static void scores(StringBuilder md, List<Issue> year, List<Issue> all) {
    md.append("## Share error (TV over known codes) without a sample\n\n")
        .append(
            "| scope | issues | gold bug reports | distributions | PriorShiftBenchmark's estimator")
        .append(" symptom / stage | category-shares' estimator symptom / stage | its methods |\n")
        .append("|---|---|---|---|---|---|---|\n");
    for (List<Issue> scope : List.of(year, all)) {
      for (String set : sets(scope)) {
        double[] e = errors(scope, set);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %d | %s | %.3f / %.3f | %.3f / %.3f | %s / %s |%n",
                scope == year ? "year (first " + year.size() + ")" : "all",
                scope.size(),
                scope.stream().filter(Issue::bug).count(),
                set,
                e[0],
                e[1],
                e[2],
                e[3],
                lastMethod.get("symptom"),
                lastMethod.get("stage")));
      }
    }
  }

  /** Per issue, how far two sets' distributions are apart. */
  private static void compare(StringBuilder md, List<Issue> year) {
    md.append("\n## Per issue (year scope): how far the distributions of two sets are apart\n\n")
        .append("| sets | mean abs. diff. P(bug) (kind) | mean TV symptom | mean TV stage |")
        .append(
            " same top symptom | mean abs. (1 - P(NONE) of the symptom) - P(bug) of the first set |\n")
        .append("|---|---|---|---|---|---|\n");
    List<String> s = sets(year);
    for (int a = 0; a < s.size(); a++) {
      for (int b = a + 1; b < s.size(); b++) {
        double[] sum = new double[5];
        for (Issue i : year) {
          double[] d = diff(i.sets().get(s.get(a)), i.sets().get(s.get(b)));
          for (int k = 0; k < 5; k++) {
            sum[k] += d[k];
          }
        }
        int n = year.size();
        md.append(
            String.format(
                Locale.ROOT,
                "| %s vs %s | %.4f | %.4f | %.4f | %.2f | %.4f |%n",
                s.get(a),
                s.get(b),
                sum[0] / n,
                sum[1] / n,
                sum[2] / n,
                sum[3] / n,
                sum[4] / n));
      }
    }
  }

  private static double[] diff(Map<String, Object> x, Map<String, Object> y) {
    int bug = KIND.indexOf("BUG");
    double[] kx = normalised(x.get("kindP"));
    double[] ky = normalised(y.get("kindP"));
    double[] sx = normalised(x.get("symptomP"));
    double[] sy = normalised(y.get("symptomP"));
    double[] tx = normalised(x.get("stageP"));
    double[] ty = normalised(y.get("stageP"));
    double impliedBug = 1 - sx[SYM.indexOf("NONE")];
    return new double[] {
      Math.abs(kx[bug] - ky[bug]),
      tv(sx, sy),
      tv(tx, ty),
      argmax(sx) == argmax(sy) ? 1 : 0,
      Math.abs(impliedBug - kx[bug])
    };
  }

  private static double tv(double[] a, double[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d += Math.abs(a[k] - b[k]);
    }
    return d / 2;
  }

  private static int argmax(double[] p) {
    int m = 0;
    for (int k = 1; k < p.length; k++) {
      if (p[k] > p[m]) {
        m = k;
      }
    }
    return m;
  }

  /** The score of random subsets of {@code size} of all issues (without replacement). */
  private static void spread(StringBuilder md, List<Issue> all, int size, int subsets) {
    md.append(
            String.format(
                Locale.ROOT,
                "%n## Spread over %d random subsets of %d of the %d issues (category-shares' estimator)%n%n",
                subsets,
                size,
                all.size()))
        .append(
            "| distributions | dimension | mean | sd | 5% | 50% | 95% | the year scope's rank |\n")
        .append("|---|---|---|---|---|---|---|---|\n");
    List<Issue> year = all.subList(0, size);
    for (String set : sets(all)) {
      double[][] e = new double[2][subsets];
      SplittableRandom r = new SplittableRandom(20261129);
      for (int k = 0; k < subsets; k++) {
        List<Issue> pool = new ArrayList<>(all);
        List<Issue> pick = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          pick.add(pool.remove(r.nextInt(pool.size())));
        }
        double[] x = errors(pick, set);
        e[0][k] = x[2];
        e[1][k] = x[3];
      }
      double[] y = errors(year, set);
      for (int d = 0; d < 2; d++) {
        md.append(quantiles(set, d == 0 ? "symptom" : "stage", e[d], y[2 + d]));
      }
    }
  }

  private static String quantiles(String set, String dim, double[] v, double year) {
    double[] s = v.clone();
    Arrays.sort(s);
    double mean = Arrays.stream(s).average().orElse(Double.NaN);
    double var = Arrays.stream(s).map(x -> (x - mean) * (x - mean)).sum() / (s.length - 1);
    long below = Arrays.stream(s).filter(x -> x < year).count();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f (%.0f%% of subsets lower) |%n",
        set,
        dim,
        mean,
        Math.sqrt(var),
        s[(int) (0.05 * (s.length - 1))],
        s[(s.length - 1) / 2],
        s[(int) (0.95 * (s.length - 1))],
        year,
        100.0 * below / s.length);
  }
}
