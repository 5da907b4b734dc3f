package dev.faultline.stats.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.AlertKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The alert model on seeded synthetic streams of one framework (symptom and stage of each issue).
 */
class AlertModelTest {
  private static final String[] SYMPTOMS = {
    "RUNTIME_CRASH", "HANG", "OUT_OF_MEMORY", "CHECKPOINT_FAILURE", "INCORRECT_OUTPUT", "UNKNOWN"
  };
  private static final double[] SYMPTOM_SHARES = {0.3, 0.15, 0.15, 0.05, 0.1, 0.25};
  private static final String[] STAGES = {
    "COMMUNICATION", "MEMORY", "INITIALIZATION", "COMPUTATION", "UNKNOWN"
  };
  private static final double[] STAGE_SHARES = {0.3, 0.2, 0.2, 0.1, 0.2};
  private final AlertModel model = AlertModel.defaults();

  /** Builds a framework's daily counts: per issue, its symptom, its stage and the pair. */
  private static final class Stream {
    final Map<Long, List<String[]>> issues = new HashMap<>();

    void add(long day, String symptom, String stage) {
      issues.computeIfAbsent(day, d -> new ArrayList<>()).add(new String[] {symptom, stage});
    }

    /**
     * {@code perDay} issues a day on average from {@code from} to {@code to}, symptoms and stages
     * drawn independently.
     */
    Stream background(long from, long to, double perDay, Random r) {
      for (long d = from; d < to; d++) {
        int n = poisson(perDay, r);
        for (int i = 0; i < n; i++) {
          add(d, draw(SYMPTOMS, SYMPTOM_SHARES, r), draw(STAGES, STAGE_SHARES, r));
        }
      }
      return this;
    }

    DailyTable table(long from, long to) {
      DailyTable.Builder b = DailyTable.builder(from, (int) (to - from));
      issues.forEach(
          (day, list) -> {
            for (String[] i : list) {
              b.add(AlertKeys.category(Dimension.SYMPTOM, i[0]), day, 1);
              b.add(AlertKeys.category(Dimension.STAGE, i[1]), day, 1);
              b.add(AlertKeys.pair(Dimension.SYMPTOM, i[0], i[1]), day, 1);
            }
          });
      return b.build();
    }
  }

  private static String draw(String[] values, double[] shares, Random r) {
    double u = r.nextDouble();
    for (int i = 0; i < values.length; i++) {
      u -= shares[i];
      if (u < 0) {
        return values[i];
      }
    }
    return values[values.length - 1];
  }

  static int poisson(double mean, Random r) {
    double l = Math.exp(-mean);
    int k = 0;
    for (double p = r.nextDouble(); p > l; p *= r.nextDouble()) {
      k++;
    }
    return k;
  }

  private static Finding find(List<Finding> findings, String key) {
    return findings.stream()
        .filter(f -> f.key().equals(key) && f.release() == null)
        .findFirst()
        .orElse(null);
  }

  @Test
  void findsAPlantedSurgeAndStatesWhatWasExpectedSeenAndHowUnlikely() {
    Stream s = new Stream().background(0, 300, 2.0, new Random(3));
    for (int i = 0; i < 12; i++) {
      s.add(280 + i % 7, "CHECKPOINT_FAILURE", "MEMORY");
    }
    List<Finding> findings = model.scan(s.table(0, 300), 287, 0, List.of());
    Finding f = find(findings, "SYMPTOM|CHECKPOINT_FAILURE");
    assertTrue(f.alert(), f.toString());
    assertEquals(AlertKind.SURGE, f.kind());
    assertTrue(f.count() >= 12 && f.expected() < f.count() / 4.0, f.toString());
    assertTrue(f.pValue() < 1e-6, f.toString());
    assertTrue(f.statistic() >= f.threshold() && f.threshold() > 3, f.toString());
    // the family-wise chance a month, against the budget of false alerts per framework-month
    assertTrue(
        f.adjustedPValue() >= f.pValue()
            && f.adjustedPValue() <= 1 - Math.exp(-model.falseAlertsPerMonth()),
        f.toString());
    assertTrue(f.arlDays() > 365 * f.familySize(), "a chance run this strong is rare: " + f);
    assertTrue(
        f.windowStartDay() <= 280 && f.windowStartDay() >= 287 - model.runDays(),
        "the run holds the surge, within the longest run: " + f);
    assertEquals(182, f.baselineDays());
    assertTrue(
        f.familySize() > 5,
        "every category of the framework is tested together: " + f.familySize());
    assertFalse(
        find(findings, "SYMPTOM|RUNTIME_CRASH").alert(), "an unchanged category does not alert");
  }

  @Test
  void aRiseOfTheMostFrequentCategoryAlertsThoughItsShareCannotRiseAsMuch() {
    // RUNTIME_CRASH is 30% of the issues: 2.5 times its rate takes its share to 52%, not 75%; the
    // minimum support reads the rate against the other categories' issues, not the share
    Random r = new Random(21);
    Stream s = new Stream().background(0, 300, 8.0, r);
    for (long d = 280; d < 290; d++) {
      for (int i = poisson(1.5 * 0.3 * 8.0, r); i > 0; i--) {
        s.add(d, "RUNTIME_CRASH", "COMMUNICATION");
      }
    }
    Finding f = find(model.scan(s.table(0, 300), 290, 0, List.of()), "SYMPTOM|RUNTIME_CRASH");
    assertTrue(f.alert(), f.toString());
    assertTrue(
        f.count() > 2 * f.expected() && f.count() < 4 * f.expected(),
        "expected from the other categories' issues: about 2.5 times less than the count: " + f);
  }

  @Test
  void aSteadyStreamRaisesAtMostAFewAlertEpisodesPerYear() {
    // Two years of a stationary stream, tested at every day end: the false alarms the budget of
    // false alerts per framework-month lets through.
    Stream s = new Stream().background(0, 730, 3.0, new Random(5));
    DailyTable table = s.table(0, 730);
    int episodes = 0;
    Map<String, Long> lastAlerting = new HashMap<>();
    for (long end = model.warmupDays(); end <= 730; end++) {
      for (Finding f : model.scan(table, end, 0, List.of())) {
        if (f.alert()) {
          Long last = lastAlerting.put(f.key(), end);
          if (last == null || end - last > model.windowDays()) {
            episodes++;
          }
        }
      }
    }
    double perMonth = episodes / ((730 - model.warmupDays()) / 30.44);
    assertTrue(perMonth <= 0.2, episodes + " episodes, " + perMonth + " a month");
  }

  /** Alert episodes of a stream tested at every day end after the warm-up. */
  private static int episodes(AlertModel model, DailyTable table, long days) {
    int episodes = 0;
    Map<String, Long> lastAlerting = new HashMap<>();
    for (long end = model.warmupDays(); end <= days; end++) {
      for (Finding f : model.scan(table, end, 0, List.of())) {
        if (f.alert()) {
          Long last = lastAlerting.put(f.key(), end);
          if (last == null || end - last > model.windowDays()) {
            episodes++;
          }
        }
      }
    }
    return episodes;
  }

  @Test
  void aSparseFrameworkSpendsTheBudgetInProportionToItsIssues() {
    assertEquals(0.2, model.budget(60), 1e-12);
    assertEquals(0.2 * 6 / AlertModel.FULL_BUDGET_ISSUES, model.budget(6), 1e-12);
    assertEquals(0.2, model.withFullBudgetIssues(0).budget(1), 1e-12);
    Stream s = new Stream().background(0, 300, 0.2, new Random(21));
    for (int i = 0; i < 8; i++) {
      s.add(280 + i % 5, "CHECKPOINT_FAILURE", "MEMORY");
    }
    Finding f = find(model.scan(s.table(0, 300), 287, 0, List.of()), "SYMPTOM|CHECKPOINT_FAILURE");
    long baseline =
        s.issues.entrySet().stream()
            .filter(e -> e.getKey() >= 287 - 28 - 182 && e.getKey() < 287 - 28)
            .mapToLong(e -> e.getValue().size())
            .sum();
    assertEquals(model.budget(baseline * 30.44 / 182), f.budget(), 1e-9, f.toString());
    assertTrue(f.budget() < 0.5 * model.falseAlertsPerMonth(), f.toString());
    assertTrue(f.alert(), "eight in a week of a framework of six a month still alert: " + f);
  }

  @Test
  void aCrowdOfSparseFrameworksStaysWithinTheBudgetPerIssue() {
    // 24 stationary frameworks of one issue a week each, two years: about 104 issues a month
    // together, so at most 0.2 × 104 / 20 = 1.04 false alerts a month among them all. Spending
    // the whole 0.2 per framework-month, every small framework would add its own.
    int frameworks = 24;
    long days = 730;
    Random r = new Random(41);
    int episodes = 0;
    long issues = 0;
    for (int k = 0; k < frameworks; k++) {
      Stream s = new Stream().background(0, days, 1 / 7.0, r);
      issues += s.issues.values().stream().mapToLong(List::size).sum();
      episodes += episodes(model, s.table(0, days), days);
    }
    double months = (days - model.warmupDays()) / 30.44;
    // the documented default: the whole budget at 20 issues a month
    double bound = model.falseAlertsPerMonth() * issues / (days / 30.44) / 20;
    assertTrue(
        episodes / months <= bound,
        episodes + " episodes, " + episodes / months + " a month against at most " + bound);
  }

  @Test
  void aBusyWeekOfEveryCategoryIsNotASurgeOfOne() {
    // A release week: three times the volume, same mix. The CUSUMs read shares, not counts.
    Stream s =
        new Stream()
            .background(0, 300, 2.0, new Random(8))
            .background(280, 287, 6.0, new Random(9));
    List<Finding> findings = model.scan(s.table(0, 300), 287, 0, List.of());
    assertTrue(
        findings.stream().noneMatch(Finding::alert),
        findings.stream().filter(Finding::alert).toList().toString());
    Finding crash = find(findings, "SYMPTOM|RUNTIME_CRASH");
    assertTrue(crash.statistic() < crash.threshold(), crash.toString());
    // three times as many crashes as a quiet week's, and about as many as the busy week's share
    // expects
    assertTrue(crash.count() <= 2 * crash.expected(), crash.toString());
  }

  @Test
  void needsTheMinimumSupportHoweverUnlikely() {
    Stream s = new Stream().background(0, 300, 2.0, new Random(4));
    s.add(283, "MEMORY_ANOMALY", "MEMORY");
    s.add(284, "MEMORY_ANOMALY", "MEMORY");
    Finding f = find(model.scan(s.table(0, 300), 287, 0, List.of()), "SYMPTOM|MEMORY_ANOMALY");
    assertTrue(f.pValue() < 0.05, "unlikely: " + f);
    assertFalse(f.alert(), "but two issues are below the minimum support: " + f);
  }

  @Test
  void aFirstCombinationInASparseStreamIsNoNewsButSeveralInAWeekAfterALongAbsenceAre() {
    Random r = new Random(6);
    // sparse: 2 issues a week; HANG never met INITIALIZATION
    Stream sparse = new Stream();
    for (long d = 0; d < 300; d += 1) {
      if (r.nextDouble() < 2 / 7.0) {
        sparse.add(d, r.nextBoolean() ? "HANG" : "RUNTIME_CRASH", "COMMUNICATION");
      }
    }
    sparse.add(285, "HANG", "INITIALIZATION");
    // the family as before the actionable filter (its majority codes tested too)
    Finding once =
        find(
            model
                .actionable(java.util.Set.of(), true)
                .scan(sparse.table(0, 300), 287, 0, List.of()),
            "SYMPTOM|HANG|INITIALIZATION");
    assertEquals(AlertKind.NEW_COMBINATION, once.kind());
    assertEquals(0, once.baselineCount());
    assertTrue(
        once.adjustedPValue() > 0.5,
        "a first occurrence in a sparse stream is not unlikely among the framework's tests: "
            + once);
    assertTrue(once.statistic() <= Math.log(10) + 1e-9, once.toString());
    assertFalse(once.alert());

    Stream busy = new Stream().background(0, 300, 4.0, new Random(7));
    busy.issues
        .values()
        .forEach(list -> list.removeIf(i -> i[0].equals("HANG") && i[1].equals("INITIALIZATION")));
    for (int i = 0; i < 6; i++) {
      busy.add(281 + i, "HANG", "INITIALIZATION");
    }
    Finding six =
        find(model.scan(busy.table(0, 300), 287, 0, List.of()), "SYMPTOM|HANG|INITIALIZATION");
    assertTrue(six.alert(), six.toString());
    // absent from ~730 baseline issues: about a window's issues / (N + 2), far below the six seen
    assertTrue(six.expected() > 0 && six.expected() < 0.5, six.toString());
  }

  @Test
  void comparesTheWeeksAfterAReleaseWithTheWeeksBefore() {
    Stream s = new Stream().background(0, 300, 2.0, new Random(12));
    for (int i = 0; i < 28; i++) {
      s.add(
          250 + i,
          "OUT_OF_MEMORY",
          "MEMORY"); // one more OOM a day after release 0.15.0 on day 250: about 4 times the rate
    }
    List<Finding> findings =
        model.scan(
            s.table(0, 300),
            250 + model.releaseAfterDays(),
            0,
            List.of(new AlertModel.ReleaseMark("0.15.0", 250)));
    Finding release =
        findings.stream()
            .filter(f -> "0.15.0".equals(f.release()) && f.key().equals("SYMPTOM|OUT_OF_MEMORY"))
            .findFirst()
            .orElseThrow();
    assertTrue(release.alert(), release.toString());
    assertEquals(250, release.windowStartDay());
    assertEquals(250 - model.releaseBeforeDays(), release.baselineStartDay());
    assertTrue(
        release.count()
            > 2
                * release.baselineCount()
                * model.releaseAfterDays()
                / (double) model.releaseBeforeDays(),
        release.toString());
    Finding unchanged =
        findings.stream()
            .filter(f -> "0.15.0".equals(f.release()) && f.key().equals("SYMPTOM|RUNTIME_CRASH"))
            .findFirst()
            .orElseThrow();
    assertFalse(unchanged.alert(), unchanged.toString());
  }

  @Test
  void testsNothingDuringTheWarmUp() {
    Stream s = new Stream().background(0, 40, 5.0, new Random(1));
    for (int i = 0; i < 20; i++) {
      s.add(35, "HANG", "COMMUNICATION");
    }
    assertTrue(model.scan(s.table(0, 40), 40, 0, List.of()).isEmpty());
    assertNull(find(model.scan(s.table(0, 40), 40, 0, List.of()), "SYMPTOM|HANG"));
  }

  @Test
  void rejectsAFalseAlertBudgetOutOfRangeAndARunShorterThanTheWindow() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new AlertModel(7, 28, 182, 56, 10, 0, 3, 2, 1, 56, 28));
    assertTrue(e.getMessage().contains("false alerts per framework-month"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new AlertModel(7, 5, 182, 56, 10, 0.1, 3, 2, 1, 56, 28));
    assertTrue(e.getMessage().contains("--alert-max-run"), e.getMessage());
  }

  @Test
  void phaseAndADimensionsMajorityCodeAreNotAlertedOnByDefaultButCanBe() {
    Random r = new Random(31);
    DailyTable.Builder b = DailyTable.builder(0, 300);
    for (long d = 0; d < 300; d++) {
      int n = poisson(4.0, r) + (d >= 280 && d < 287 ? 5 : 0);
      for (int i = 0; i < n; i++) {
        boolean surge = d >= 280 && i < 5;
        // phase: TRAINING 80%, INFERENCE 20%; symptom: RUNTIME_CRASH the majority (60%)
        String phase = surge || r.nextDouble() < 0.2 ? "INFERENCE" : "TRAINING";
        String symptom = surge || r.nextDouble() < 0.6 ? "RUNTIME_CRASH" : "HANG";
        b.add(AlertKeys.category(Dimension.PHASE, phase), d, 1);
        b.add(AlertKeys.category(Dimension.SYMPTOM, symptom), d, 1);
      }
    }
    DailyTable table = b.build();
    List<Finding> quiet = model.scan(table, 287, 0, List.of());
    assertNull(find(quiet, "PHASE|INFERENCE"), "phase is not tested by default: " + quiet);
    assertNull(find(quiet, "SYMPTOM|RUNTIME_CRASH"), "nor a majority code: " + quiet);
    List<Finding> all = model.actionable(java.util.Set.of(), true).scan(table, 287, 0, List.of());
    assertTrue(find(all, "PHASE|INFERENCE").alert(), all.toString());
    assertTrue(find(all, "SYMPTOM|RUNTIME_CRASH").alert(), all.toString());
    List<Finding> phaseOnly =
        model.actionable(java.util.Set.of(Dimension.KIND), false).scan(table, 287, 0, List.of());
    assertTrue(find(phaseOnly, "PHASE|INFERENCE").alert(), phaseOnly.toString());
    assertNull(find(phaseOnly, "SYMPTOM|RUNTIME_CRASH"), phaseOnly.toString());
  }
}
