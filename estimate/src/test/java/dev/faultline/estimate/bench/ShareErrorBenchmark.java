package dev.faultline.estimate.bench;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.evaluation.Metrics;
import dev.faultline.classifier.learned.CachedEmbedder;
import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.classifier.training.CrossValidation;
import dev.faultline.classifier.training.Trainer;
import dev.faultline.estimate.ClassifyAndCount;
import dev.faultline.estimate.Codes;
import dev.faultline.estimate.Estimate;
import dev.faultline.estimate.PredictionPowered;
import dev.faultline.estimate.PredictionPowered.Interval;
import dev.faultline.estimate.PredictionPowered.Tuning;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * How far the share estimates are from the truth on held-out folds of the training corpus, and how
 * often their intervals cover it (issue #25). A benchmark, not a test: it prints Markdown tables
 * (and writes them to {@code --output}); nothing is asserted.
 *
 * <p>Folds are the learned layer's own ({@link CrossValidation#fold}, grouped by issue, the
 * training command's seed); each fold's model is trained on the other folds with the project's
 * {@link Trainer} (calibration and thresholds from a held-back quarter of those folds). The scope
 * is a fold's bug reports (gold kind BUG); per dimension (symptom, stage, distributed-specific) the
 * shares among known codes (UNKNOWN, NONE and "cannot tell" left out on both sides) are estimated
 * by: counting the labels above the dimension's 90%-precision bar (the bar computed, as the
 * training command does, from out-of-fold answers, here those of the <em>other</em> folds only);
 * counting every label as the classifier gives it (abstentions are UNKNOWN, so left out); summing
 * the calibrated probabilities (PCC); and, with uniformly random validation samples of 40, 80 and
 * 160 of the fold's bug reports ({@code --draws} each), PPI, PPI++ and the sample alone, each with
 * the intervals of {@link PredictionPowered}.
 *
 * <p>Choices (which tuning, which interval) are made on the selection folds ({@code --select},
 * default 0 and 1) by a rule fixed in this code; the tables of results are over the other folds
 * only. Run from the repository root (see docs/estimates.md for the command).
 */
public final class ShareErrorBenchmark {

  static final Target[] DIMENSIONS = {
    Target.SYMPTOM, Target.of(Dimension.STAGE), Target.of(Dimension.DISTRIBUTED_SPECIFIC)
  };

  /** Seeds the draws of each dimension (kept from the first version, so figures reproduce). */
  static final int[] DRAW_SALT = {1, 4, 6};

  static final int[] SIZES = {40, 80, 160};
  static final double LEVEL = 0.9;
  static final double[] BANDS = {0.05, 0.15};
  static final String[] BAND_NAMES = {"< 5%", "5–15%", "≥ 15%"};

  /** One held-out item: its gold labels, the model's distributions and answers. */
  record Held(Example example, Map<Target, double[]> p, Map<Target, Decision.Answer> answers) {}

  /** Per tuning/interval, coverage counts per band and widths. */
  static final class Tally {
    final long[] hits = new long[3];
    final long[] total = new long[3];
    final double[] width = new double[3];

    void add(int band, boolean hit, double w) {
      hits[band] += hit ? 1 : 0;
      total[band]++;
      width[band] += w;
    }

    double coverage(int b) {
      return total[b] == 0 ? Double.NaN : hits[b] / (double) total[b];
    }

    double meanWidth(int b) {
      return total[b] == 0 ? Double.NaN : width[b] / total[b];
    }

    double minCoverage() {
      double m = 1;
      for (int b = 0; b < 3; b++) {
        if (total[b] > 0) {
          m = Math.min(m, coverage(b));
        }
      }
      return m;
    }

    double overallWidth() {
      double w = 0;
      long n = 0;
      for (int b = 0; b < 3; b++) {
        w += width[b];
        n += total[b];
      }
      return n == 0 ? Double.NaN : w / n;
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--data", "../shared/train");
    opt.put("--folds", "5");
    opt.put("--seed", "20261125");
    opt.put("--draws", "200");
    opt.put("--select", "0,1");
    opt.put("--cache", ".faultline/train-cache");
    opt.put("--output", "target/estimates-bench.md");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!opt.containsKey(args[i])) {
        throw new IllegalArgumentException(
            "unknown option " + args[i] + " (options: " + opt.keySet() + ")");
      }
      opt.put(args[i], args[i + 1]);
    }
    int k = Integer.parseInt(opt.get("--folds"));
    long seed = Long.parseLong(opt.get("--seed"));
    int draws = Integer.parseInt(opt.get("--draws"));
    Set<Integer> select = new java.util.TreeSet<>();
    for (String s : opt.get("--select").split(",")) {
      select.add(Integer.parseInt(s.trim()));
    }
    Path data = Path.of(opt.get("--data"));
    long t0 = System.nanoTime();
    List<TrainingData.Item> items = new ArrayList<>();
    items.addAll(TrainingData.read(data.resolve("issues.jsonl")));
    items.addAll(TrainingData.read(data.resolve("changes.jsonl")));
    CachedEmbedder embedder =
        new CachedEmbedder(MiniLmEmbedder.shared(), Path.of(opt.get("--cache")));
    List<Example> all =
        TrainingData.examples(
            items,
            new Classifier(ClassifierConfig.defaults()),
            embedder,
            n -> {
              if (n % 500 == 0) {
                System.err.printf(Locale.ROOT, "features %d/%d%n", n, items.size());
              }
            });
    embedder.save();
    System.err.printf(Locale.ROOT, "features of %d items: %.0f s%n", all.size(), secs(t0));
    // train one model per fold, answer its held-out items
    List<List<Held>> folds = new ArrayList<>();
    for (int f = 0; f < k; f++) {
      List<Example> train = new ArrayList<>();
      List<Example> test = new ArrayList<>();
      for (Example e : all) {
        (CrossValidation.fold(e.group(), k, seed) == f ? test : train).add(e);
      }
      long t1 = System.nanoTime();
      Trainer.Fitted m = new Trainer(seed, n -> true).train(train);
      List<Held> held = new ArrayList<>();
      for (Example e : test) {
        Map<Target, double[]> p = m.probabilities(e.raw());
        held.add(new Held(e, full(m, p), Decision.decide(m.models(), p)));
      }
      folds.add(held);
      System.err.printf(
          Locale.ROOT,
          "fold %d: trained on %d, %d held out, %.0f s%n",
          f,
          train.size(),
          test.size(),
          secs(t1));
    }
    // the 90%-precision bar of each fold, from the other folds' out-of-fold answers
    List<Map<Target, Double>> bar = new ArrayList<>();
    for (int f = 0; f < k; f++) {
      Map<Target, Double> level = new TreeMap<>();
      for (Target t : DIMENSIONS) {
        List<Boolean> ok = new ArrayList<>();
        List<Double> conf = new ArrayList<>();
        for (int g = 0; g < k; g++) {
          if (g == f) {
            continue;
          }
          for (Held h : folds.get(g)) {
            Decision.Answer a = h.answers().get(t);
            if (!a.abstained()) {
              ok.add(a.code().equals(h.example().gold().get(t)));
              conf.add(a.confidence());
            }
          }
        }
        level.put(t, Metrics.precisionLevel(ok, conf, 0.9));
      }
      bar.add(level);
    }
    StringBuilder md = new StringBuilder();
    Results sel = measure(folds, bar, select, true, draws, seed, md);
    Choice choice = choose(sel, md);
    md.append("\n");
    measure(folds, bar, select, false, draws, seed, md).report(choice, md);
    String out = md.toString();
    System.out.println(out);
    Path file = Path.of(opt.get("--output"));
    if (file.toAbsolutePath().getParent() != null) {
      Files.createDirectories(file.toAbsolutePath().getParent());
    }
    Files.writeString(file, out, StandardCharsets.UTF_8);
    System.err.printf(Locale.ROOT, "done in %.0f s, tables in %s%n", secs(t0), file);
  }

  /** The model's calibrated distribution over every code of the dimension (0 for unseen codes). */
  static Map<Target, double[]> full(Trainer.Fitted m, Map<Target, double[]> p) {
    Map<Target, double[]> out = new TreeMap<>();
    for (Target t : DIMENSIONS) {
      DimensionModel dm = m.models().get(t);
      double[] q = new double[t.codes.size()];
      for (int c = 0; c < q.length; c++) {
        q[c] = DimensionModel.probabilityOf(dm.classes(), p.get(t), t.codes.get(c));
      }
      out.put(t, q);
    }
    return out;
  }

  static double secs(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Which tuning and interval the selection folds chose. */
  record Choice(Tuning tuning, Interval interval) {}

  static final Tuning[] TUNINGS = {Tuning.PPI, Tuning.PPI_PLUS_PLUS, Tuning.SAMPLE_ONLY};

  /** What one set of folds measured. */
  static final class Results {
    final String folds;

    /** dimension -> method -> summed TVD, and how many. */
    final Map<Target, Map<String, double[]>> tvd = new TreeMap<>();

    /** tuning/interval -> size -> tally (pooled over dimensions). */
    final Map<String, Map<Integer, Tally>> cover = new TreeMap<>();

    /** dimension -> tuning/interval -> tally over sizes. */
    final Map<Target, Map<String, Tally>> coverByDim = new TreeMap<>();

    final Tally pcc = new Tally();
    int scopes;
    final StringBuilder scopeSizes = new StringBuilder();

    Results(String folds) {
      this.folds = folds;
    }

    void tvd(Target t, String method, double v) {
      double[] a =
          tvd.computeIfAbsent(t, x -> new LinkedHashMap<>())
              .computeIfAbsent(method, x -> new double[2]);
      a[0] += v;
      a[1]++;
    }

    double tvd(Target t, String method) {
      double[] a = tvd.get(t).get(method);
      return a == null ? Double.NaN : a[0] / a[1];
    }

    void report(Choice choice, StringBuilder md) {
      md.append(String.format(Locale.ROOT, "## Results on the reporting folds (%s)%n%n", folds));
      md.append("Scopes: the bug reports (gold kind BUG) of each reporting fold: ")
          .append(scopeSizes)
          .append(".\n\n");
      md.append(
          "### Share error without a validation sample (total variation distance over known codes, mean over folds)\n\n");
      md.append(
          "| dimension | labels above the 90%-precision bar | every label | expected counts (PCC) |\n|---|---|---|---|\n");
      for (Target t : DIMENSIONS) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.3f | %.3f | %.3f |%n",
                t.field,
                tvd(t, "sure"),
                tvd(t, "all"),
                tvd(t, "pcc")));
      }
      md.append(
          String.format(
              Locale.ROOT,
              "%nPCC's own 90%% share interval (per-item uncertainty only) covered the true share for %s of the codes (low / mid / high frequency band: %s).%n%n",
              pct(
                  pcc.hits[0] + pcc.hits[1] + pcc.hits[2],
                  pcc.total[0] + pcc.total[1] + pcc.total[2]),
              bandCoverage(pcc)));
      md.append("### Share error with a validation sample (TVD, mean over draws and folds)\n\n");
      md.append(
          "| dimension | n | PCC (no sample) | sample alone | PPI | PPI++ |\n|---|---|---|---|---|---|\n");
      for (Target t : DIMENSIONS) {
        for (int n : SIZES) {
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n",
                  t.field,
                  n,
                  tvd(t, "pcc"),
                  tvd(t, "sample@" + n),
                  tvd(t, "ppi@" + n),
                  tvd(t, "ppi++@" + n)));
        }
      }
      md.append(
          "\n### 90% share intervals: coverage and mean width per band of true share (pooled over dimensions)\n\n");
      md.append(
          String.format(
              Locale.ROOT,
              "Chosen on the selection folds: **%s/%s**.%n%n",
              label(choice.tuning()),
              choice.interval().name().toLowerCase(Locale.ROOT)));
      md.append(
          "| method | n | coverage < 5% | 5–15% | ≥ 15% | width < 5% | 5–15% | ≥ 15% |\n|---|---|---|---|---|---|---|---|\n");
      for (Map.Entry<String, Map<Integer, Tally>> e : cover.entrySet()) {
        for (int n : SIZES) {
          Tally x = e.getValue().get(n);
          if (x == null) {
            continue;
          }
          boolean chosen = e.getKey().equals(key(choice.tuning(), choice.interval()));
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %s | %s | %s | %s | %s | %s |%n",
                  chosen ? "**" + e.getKey() + "**" : e.getKey(),
                  n,
                  cov(x, 0),
                  cov(x, 1),
                  cov(x, 2),
                  wid(x, 0),
                  wid(x, 1),
                  wid(x, 2)));
        }
      }
      md.append(
          "\nThe chosen method per dimension (all sizes):\n\n| dimension | coverage < 5% | 5–15% | ≥ 15% | codes×draws per band |\n|---|---|---|---|---|\n");
      for (Target t : DIMENSIONS) {
        Tally x = coverByDim.get(t).get(key(choice.tuning(), choice.interval()));
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %d / %d / %d |%n",
                t.field,
                cov(x, 0),
                cov(x, 1),
                cov(x, 2),
                x.total[0],
                x.total[1],
                x.total[2]));
      }
    }
  }

  static String pct(long a, long b) {
    return b == 0 ? "–" : String.format(Locale.ROOT, "%.0f%%", 100.0 * a / b);
  }

  static String bandCoverage(Tally x) {
    return String.format(Locale.ROOT, "%s / %s / %s", cov(x, 0), cov(x, 1), cov(x, 2));
  }

  static String cov(Tally x, int b) {
    return x.total[b] == 0 ? "–" : String.format(Locale.ROOT, "%.3f", x.coverage(b));
  }

  static String wid(Tally x, int b) {
    return x.total[b] == 0 ? "–" : String.format(Locale.ROOT, "%.3f", x.meanWidth(b));
  }

  static String label(Tuning t) {
    return switch (t) {
      case PPI -> "ppi";
      case PPI_PLUS_PLUS -> "ppi++";
      case SAMPLE_ONLY -> "sample";
    };
  }

  static String key(Tuning t, Interval i) {
    return label(t) + "/" + i.name().toLowerCase(Locale.ROOT);
  }

  static int band(double share) {
    return share < BANDS[0] ? 0 : share < BANDS[1] ? 1 : 2;
  }

  /**
   * The rule, fixed before any result was seen: the tuning (PPI or PPI++) with the lower mean share
   * error over the selection folds' draws (all dimensions and sizes); then, for it, among the
   * intervals whose coverage is at least 0.88 in every frequency band (pooled over dimensions, per
   * size), the narrowest on average; if none reaches 0.88 everywhere, the one whose worst band is
   * best.
   */
  static Choice choose(Results sel, StringBuilder md) {
    double ppi = 0;
    double ppp = 0;
    for (Target t : DIMENSIONS) {
      for (int n : SIZES) {
        ppi += sel.tvd(t, "ppi@" + n);
        ppp += sel.tvd(t, "ppi++@" + n);
      }
    }
    Tuning tuning = ppp <= ppi ? Tuning.PPI_PLUS_PLUS : Tuning.PPI;
    Interval best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    boolean bestOk = false;
    md.append(
        String.format(
            Locale.ROOT, "## Selection folds (%s): choices only, not results%n%n", sel.folds));
    md.append(
        String.format(
            Locale.ROOT,
            "Mean share error (TVD) over dimensions and sizes: PPI %.4f, PPI++ %.4f: **%s**.%n%n",
            ppi / (DIMENSIONS.length * SIZES.length),
            ppp / (DIMENSIONS.length * SIZES.length),
            label(tuning)));
    md.append("| interval | worst band coverage (over sizes) | mean width |\n|---|---|---|\n");
    for (Interval iv : Interval.values()) {
      Map<Integer, Tally> m = sel.cover.get(key(tuning, iv));
      double worst = 1;
      double w = 0;
      for (int n : SIZES) {
        Tally x = m.get(n);
        if (x != null) {
          worst = Math.min(worst, x.minCoverage());
          w += x.overallWidth() / SIZES.length;
        }
      }
      boolean ok = worst >= 0.88;
      md.append(
          String.format(
              Locale.ROOT, "| %s | %.3f | %.3f |%n", iv.name().toLowerCase(Locale.ROOT), worst, w));
      double score = ok ? -w : worst - 10;
      if ((ok && !bestOk) || (ok == bestOk && score > bestScore)) {
        best = iv;
        bestScore = score;
        bestOk = ok;
      }
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%nChosen interval: **%s** (%s).%n",
            best.name().toLowerCase(Locale.ROOT),
            bestOk
                ? "narrowest with every band at 0.88 or more"
                : "no interval reached 0.88 in every band: the best worst band"));
    return new Choice(tuning, best);
  }

  static Results measure(
      List<List<Held>> folds,
      List<Map<Target, Double>> bar,
      Set<Integer> select,
      boolean selection,
      int draws,
      long seed,
      StringBuilder md) {
    List<Integer> use = new ArrayList<>();
    for (int f = 0; f < folds.size(); f++) {
      if (select.contains(f) == selection) {
        use.add(f);
      }
    }
    Results r = new Results(use.toString());
    for (int f : use) {
      List<Held> bugs =
          folds.get(f).stream()
              .filter(h -> "BUG".equals(h.example().gold().get(Target.KIND)))
              .toList();
      r.scopeSizes
          .append(r.scopes++ == 0 ? "" : ", ")
          .append("fold ")
          .append(f)
          .append(": ")
          .append(bugs.size());
      for (Target t : DIMENSIONS) {
        Codes codes = Codes.of(t.codes);
        int kk = codes.size();
        int bigN = bugs.size();
        double[][] p = new double[bigN][];
        int[] gold = new int[bigN];
        double[] truth = new double[kk];
        double[] sure = new double[kk];
        double[] every = new double[kk];
        double level = bar.get(f).get(t);
        for (int i = 0; i < bigN; i++) {
          Held h = bugs.get(i);
          p[i] = h.p().get(t);
          gold[i] = codes.index(h.example().gold().get(t));
          truth[gold[i]]++;
          Decision.Answer a = h.answers().get(t);
          int c = codes.index(a.code());
          every[c]++;
          if (!a.abstained() && a.confidence() >= level) {
            sure[c]++;
          }
        }
        double[] ts = shares(codes, truth);
        r.tvd(t, "sure", tvd(codes, ts, shares(codes, sure)));
        r.tvd(t, "all", tvd(codes, ts, shares(codes, every)));
        List<Estimate> pcc = ClassifyAndCount.estimate(codes, p, LEVEL, seed);
        double[] ps = new double[kk];
        for (int c = 0; c < kk; c++) {
          if (codes.known(c)) {
            ps[c] = pcc.get(c).share();
            if (ts[c] > 0) {
              r.pcc.add(
                  band(ts[c]),
                  pcc.get(c).shareCovers(ts[c]),
                  pcc.get(c).shareHigh() - pcc.get(c).shareLow());
            }
          }
        }
        r.tvd(t, "pcc", tvd(codes, ts, ps));
        for (int n : SIZES) {
          if (n >= bigN) {
            continue;
          }
          SplittableRandom rnd =
              new SplittableRandom(
                  seed * 1000003L
                      + f * 7919L
                      + n * 31L
                      + DRAW_SALT[Arrays.asList(DIMENSIONS).indexOf(t)]);
          for (int d = 0; d < draws; d++) {
            int[] label = new int[bigN];
            Arrays.fill(label, -1);
            int[] order = shuffled(bigN, rnd);
            for (int j = 0; j < n; j++) {
              label[order[j]] = gold[order[j]];
            }
            for (Tuning tu : TUNINGS) {
              boolean tvdDone = false;
              for (Interval iv : Interval.values()) {
                if (tu == Tuning.SAMPLE_ONLY && iv != Interval.SCORE && iv != Interval.WALD) {
                  continue;
                }
                List<Estimate> e = PredictionPowered.estimate(codes, p, label, tu, iv, LEVEL, d);
                String key = key(tu, iv);
                Tally tally =
                    r.cover
                        .computeIfAbsent(key, x -> new TreeMap<>())
                        .computeIfAbsent(n, x -> new Tally());
                Tally byDim =
                    r.coverByDim
                        .computeIfAbsent(t, x -> new TreeMap<>())
                        .computeIfAbsent(key, x -> new Tally());
                double[] es = new double[kk];
                for (int c = 0; c < kk; c++) {
                  if (!codes.known(c)) {
                    continue;
                  }
                  Estimate x = e.get(c);
                  es[c] = x.share();
                  if (ts[c] > 0) {
                    boolean hit = x.shareCovers(ts[c]);
                    double w = x.shareHigh() - x.shareLow();
                    tally.add(band(ts[c]), hit, w);
                    byDim.add(band(ts[c]), hit, w);
                  }
                }
                if (!tvdDone) {
                  r.tvd(t, label(tu) + "@" + n, tvd(codes, ts, es));
                  tvdDone = true;
                }
              }
            }
          }
        }
      }
      System.err.printf(Locale.ROOT, "measured fold %d%n", f);
    }
    return r;
  }

  /** Shares among known codes of counts (0 everywhere when nothing is known). */
  static double[] shares(Codes codes, double[] count) {
    double known = 0;
    for (int c = 0; c < count.length; c++) {
      if (codes.known(c)) {
        known += count[c];
      }
    }
    double[] s = new double[count.length];
    for (int c = 0; c < count.length; c++) {
      s[c] = codes.known(c) && known > 0 ? count[c] / known : 0;
    }
    return s;
  }

  /** Total variation distance over the known codes. */
  static double tvd(Codes codes, double[] a, double[] b) {
    double d = 0;
    for (int c = 0; c < a.length; c++) {
      if (codes.known(c)) {
        d += Math.abs(a[c] - (Double.isNaN(b[c]) ? 0 : b[c]));
      }
    }
    return d / 2;
  }

  static int[] shuffled(int n, SplittableRandom r) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}
