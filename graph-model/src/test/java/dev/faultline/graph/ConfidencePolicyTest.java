package dev.faultline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfidencePolicyTest {

  @Test
  void parsesANumberAllCalibratedAndDefault() {
    ConfidencePolicy fallback = ConfidencePolicy.atLeast(0.7);
    assertEquals(ConfidencePolicy.Mode.FIXED, ConfidencePolicy.parse("0.8", fallback).mode());
    assertEquals(0.8, ConfidencePolicy.parse("0.8", fallback).bar("rootCause"));
    assertEquals(ConfidencePolicy.all(), ConfidencePolicy.parse("all", fallback));
    assertEquals(ConfidencePolicy.all(), ConfidencePolicy.parse("0", fallback));
    assertEquals(ConfidencePolicy.calibrated(), ConfidencePolicy.parse("calibrated", fallback));
    assertEquals(fallback, ConfidencePolicy.parse("default", fallback));
    assertEquals(fallback, ConfidencePolicy.parse(" ", fallback));
  }

  @Test
  void rejectsABarOutsideZeroToOneNamingWhatIsAccepted() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ConfidencePolicy.parse("1.5", ConfidencePolicy.all()));
    assertTrue(e.getMessage().contains("from 0 to 1"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ConfidencePolicy.parse("sure", ConfidencePolicy.all()));
  }

  @Test
  void aHumanGivenLabelAlwaysPassesAndAMissingConfidenceOnlyABarOfZero() {
    ConfidencePolicy p = ConfidencePolicy.atLeast(0.9);
    assertTrue(p.passes("symptom", 0.9, false));
    assertFalse(p.passes("symptom", 0.89, false));
    assertTrue(p.passes("symptom", 0.1, true));
    assertFalse(p.passes("kind", null, false));
    assertTrue(ConfidencePolicy.all().passes("kind", null, false));
    assertEquals(p.bar("symptom"), p.bar("symptomClass"));
  }

  @Test
  void theSystemPropertyWinsOverTheEnvironmentAndTheDefaultIsCalibrated() {
    Properties props = new Properties();
    Map<String, String> env = Map.of(ConfidencePolicy.ENVIRONMENT, "0.6");
    assertEquals(0.6, ConfidencePolicy.fromEnvironment(env, props).bar("stage"));
    props.setProperty(ConfidencePolicy.PROPERTY, "all");
    assertEquals(ConfidencePolicy.all(), ConfidencePolicy.fromEnvironment(env, props));
    assertEquals(
        ConfidencePolicy.calibrated(),
        ConfidencePolicy.fromEnvironment(Map.of(), new Properties()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            ConfidencePolicy.fromEnvironment(
                Map.of(ConfidencePolicy.ENVIRONMENT, "x"), new Properties()));
  }

  @Test
  void describesItselfForPeople() {
    assertEquals("≥ 90% precision", ConfidencePolicy.calibrated().describe());
    assertEquals("confidence ≥ 0.75", ConfidencePolicy.atLeast(0.75).describe());
    assertEquals("all labels", ConfidencePolicy.all().describe());
    assertEquals("0.75", ConfidencePolicy.atLeast(0.75).toText());
  }
}
