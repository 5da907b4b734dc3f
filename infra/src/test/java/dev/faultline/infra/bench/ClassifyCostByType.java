package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.normalise.GitHubNormaliser;
import dev.faultline.jobs.records.GitHubEvent;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the classify step of the issue pipeline costs per event type, beside the encoder's own cost:
 * the {@link EventMix} deliveries normalised and folded into per-issue state exactly as {@code
 * ClassifyIssues} folds them ({@link IssueAccumulator#fold}, re-classified when the state changed,
 * with the tier the pipeline uses by default), on one thread, timed by that thread's CPU time per
 * event and type, with the encoder calls each type caused (the shared {@link VectorCache}'s
 * misses). A first pass over another seed's mix warms the JIT and is not counted. Kafka, Flink and
 * Neo4j are not in these figures ({@link PipelineBenchmark} has the whole job).
 *
 * <p>Run: {@code java -cp ... dev.faultline.infra.bench.ClassifyCostByType [events] [tier]}
 * (default 3000 events, tier {@code learned}; {@code rules} for the rules alone). Prints one line
 * per type and the encoder's one-text cost.
 */
public final class ClassifyCostByType {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final IssueClassification classification;
  private final VectorCache cache;
  private final GitHubNormaliser normaliser = new GitHubNormaliser(new ObjectMapper());
  private final Map<String, IssueAccumulator> state = new HashMap<>();
  private final Map<EventMix.Kind, long[]> byKind = new EnumMap<>(EventMix.Kind.class);

  ClassifyCostByType(DefectClassifier classifier) {
    this.classification = new IssueClassification(classifier);
    this.cache =
        classifier instanceof LearnedClassifier l && l.embedder() instanceof VectorCache c
            ? c
            : null;
  }

  public static void main(String[] args) throws Exception {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
    ClassifierTier tier =
        args.length > 1 ? ClassifierTier.valueOf(args[1].toUpperCase(Locale.ROOT)) : null;
    DefectClassifier classifier = (tier == null ? ClassifierTier.LEARNED : tier).classifier();
    System.out.printf(
        Locale.ROOT,
        "classify cost by type: %s, %,d events, load average %s%n",
        classifier.version(),
        events,
        loadAverage());
    new ClassifyCostByType(classifier).run(new EventMix("bench/warm", 7L, 0).next(events));
    ClassifyCostByType measured = new ClassifyCostByType(classifier);
    measured.run(new EventMix("bench/mix", 42L, 0).next(events));
    measured.print();
    if (classifier instanceof LearnedClassifier l) {
      encoderAlone(l.embedder(), new EventMix("bench/encoder", 99L, 0), Math.min(300, events));
    }
    System.out.printf(Locale.ROOT, "load average at the end %s%n", loadAverage());
  }

  /** Folds and classifies every delivery, as the keyed classify task does. */
  void run(List<EventMix.Mixed> deliveries) throws Exception {
    for (EventMix.Mixed m : deliveries) {
      long missesBefore = cache == null ? 0 : cache.misses();
      long cpu = THREADS.getCurrentThreadCpuTime();
      int classified = 0;
      for (GitHubEvent fact : normaliser.normalise(m.delivery())) {
        if (fact.type == GitHubEvent.Type.PULL_REQUEST || fact.type == GitHubEvent.Type.RELEASE) {
          continue; // not the issue task's facts
        }
        IssueAccumulator acc = state.computeIfAbsent(fact.key, k -> new IssueAccumulator());
        if (acc.fold(fact) && acc.issue != null) {
          classification.classify(acc, acc.stateVersion, fact.deliveryId);
          classified++;
        }
      }
      long[] t = byKind.computeIfAbsent(m.kind(), k -> new long[4]);
      t[0]++;
      t[1] += THREADS.getCurrentThreadCpuTime() - cpu;
      t[2] += cache == null ? 0 : cache.misses() - missesBefore;
      t[3] += classified;
    }
  }

  private void print() {
    long n = 0;
    long cpu = 0;
    for (Map.Entry<EventMix.Kind, long[]> e : byKind.entrySet()) {
      long[] t = e.getValue();
      n += t[0];
      cpu += t[1];
      System.out.printf(
          Locale.ROOT,
          "  %-8s %5d events  %6.3f CPU-ms per event  %.3f encoder calls per event"
              + "  %.2f classifications per event%n",
          e.getKey().label(),
          t[0],
          t[1] / 1e6 / t[0],
          (double) t[2] / t[0],
          (double) t[3] / t[0]);
    }
    System.out.printf(
        Locale.ROOT, "  %-8s %5d events  %6.3f CPU-ms per event%n", "mix", n, cpu / 1e6 / n);
  }

  /** The encoder alone on distinct opened-issue texts, one text per call (the baseline). */
  private static void encoderAlone(TextEmbedder embedder, EventMix mix, int texts)
      throws Exception {
    TextEmbedder encoder = embedder instanceof VectorCache c ? c.inner() : embedder;
    ObjectMapper json = new ObjectMapper();
    List<String> inputs = new java.util.ArrayList<>();
    for (int i = 0; i < texts; i++) {
      var issue = json.readTree(mix.next(EventMix.Kind.OPENED).delivery().getPayloadJson());
      inputs.add(issue.at("/issue/title").asText() + "\n" + issue.at("/issue/body").asText());
    }
    for (String s : inputs.subList(0, Math.min(30, texts))) {
      encoder.embed(s);
    }
    long cpu = THREADS.getCurrentThreadCpuTime();
    for (String s : inputs) {
      encoder.embed(s);
    }
    System.out.printf(
        Locale.ROOT,
        "  encoder alone, one text per call: %.3f CPU-ms per text (%d texts)%n",
        (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6 / texts,
        texts);
  }

  private static String loadAverage() throws java.io.IOException {
    return Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
  }
}
