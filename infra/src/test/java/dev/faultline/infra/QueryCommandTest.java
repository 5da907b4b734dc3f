package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The confidence bar of {@code faultline query}, checked before any connection is made. */
class QueryCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return new QueryCommand(env)
        .run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void listsTheConfidenceBarOfTheCountingQueries() {
    assertEquals(0, run(Map.of(), "--list"));
    String listing = out.toString(StandardCharsets.UTF_8);
    assertTrue(
        listing.contains(
            "--param minConfidence=Confidence  (default: calibrated per dimension, or FAULTLINE_MIN_CONFIDENCE)"),
        listing);
    assertTrue(
        listing.contains(
            "columns: code, code2, estimate, estimateLow, estimateHigh, share, shareLow, shareHigh, method,"
                + " basis, note, labelled, sampleSize, inScope, coverage"),
        listing);
  }

  @Test
  void rejectsABadBarOnTheCommandLineOrInTheEnvironmentNamingIt() {
    assertEquals(2, run(Map.of(), "stage-symptom-matrix", "--param", "minConfidence=high"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("minConfidence"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, run(Map.of("FAULTLINE_MIN_CONFIDENCE", "most"), "stage-symptom-matrix"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("FAULTLINE_MIN_CONFIDENCE"),
        err.toString(StandardCharsets.UTF_8));
  }
}
