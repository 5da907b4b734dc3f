package dev.faultline.stats;

import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.keys.StatDimensions;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ClassifiedEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Invented classified issues for the statistics tests, and the counts they must give. */
public final class Fixtures {
  public static final long DAY = Duration.ofDays(1).toMillis();

  /** 2024-03-01T00:00Z. */
  public static final long T0 = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli();

  private static final String[] SYMPTOMS = {
    "HANG", "OUT_OF_MEMORY", "RUNTIME_CRASH", "COMMUNICATION_FAILURE", "UNKNOWN"
  };
  private static final String[] SYMPTOM_CLASSES = {"HANG", "CRASH", "CRASH", "CRASH", "UNKNOWN"};
  private static final String[] ROOT_CAUSES = {
    "CONCURRENCY_ERROR", "CONFIGURATION_ERROR", "VERSION_INCOMPATIBILITY", "UNKNOWN"
  };
  private static final String[] STAGES = {"COMMUNICATION", "MEMORY", "INITIALIZATION", "UNKNOWN"};

  private Fixtures() {}

  public static ClassifiedEvent event(
      String id,
      String framework,
      long createdAt,
      long updatedAt,
      String symptom,
      String rootCause,
      String stage) {
    ClassifiedEvent e = new ClassifiedEvent();
    e.id = id;
    e.framework = framework;
    e.frameworkVersion = null;
    e.state = "open";
    e.createdAt = createdAt;
    e.updatedAt = updatedAt;
    e.category(Dimension.SYMPTOM, symptom);
    int i = List.of(SYMPTOMS).indexOf(symptom);
    e.category(Dimension.SYMPTOM_CLASS, i < 0 ? "UNKNOWN" : SYMPTOM_CLASSES[i]);
    e.category(Dimension.ROOT_CAUSE, rootCause);
    e.category(Dimension.FIX_PATTERN, "UNKNOWN");
    e.category(Dimension.STAGE, stage);
    e.category(Dimension.PHASE, "TRAINING");
    e.category(Dimension.DISTRIBUTED_SPECIFIC, "TRUE");
    return e;
  }

  public static ClassifiedEvent copy(ClassifiedEvent e) {
    ClassifiedEvent c =
        event(
            e.id,
            e.framework,
            e.createdAt,
            e.updatedAt,
            e.category(Dimension.SYMPTOM),
            e.category(Dimension.ROOT_CAUSE),
            e.category(Dimension.STAGE));
    c.category(Dimension.SYMPTOM_CLASS, e.category(Dimension.SYMPTOM_CLASS));
    c.frameworkVersion = e.frameworkVersion;
    c.state = e.state;
    c.category(Dimension.FIX_PATTERN, e.category(Dimension.FIX_PATTERN));
    c.category(Dimension.PHASE, e.category(Dimension.PHASE));
    c.category(Dimension.DISTRIBUTED_SPECIFIC, e.category(Dimension.DISTRIBUTED_SPECIFIC));
    for (int d = 0; d < e.probabilities.length; d++) {
      c.probabilities[d] = e.probabilities[d] == null ? null : e.probabilities[d].clone();
    }
    c.bug = e.bug;
    return c;
  }

  /**
   * {@code issues} issues of {@code framework} opened over {@code days} days from T0, some
   * re-classified later, some closed, some reporting a release, some redelivered; with a HANG surge
   * in the last 10 days. Sorted by updatedAt.
   */
  public static List<ClassifiedEvent> history(String framework, int issues, int days, long seed) {
    Random r = new Random(seed);
    List<ClassifiedEvent> out = new ArrayList<>();
    for (int n = 1; n <= issues; n++) {
      String id = framework + "/repo#" + n;
      long created = T0 + (long) (r.nextDouble() * days * DAY);
      boolean surge = n > issues * 9 / 10;
      if (surge) {
        created = T0 + (days - 10) * DAY + (long) (r.nextDouble() * 9 * DAY);
      }
      ClassifiedEvent first =
          event(
              id,
              framework,
              created,
              created,
              surge ? "HANG" : pick(r, SYMPTOMS),
              surge ? "CONCURRENCY_ERROR" : pick(r, ROOT_CAUSES),
              surge ? "COMMUNICATION" : pick(r, STAGES));
      first.frameworkVersion = r.nextInt(3) == 0 ? "0.14." + r.nextInt(3) : null;
      distribute(first, n);
      out.add(first);
      ClassifiedEvent last = first;
      int changes = r.nextInt(4);
      for (int c = 0; c < changes; c++) {
        ClassifiedEvent next = copy(last);
        next.updatedAt = last.updatedAt + 1 + (long) (r.nextDouble() * 20 * DAY);
        switch (r.nextInt(4)) {
          case 0 -> {
            next.category(Dimension.SYMPTOM, pick(r, SYMPTOMS));
            next.category(
                Dimension.SYMPTOM_CLASS,
                SYMPTOM_CLASSES[List.of(SYMPTOMS).indexOf(next.category(Dimension.SYMPTOM))]);
          }
          case 1 -> next.category(Dimension.ROOT_CAUSE, pick(r, ROOT_CAUSES));
          case 2 -> next.category(Dimension.STAGE, pick(r, STAGES));
          default -> next.state = "closed";
        }
        distribute(next, n);
        out.add(next);
        last = next;
      }
      if (r.nextInt(10) == 0) {
        out.add(copy(last)); // a redelivery
      }
    }
    out.sort(Comparator.comparingLong(e -> e.updatedAt));
    return out;
  }

  /** The symptom's share of a record's symptom distribution; the rest is on NONE. */
  static final double SYMPTOM_P = 0.7;

  /**
   * Gives a record of issue {@code n} distributions: its symptom {@value #SYMPTOM_P} (the rest
   * NONE), P(bug) 0.9 for even issues (1 for odd ones); every other label a point mass.
   */
  static void distribute(ClassifiedEvent e, int n) {
    java.util.List<String> codes = Dimension.SYMPTOM.distributionCodes();
    double[] p = new double[codes.size()];
    p[codes.indexOf(e.category(Dimension.SYMPTOM))] += SYMPTOM_P;
    p[codes.indexOf("NONE")] += 1 - SYMPTOM_P;
    e.probabilities[Dimension.SYMPTOM.ordinal()] = p;
    e.bug = n % 2 == 0 ? 0.9 : 1.0;
  }

  /**
   * What a rolling statistic's expected count and variance must be, worked out here from the
   * records' own distributions ({@link #distribute}): per issue, its newest record's probability of
   * being a bug report of the category (symptom: its own distribution; stage and phase: the label's
   * point mass × P(bug); the rest: the label's point mass), at the time its entry of that dimension
   * began ({@link #finalEntries}).
   */
  public static double[] expectedSum(List<ClassifiedEvent> events, CategoryStat s) {
    Map<String, java.util.TreeMap<Long, ClassifiedEvent>> byIssue = new HashMap<>();
    for (ClassifiedEvent e : events) {
      byIssue.computeIfAbsent(e.id, k -> new java.util.TreeMap<>()).put(e.updatedAt, e);
    }
    double expected = 0;
    double variance = 0;
    for (java.util.TreeMap<Long, ClassifiedEvent> issue : byIssue.values()) {
      List<IssueContributions.Entry> entries = finalEntries(new ArrayList<>(issue.values()));
      if (entries.isEmpty()) {
        continue;
      }
      ClassifiedEvent e = issue.lastEntry().getValue();
      IssueContributions.Entry entry =
          entries.stream().filter(x -> x.dimension() == s.dimension).findFirst().orElseThrow();
      if (!entry.framework().equals(s.framework)
          || entry.time() < s.windowStart
          || entry.time() >= s.windowEnd) {
        continue;
      }
      double p;
      if (s.dimension == Dimension.SYMPTOM) {
        p =
            (s.category.equals("NONE") ? 1 - SYMPTOM_P : 0)
                + (s.category.equals(e.category(Dimension.SYMPTOM)) ? SYMPTOM_P : 0);
      } else {
        p = s.category.equals(e.category(s.dimension)) ? 1 : 0;
        if (s.dimension == Dimension.STAGE || s.dimension == Dimension.PHASE) {
          p *= e.bug;
        }
      }
      expected += p;
      variance += p * (1 - p);
    }
    return new double[] {expected, variance};
  }

  private static String pick(Random r, String[] values) {
    return values[r.nextInt(values.length)];
  }

  /**
   * The counted entries of every issue after all of {@code events}, worked out here without the
   * production {@code IssueContributions}: per issue, its records in time order (a redelivery, the
   * same updatedAt again, read once); nothing for a deleted issue; per dimension but the kind, one
   * entry in the newest record's category, dated at the last record whose category differed from
   * the one before it, or at the issue's creation when the category never changed.
   */
  public static List<IssueContributions.Entry> finalEntries(List<ClassifiedEvent> events) {
    Map<String, java.util.TreeMap<Long, ClassifiedEvent>> byIssue = new HashMap<>();
    for (ClassifiedEvent e : events) {
      byIssue.computeIfAbsent(e.id, k -> new java.util.TreeMap<>()).put(e.updatedAt, e);
    }
    List<IssueContributions.Entry> entries = new ArrayList<>();
    for (java.util.TreeMap<Long, ClassifiedEvent> issue : byIssue.values()) {
      List<ClassifiedEvent> records = new ArrayList<>(issue.values());
      ClassifiedEvent newest = records.get(records.size() - 1);
      if ("deleted".equals(newest.state)) {
        continue;
      }
      long created = records.stream().mapToLong(e -> e.createdAt).min().orElseThrow();
      for (Dimension d : Dimension.values()) {
        if (d == Dimension.KIND) {
          continue;
        }
        long since = created;
        for (int i = 1; i < records.size(); i++) {
          if (!records.get(i).category(d).equals(records.get(i - 1).category(d))) {
            since = records.get(i).updatedAt;
          }
        }
        entries.add(new IssueContributions.Entry(newest.framework, d, newest.category(d), since));
      }
    }
    return entries;
  }

  /** What a rolling statistic must say, from the final entries. */
  public static long expectedCount(List<IssueContributions.Entry> entries, CategoryStat s) {
    return entries.stream()
        .filter(
            e ->
                e.framework().equals(s.framework)
                    && e.dimension() == s.dimension
                    && e.category().equals(s.category))
        .filter(e -> e.time() >= s.windowStart && e.time() < s.windowEnd)
        .count();
  }

  /** Last value per id. */
  public static Map<String, CategoryStat> latest(List<CategoryStat> stats) {
    Map<String, CategoryStat> m = new HashMap<>();
    for (CategoryStat s : stats) {
      m.put(s.id, s);
    }
    return m;
  }

  /** Avro record of an event, as the issue pipeline writes it. */
  public static ClassifiedIssue toAvro(ClassifiedEvent e) {
    return ClassifiedIssue.newBuilder()
        .setId(e.id)
        .setRepo(e.id.substring(0, e.id.indexOf('#')))
        .setNumber(Integer.parseInt(e.id.substring(e.id.indexOf('#') + 1)))
        .setFramework(e.framework)
        .setTitle("issue " + e.id)
        .setUrl("https://github.com/" + e.id.replace('#', '/'))
        .setState(e.state)
        .setCreatedAt(Instant.ofEpochMilli(e.createdAt))
        .setUpdatedAt(Instant.ofEpochMilli(e.updatedAt))
        .setKind(Kind.BUG)
        .setSymptom(Symptom.valueOf(e.category(Dimension.SYMPTOM)))
        .setSymptomClass(SymptomClass.valueOf(e.category(Dimension.SYMPTOM_CLASS)))
        .setRootCause(RootCause.valueOf(e.category(Dimension.ROOT_CAUSE)))
        .setFixPattern(FixPattern.valueOf(e.category(Dimension.FIX_PATTERN)))
        .setStage(Stage.valueOf(e.category(Dimension.STAGE)))
        .setPhase(Phase.valueOf(e.category(Dimension.PHASE)))
        .setDistributedSpecific(
            "TRUE".equals(e.category(Dimension.DISTRIBUTED_SPECIFIC))
                ? Boolean.TRUE
                : "FALSE".equals(e.category(Dimension.DISTRIBUTED_SPECIFIC)) ? Boolean.FALSE : null)
        .setFrameworkVersion(e.frameworkVersion)
        .setClassifierVersion("test-v1")
        .setDeliveryId("d-" + e.id + "-" + e.updatedAt)
        .setProbabilities(probabilities(e))
        .build();
  }

  /** The record's distributions as the topic carries them: dimension key → code → p. */
  private static Map<String, Map<String, Double>> probabilities(ClassifiedEvent e) {
    Map<String, Map<String, Double>> out = new HashMap<>();
    for (Dimension d : Dimension.values()) {
      double[] p = e.probabilities[d.ordinal()];
      if (p != null) {
        Map<String, Double> m = new HashMap<>();
        for (int k = 0; k < p.length; k++) {
          m.put(d.distributionCodes().get(k), p[k]);
        }
        out.put(d.key(), m);
      }
    }
    if (e.bug < 1) {
      out.put(Dimension.KIND.key(), Map.of("BUG", e.bug, "QUESTION", 1 - e.bug));
    }
    return out;
  }

  /** Every dimension's category of an event, for assertions. */
  public static Map<Dimension, String> categories(ClassifiedEvent e) {
    Map<Dimension, String> m = new HashMap<>();
    for (Dimension d : StatDimensions.COUNTED) {
      m.put(d, e.category(d));
    }
    return m;
  }
}
