package dev.faultline.estimate.bench;

import dev.faultline.estimate.group.GroupedEstimator;
import dev.faultline.estimate.group.ModelError;
import dev.faultline.estimate.group.Row;
import dev.faultline.estimate.item.Field;
import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether the grouped estimator's count intervals need a model-error term beyond the per-item
 * (Poisson-binomial) uncertainty, and how large it is (issue #31): on held-out folds of the
 * training corpus ({@link OutOfFold}), small scopes like a framework's month of bug reports are cut
 * (per fold, per repository, issues and changes apart, {@value #CELL} items consecutive in time),
 * and per dimension and code the true count of bug reports with the code is compared with the
 * expected count. On the selection folds ({@code --select}, default 0 and 1) τ of each code is
 * measured by the method of moments (τ² = Σ(e² − V) / ΣW², e the count's error, V its
 * Poisson-binomial variance, W the expected bug reports of the scope; the dimension's default is
 * the same pooled over its codes, and its known codes together give {@code *known}). On the
 * reporting folds the intervals' coverage of the true count and share is reported with and without
 * the term. Prints Markdown, writes the τ table ({@code --table}); asserts nothing.
 */
public final class ModelErrorBenchmark {
  static final int CELL = 12;
  static final List<Dimension> DIMENSIONS =
      List.of(
          Dimension.SYMPTOM,
          Dimension.SYMPTOM_CLASS,
          Dimension.STAGE,
          Dimension.ROOT_CAUSE,
          Dimension.FIX_PATTERN,
          Dimension.PHASE,
          Dimension.DISTRIBUTED_SPECIFIC);
  private static final Taxonomy TAXONOMY = Taxonomy.load();
  private static final Set<String> NOT_KNOWN = Set.of("UNKNOWN", "NONE", "null");

  /** A scope: its items and their gold codes. */
  record Scope(String key, int fold, List<OutOfFold.Held> items) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--data", "../shared/train");
    opt.put("--folds", "5");
    opt.put("--seed", "20261125");
    opt.put("--select", "0,1");
    opt.put("--cache", ".faultline/train-cache");
    opt.put("--oof", "target/out-of-fold.jsonl");
    opt.put("--output", "target/model-error.md");
    opt.put("--table", "target/model-error.properties");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!opt.containsKey(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + " " + opt.keySet());
      }
      opt.put(args[i], args[i + 1]);
    }
    List<OutOfFold.Held> held =
        OutOfFold.load(
            Path.of(opt.get("--oof")),
            Path.of(opt.get("--data")),
            Integer.parseInt(opt.get("--folds")),
            Long.parseLong(opt.get("--seed")),
            Path.of(opt.get("--cache")));
    Set<Integer> select = new TreeSet<>();
    for (String s : opt.get("--select").split(",")) {
      select.add(Integer.parseInt(s.strip()));
    }
    List<Scope> scopes = scopes(held);
    List<Scope> selection = scopes.stream().filter(s -> select.contains(s.fold())).toList();
    List<Scope> reporting = scopes.stream().filter(s -> !select.contains(s.fold())).toList();
    StringBuilder md = new StringBuilder();
    Map<String, Double> tau = measure(selection, md);
    ModelError table = new ModelError(tau, "out-of-fold, training corpus folds " + select);
    md.append("\n## Coverage of the 90% intervals\n\n");
    md.append(
        "| folds | model error | count: true 0 | 1–2 | ≥ 3 | all cells | share (estimated) |"
            + " cells | shares |\n|---|---|---|---|---|---|---|---|---|\n");
    for (boolean sel : List.of(true, false)) {
      List<Scope> on = sel ? selection : reporting;
      for (ModelError e : List.of(ModelError.NONE, table)) {
        md.append(coverage(on, e, sel ? "selection " + select : "reporting"));
      }
    }
    md.append(symptomMonths(reporting, table));
    String out = md.toString();
    System.out.println(out);
    Files.createDirectories(Path.of(opt.get("--output")).toAbsolutePath().getParent());
    Files.writeString(Path.of(opt.get("--output")), out, StandardCharsets.UTF_8);
    StringBuilder props = new StringBuilder();
    props.append("# τ of each code (per-item calibration error shared by a scope), measured by\n");
    props.append(
        "# estimate/.../bench/ModelErrorBenchmark on the training corpus's selection folds\n");
    props.append("source=" + table.source() + "\n");
    new TreeMap<>(tau)
        .forEach((k, v) -> props.append(String.format(Locale.ROOT, "%s=%.5f%n", k, v)));
    Files.writeString(Path.of(opt.get("--table")), props.toString(), StandardCharsets.UTF_8);
  }

  /** Per fold, repository and kind of item: runs of {@value #CELL} consecutive items. */
  static List<Scope> scopes(List<OutOfFold.Held> held) {
    Map<String, List<OutOfFold.Held>> byRun = new TreeMap<>();
    for (OutOfFold.Held h : held) {
      byRun
          .computeIfAbsent(h.fold() + "|" + h.repo() + "|" + h.change(), k -> new ArrayList<>())
          .add(h);
    }
    List<Scope> out = new ArrayList<>();
    byRun.forEach(
        (key, items) -> {
          items.sort(
              Comparator.comparingLong(OutOfFold.Held::order).thenComparing(OutOfFold.Held::id));
          int fold = items.get(0).fold();
          int cells = Math.max(1, Math.round(items.size() / (float) CELL));
          for (int c = 0; c < cells; c++) {
            int from = c * items.size() / cells;
            int to = (c + 1) * items.size() / cells;
            out.add(new Scope(key + "|" + c, fold, items.subList(from, to)));
          }
        });
    return out;
  }

  /** A held-out item as the statement row of a grouped query over dimension d. */
  static Map<String, Object> row(OutOfFold.Held h, Dimension d) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", h.id());
    m.put("kind", null);
    m.put("kindP", h.p().get("kind"));
    m.put("kindCalibration", "cv:out-of-fold");
    Dimension label = d.labelDimension();
    m.put("top", null);
    m.put("p", h.p().get(label.key()));
    m.put("calibration", "cv:out-of-fold");
    m.put("humanGiven", List.of());
    return m;
  }

  /** The gold code of dimension d of a bug report (null for other kinds). */
  static String gold(OutOfFold.Held h, Dimension d) {
    if (!"BUG".equals(h.gold().get("kind"))) {
      return null;
    }
    if (d == Dimension.SYMPTOM_CLASS) {
      String s = h.gold().get("symptom");
      return NOT_KNOWN.contains(s) ? s : TAXONOMY.symptomClassOf(s).orElse("UNKNOWN");
    }
    return h.gold().get(d.key());
  }

  /** τ² by moments per code and pooled, on the given scopes; the table and a Markdown section. */
  static Map<String, Double> measure(List<Scope> scopes, StringBuilder md) {
    Map<String, Double> tau = new TreeMap<>();
    md.append("## Calibration error τ measured on the selection folds\n\n");
    md.append(
        "| dimension | τ pooled | τ known | codes with τ > 0 | scopes |\n|---|---|---|---|---|\n");
    for (Dimension d : DIMENSIONS) {
      List<String> codes = d.distributionCodes();
      double[] num = new double[codes.size() + 1];
      double den = 0;
      ItemModel model = ItemModel.of(Field.primary(d));
      for (Scope s : scopes) {
        double w = 0;
        double[] e = new double[codes.size() + 1];
        double[] v = new double[codes.size() + 1];
        for (OutOfFold.Held h : s.items()) {
          Item item = model.item(row(h, d));
          double[] q = item.counted(0, "BUG");
          String g = gold(h, d);
          w += item.kind("BUG");
          double qk = 0;
          for (int k = 0; k < codes.size(); k++) {
            e[k] += (codes.get(k).equals(g) ? 1 : 0) - q[k];
            v[k] += q[k] * (1 - q[k]);
            qk += NOT_KNOWN.contains(codes.get(k)) ? 0 : q[k];
          }
          e[codes.size()] += (g != null && !NOT_KNOWN.contains(g) ? 1 : 0) - qk;
          v[codes.size()] += qk * (1 - qk);
        }
        for (int k = 0; k <= codes.size(); k++) {
          num[k] += e[k] * e[k] - v[k];
        }
        den += w * w;
      }
      double pooled = 0;
      int positive = 0;
      for (int k = 0; k < codes.size(); k++) {
        double t2 = Math.max(0, num[k] / den);
        if (!NOT_KNOWN.contains(codes.get(k))) {
          tau.put(d.key() + "." + codes.get(k), Math.sqrt(t2));
          pooled += num[k];
          positive += t2 > 0 ? 1 : 0;
        }
      }
      double known = Math.sqrt(Math.max(0, num[codes.size()] / den));
      double pooledTau = Math.sqrt(Math.max(0, pooled / (den * codes.size())));
      tau.put(d.key() + "." + ModelError.KNOWN, known);
      tau.put(d.key() + "." + ModelError.DEFAULT, pooledTau);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.4f | %.4f | %d of %d | %d |%n",
              d.key(),
              pooledTau,
              known,
              positive,
              codes.size() - 2,
              scopes.size()));
    }
    return tau;
  }

  /** Coverage of the count and share intervals over scopes × codes, by the true count. */
  static String coverage(List<Scope> scopes, ModelError error, String folds) {
    long[] hits = new long[4];
    long[] total = new long[4];
    long shareHits = 0;
    long shares = 0;
    for (Dimension d : DIMENSIONS) {
      ItemModel model = ItemModel.of(Field.primary(d));
      GroupedEstimator.Spec spec =
          new GroupedEstimator.Spec(d, null, "BUG", GroupedEstimator.Mode.ESTIMATE, error);
      for (Scope s : scopes) {
        List<Item> items = new ArrayList<>();
        List<List<Object>> groups = new ArrayList<>();
        Map<String, Integer> truth = new LinkedHashMap<>();
        int known = 0;
        for (OutOfFold.Held h : s.items()) {
          items.add(model.item(row(h, d)));
          groups.add(List.of());
          String g = gold(h, d);
          if (g != null) {
            truth.merge(g, 1, Integer::sum);
            known += NOT_KNOWN.contains(g) ? 0 : 1;
          }
        }
        for (Row r : GroupedEstimator.estimate(items, groups, spec)) {
          if (NOT_KNOWN.contains(r.code())) {
            continue;
          }
          int n = truth.getOrDefault(r.code(), 0);
          int band = n == 0 ? 0 : n <= 2 ? 1 : 2;
          boolean hit = r.countCovers(n);
          hits[band] += hit ? 1 : 0;
          total[band]++;
          hits[3] += hit ? 1 : 0;
          total[3]++;
          if (!Double.isNaN(r.share()) && known > 0) {
            shares++;
            shareHits += r.shareCovers(n / (double) known) ? 1 : 0;
          }
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s | %s | %d | %d |%n",
        folds,
        error.any() ? "τ per code" : "none",
        pct(hits[0], total[0]),
        pct(hits[1], total[1]),
        pct(hits[2], total[2]),
        pct(hits[3], total[3]),
        pct(shareHits, shares),
        total[3],
        shares);
  }

  /** The figure: symptom counts of bug reports per scope ("month"), zero cells included. */
  static String symptomMonths(List<Scope> scopes, ModelError error) {
    StringBuilder b = new StringBuilder("\n## Symptom × scope cells on the reporting folds\n\n");
    for (ModelError e : List.of(ModelError.NONE, error)) {
      String line = coverage(scopes, e, "reporting").replace("| reporting |", "|");
      b.append(e.any() ? "with τ: " : "without: ").append(line);
    }
    return b.toString();
  }

  private static String pct(long hits, long total) {
    return total == 0 ? "–" : String.format(Locale.ROOT, "%.3f (%d)", hits / (double) total, total);
  }
}
