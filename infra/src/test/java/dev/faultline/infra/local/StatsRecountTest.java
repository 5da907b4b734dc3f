package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.infra.local.StatsRecount.Comparison;
import dev.faultline.infra.local.StatsRecount.IssueFacts;
import dev.faultline.infra.local.StatsRecount.Key;
import dev.faultline.infra.local.StatsRecount.Settings;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.StatDimensions;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recount and comparison behind the drills' statistics check, on hand-made graphs and counts.
 */
class StatsRecountTest {
  /** One two-day window, daily buckets: small enough to write the expected counts out. */
  private static final Settings SETTINGS =
      new Settings(List.of(Duration.ofDays(2)), Duration.ofDays(1), Duration.ofHours(6));

  private static final long JUNE_3 = at("2024-06-03T00:00:00Z");
  private static final long JUNE_10 = at("2024-06-10T00:00:00Z");

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static IssueFacts issue(String id, String symptom, String created, String newest) {
    Map<Dimension, String> categories = new EnumMap<>(Dimension.class);
    for (Dimension d : StatDimensions.COUNTED) {
      categories.put(d, "UNKNOWN");
    }
    categories.put(Dimension.SYMPTOM, symptom);
    return new IssueFacts(id, "DeepSpeed", null, false, at(created), at(newest), categories);
  }

  private static Key window(Dimension d, String category, String end) {
    long e = at(end);
    return Key.rolling("DeepSpeed", d, category, "P2D", e - Duration.ofDays(2).toMillis(), e);
  }

  /**
   * What the job writes for issues that entered on June 1st: the two windows holding that day, per
   * dimension.
   */
  private static Map<Key, Long> june1st(long hangs, long crashes) {
    Map<Key, Long> stored = new HashMap<>();
    for (String end : List.of("2024-06-02T00:00:00Z", "2024-06-03T00:00:00Z")) {
      for (Dimension d : StatDimensions.COUNTED) {
        if (d != Dimension.SYMPTOM) {
          stored.put(window(d, "UNKNOWN", end), hangs + crashes);
        }
      }
      stored.put(window(Dimension.SYMPTOM, "HANG", end), hangs);
      stored.put(window(Dimension.SYMPTOM, "CRASH", end), crashes);
    }
    return stored;
  }

  private static final List<IssueFacts> JUNE_1ST =
      List.of(
          issue("acme/x#1", "HANG", "2024-06-01T08:00:00Z", "2024-06-01T20:00:00Z"),
          issue("acme/x#2", "HANG", "2024-06-01T09:00:00Z", "2024-06-01T09:00:00Z"),
          issue("acme/x#3", "CRASH", "2024-06-01T10:00:00Z", "2024-06-01T11:00:00Z"));

  @Test
  void agreesWithCountsThatHoldEachIssueOnce() {
    Comparison c = StatsRecount.compare(JUNE_1ST, june1st(2, 1), SETTINGS, JUNE_10);

    assertTrue(c.agrees(), c.report());
    assertEquals(c.compared(), c.exact());
  }

  @Test
  void reportsADoubleCountedIssueWithTheCountItsIn() {
    Map<Key, Long> doubled = june1st(2, 1);
    doubled.put(window(Dimension.SYMPTOM, "HANG", "2024-06-03T00:00:00Z"), 3L);

    Comparison c = StatsRecount.compare(JUNE_1ST, doubled, SETTINGS, JUNE_10);

    assertFalse(c.agrees());
    assertEquals(
        List.of(
            "DeepSpeed symptom=HANG P2D [2024-06-01T00:00:00Z, 2024-06-03T00:00:00Z): stored 3, recount 2"),
        c.mismatches());
    assertTrue(c.report().contains("stored 3, recount 2"), c.report());
  }

  @Test
  void reportsALostIssueAndAMissingCount() {
    Map<Key, Long> lost = june1st(1, 1);
    lost.remove(window(Dimension.SYMPTOM, "CRASH", "2024-06-02T00:00:00Z"));

    Comparison c = StatsRecount.compare(JUNE_1ST, lost, SETTINGS, JUNE_10);

    assertTrue(
        c.mismatches()
            .contains(
                "DeepSpeed symptom=HANG P2D [2024-05-31T00:00:00Z, 2024-06-02T00:00:00Z): stored 1, recount 2"),
        c.report());
    assertTrue(
        c.mismatches()
            .contains(
                "DeepSpeed symptom=CRASH P2D [2024-05-31T00:00:00Z, 2024-06-02T00:00:00Z): stored nothing, recount 1"),
        c.report());
  }

  @Test
  void reportsACountLeftForAnIssueThatMovedOrWasDeleted() {
    Map<Key, Long> stale = june1st(2, 1);
    stale.put(window(Dimension.SYMPTOM, "OOM", "2024-06-02T00:00:00Z"), 1L);

    Comparison c = StatsRecount.compare(JUNE_1ST, stale, SETTINGS, JUNE_10);

    assertEquals(
        List.of(
            "DeepSpeed symptom=OOM P2D [2024-05-31T00:00:00Z, 2024-06-02T00:00:00Z): stored 1, recount 0"),
        c.mismatches());
  }

  @Test
  void leavesOutWindowsTheWatermarkHasNotClosed() {
    Map<Key, Long> stored = june1st(2, 1);
    stored.put(
        window(Dimension.SYMPTOM, "HANG", "2024-06-04T00:00:00Z"), 7L); // not emitted for good yet

    assertTrue(StatsRecount.compare(JUNE_1ST, stored, SETTINGS, JUNE_3).agrees());
    assertFalse(StatsRecount.compare(JUNE_1ST, stored, SETTINGS, JUNE_10).agrees());
  }

  @Test
  void boundsAWindowThatCutsAnIssuesSpanAndPinsItInOneThatHoldsIt() {
    // Opened on June 1st, closed on June 2nd: it entered its category on one of the two days, the
    // graph cannot tell.
    List<IssueFacts> issues =
        List.of(issue("acme/x#4", "HANG", "2024-06-01T08:00:00Z", "2024-06-02T08:00:00Z"));
    Map<Key, Long> stored = new HashMap<>();
    for (Dimension d : StatDimensions.COUNTED) {
      String category = d == Dimension.SYMPTOM ? "HANG" : "UNKNOWN";
      stored.put(window(d, category, "2024-06-02T00:00:00Z"), 1L);
      stored.put(window(d, category, "2024-06-03T00:00:00Z"), 1L);
    }

    Comparison counted = StatsRecount.compare(issues, stored, SETTINGS, JUNE_10);
    stored.put(window(Dimension.SYMPTOM, "HANG", "2024-06-02T00:00:00Z"), 0L);
    Comparison enteredOnClose = StatsRecount.compare(issues, stored, SETTINGS, JUNE_10);
    stored.put(window(Dimension.SYMPTOM, "HANG", "2024-06-03T00:00:00Z"), 2L);
    Comparison doubled = StatsRecount.compare(issues, stored, SETTINGS, JUNE_10);

    assertTrue(counted.agrees(), counted.report());
    assertTrue(enteredOnClose.agrees(), enteredOnClose.report());
    assertEquals(
        List.of(
            "DeepSpeed symptom=HANG P2D [2024-06-01T00:00:00Z, 2024-06-03T00:00:00Z): stored 2, recount 1"),
        doubled.mismatches());
  }

  @Test
  void requiresEveryIssueInAnExactCount() {
    // Open for a week: no two-day window holds its whole span, and it reports no release.
    IssueFacts longLived =
        issue("acme/x#5", "HANG", "2024-06-01T08:00:00Z", "2024-06-08T08:00:00Z");
    Map<Key, Long> none = Map.of();

    Comparison c = StatsRecount.compare(List.of(longLived), none, SETTINGS, JUNE_10);
    IssueFacts withRelease =
        new IssueFacts(
            longLived.id(),
            longLived.framework(),
            "0.14.2",
            false,
            longLived.createdAt(),
            longLived.stateVersion(),
            longLived.categories());
    Comparison released = StatsRecount.compare(List.of(withRelease), none, SETTINGS, JUNE_10);

    assertTrue(c.mismatches().isEmpty(), "every window cuts its span: 0 is possible everywhere");
    assertEquals(StatDimensions.COUNTED.size(), c.uncounted().size());
    assertFalse(c.agrees());
    assertEquals(List.of(), released.uncounted());
    assertTrue(
        released
            .mismatches()
            .contains("DeepSpeed symptom=HANG release 0.14.2: stored nothing, recount 1"),
        released.report());
  }

  @Test
  void countsNothingForADeletedIssue() {
    IssueFacts deleted = JUNE_1ST.get(2);
    deleted =
        new IssueFacts(
            deleted.id(),
            deleted.framework(),
            null,
            true,
            deleted.createdAt(),
            deleted.stateVersion(),
            deleted.categories());

    Comparison c =
        StatsRecount.compare(
            List.of(JUNE_1ST.get(0), JUNE_1ST.get(1), deleted), june1st(2, 1), SETTINGS, JUNE_10);

    assertTrue(
        c.mismatches()
            .contains(
                "DeepSpeed symptom=CRASH P2D [2024-06-01T00:00:00Z, 2024-06-03T00:00:00Z): stored 1, recount 0"),
        c.report());
  }
}
