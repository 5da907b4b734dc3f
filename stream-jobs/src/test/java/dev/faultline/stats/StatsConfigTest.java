package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsConfigTest {
  private static final Map<String, String> ENV = Map.of("FAULTLINE_NEO4J_PASSWORD", "secret");

  @Test
  void defaultsAreSevenAndThirtyDaySlidingByADay() {
    StatsConfig c = StatsConfig.fromArgs(new String[0], ENV);
    assertEquals(List.of(Duration.ofDays(7), Duration.ofDays(30)), c.windows());
    assertEquals(Duration.ofDays(1), c.slide());
    assertEquals(30, c.maxWindowSlides());
    assertEquals(7, c.alerts().windowDays());
    assertEquals(182, c.alerts().baselineDays());
    assertFalse(c.bounded());
    assertFalse(c.toString().contains("secret"), "password masked");
  }

  @Test
  void aGroupGivenAloneLeavesTheTransactionalIdsTheirDefaultPrefix() {
    StatsConfig c = StatsConfig.fromArgs(new String[] {"--group-id", "g2"}, ENV);
    assertEquals("g2", c.io().groupId());
    assertEquals("faultline-category-stats", c.transactionalIdPrefix());
  }

  @Test
  void readsWindowsAndEventTimeSettings() {
    StatsConfig c =
        StatsConfig.fromArgs(
            new String[] {
              "--windows",
              "P14D,P3D",
              "--allowed-lateness",
              "P2D",
              "--out-of-orderness",
              "PT1H",
              "--alert-min-count",
              "8",
              "--alert-false-rate",
              "0.05",
              "--alert-max-run",
              "P21D",
              "--release-after",
              "P21D",
              "--bounded",
              "true"
            },
            ENV);
    assertEquals(List.of(Duration.ofDays(3), Duration.ofDays(14)), c.windows());
    assertEquals(Duration.ofDays(2), c.eventTime().allowedLateness());
    assertEquals(Duration.ofHours(1), c.eventTime().outOfOrderness());
    assertEquals(8, c.alerts().minCount());
    assertEquals(0.05, c.alerts().falseAlertsPerMonth(), 1e-12);
    assertEquals(21, c.alerts().runDays());
    assertEquals(21, c.alerts().releaseAfterDays());
    assertTrue(c.bounded());
  }

  @Test
  void rejectsAWindowThatIsNotWholeSlides() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StatsConfig.fromArgs(new String[] {"--windows", "PT36H"}, ENV));
    assertTrue(e.getMessage().contains("multiple of the slide"), e.getMessage());
  }

  @Test
  void rejectsAnAlertWindowThatIsNotWholeDaysAndAFalseAlertBudgetOutOfRange() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StatsConfig.fromArgs(new String[] {"--alert-window", "PT36H"}, ENV));
    assertTrue(e.getMessage().contains("--alert-window"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StatsConfig.fromArgs(new String[] {"--alert-false-rate", "-1"}, ENV));
    assertTrue(e.getMessage().contains("false alerts per framework-month"), e.getMessage());
    // the flags of the window tests that the CUSUMs replaced are refused, not silently ignored
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StatsConfig.fromArgs(new String[] {"--alert-fdr", "0.01"}, ENV));
    assertTrue(e.getMessage().contains("--alert-false-rate"), e.getMessage());
  }

  @Test
  void namesTheFlagOfABadDuration() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StatsConfig.fromArgs(new String[] {"--idleness", "5 minutes"}, ENV));
    assertTrue(e.getMessage().contains("--idleness"), e.getMessage());
  }

  @Test
  void theActionableFilterIsQuietOnPhaseAndKindAndMajorityCodesUnlessToldOtherwise() {
    StatsConfig d = StatsConfig.fromArgs(new String[0], ENV);
    org.junit.jupiter.api.Assertions.assertEquals(
        java.util.Set.of(
            dev.faultline.schemas.taxonomy.Dimension.PHASE,
            dev.faultline.schemas.taxonomy.Dimension.KIND),
        d.alerts().quietDimensions());
    org.junit.jupiter.api.Assertions.assertFalse(d.alerts().majorityAlerts());
    StatsConfig c =
        StatsConfig.fromArgs(
            new String[] {"--alert-quiet-dimensions", "none", "--alert-majority-codes", "true"},
            ENV);
    org.junit.jupiter.api.Assertions.assertEquals(java.util.Set.of(), c.alerts().quietDimensions());
    org.junit.jupiter.api.Assertions.assertTrue(c.alerts().majorityAlerts());
    StatsConfig s =
        StatsConfig.fromArgs(new String[] {"--alert-quiet-dimensions", "stage,phase"}, ENV);
    org.junit.jupiter.api.Assertions.assertEquals(
        java.util.Set.of(
            dev.faultline.schemas.taxonomy.Dimension.STAGE,
            dev.faultline.schemas.taxonomy.Dimension.PHASE),
        s.alerts().quietDimensions());
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> StatsConfig.fromArgs(new String[] {"--alert-quiet-dimensions", "colour"}, ENV));
  }
}
