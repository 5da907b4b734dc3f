package dev.faultline.classifier.bench;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.FeatureExtractor;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.classifier.rules.Classifier;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Bulk classification measured by wall time and by the CPU time of the classifying threads, for a
 * machine shared with other work (issue #26, point 4): on a busy machine wall time measures the
 * neighbours, while CPU seconds per issue say what the work itself costs (issues/s on 2 free cores
 * is 2 ÷ that). In one run, in this order: the encoder alone on one thread (baseline), {@code n}
 * distinct synthetic issues through the shared learned classifier on {@code threads} threads, and
 * comment events whose encoded text is unchanged, with and without the vector cache. Prints a
 * Markdown table with the load average before and after. Run: {@code java -cp ...
 * dev.faultline.classifier.bench.BulkCpuRate [n] [threads]}.
 */
public final class BulkCpuRate {

  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private static String load() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }

  /** Wall seconds and CPU seconds of running {@code work} on {@code threads} threads. */
  private static double[] run(int threads, int n, java.util.function.IntConsumer work)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime();
      List<Future<Long>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(
            pool.submit(
                () -> {
                  long c0 = CPU.getCurrentThreadCpuTime();
                  for (int i = first; i < n; i += threads) {
                    work.accept(i);
                  }
                  return CPU.getCurrentThreadCpuTime() - c0;
                }));
      }
      long cpu = 0;
      for (Future<Long> f : parts) {
        cpu += f.get();
      }
      return new double[] {(System.nanoTime() - start) / 1e9, cpu / 1e9};
    } finally {
      pool.shutdownNow();
    }
  }

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    String loadBefore = load();
    LearnedClassifier learned = LearnedClassifier.shared();
    MiniLmEmbedder encoder = MiniLmEmbedder.shared();

    IssueText[] warm = BulkClassifierBenchmark.syntheticIssues(200, 4096, 3);
    run(threads, warm.length, i -> learned.classify(warm[i]));

    IssueText[] enc = BulkClassifierBenchmark.syntheticIssues(500, 4096, 5);
    String[] texts = new String[enc.length];
    for (int i = 0; i < enc.length; i++) {
      texts[i] = FeatureExtractor.embeddingText(enc[i]);
    }
    double[] one = run(1, texts.length, i -> encoder.embed(texts[i]));

    IssueText[] bulk = BulkClassifierBenchmark.syntheticIssues(n, 4096, 1000);
    double[] b = run(threads, n, i -> learned.classify(bulk[i]));

    Classifier rules = new Classifier(ClassifierConfig.defaults());
    LearnedClassifier cached =
        new LearnedClassifier(rules, new VectorCache(encoder, 4096), LearnedModel.bundled());
    LearnedClassifier uncached = new LearnedClassifier(rules, encoder, LearnedModel.bundled());
    IssueText[] opened = BulkClassifierBenchmark.syntheticIssues(500, 4096, 11);
    IssueText[] commented = new IssueText[opened.length];
    for (int i = 0; i < opened.length; i++) {
      IssueText o = opened[i];
      cached.classify(o);
      commented[i] =
          new IssueText(
              o.repo(),
              o.number(),
              o.title(),
              o.body(),
              o.labels(),
              List.of(new Comment("maintainer", true, "Same here on 2 nodes, any update?")),
              o.pullRequests(),
              o.state());
    }
    double[] ce = run(1, commented.length, i -> cached.classify(commented[i]));
    double[] cu = run(1, commented.length, i -> uncached.classify(commented[i]));
    String loadAfter = load();

    System.out.printf(
        Locale.ROOT,
        "%n%d cores, load average (1 min) %s before, %s after%n%n",
        Runtime.getRuntime().availableProcessors(),
        loadBefore,
        loadAfter);
    System.out.println(
        "| figure | items | threads | wall s | items/s (wall) | CPU ms per item | items per CPU-s |");
    System.out.println("|---|---|---|---|---|---|---|");
    row("encoder alone, one text per call (baseline)", texts.length, 1, one);
    row("bulk: distinct issues, shared learned classifier", n, threads, b);
    row("comment event, encoded text unchanged, vector cache", commented.length, 1, ce);
    row("comment event, same, without the cache", commented.length, 1, cu);
  }

  private static void row(String what, int n, int threads, double[] r) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %,d | %d | %.1f | %.1f | %.2f | %.1f |%n",
        what,
        n,
        threads,
        r[0],
        n / r[0],
        r[1] * 1000 / n,
        n / r[1]);
  }
}
