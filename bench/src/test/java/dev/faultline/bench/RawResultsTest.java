package dev.faultline.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RawResultsTest {
  @Test
  void namesJmhScoresByMethodAndSize() throws Exception {
    String jmh =
        """
        [
          {"benchmark": "dev.faultline.classifier.bench.ClassifierBenchmark.classify", "params": {"bytes": "1024"},
           "primaryMetric": {"score": 2959.5, "scoreUnit": "ops/s"}},
          {"benchmark": "dev.faultline.classifier.bench.ClassifierBenchmark.tokenizeOnly", "params": {"bytes": "1024"},
           "primaryMetric": {"score": 163788.0, "scoreUnit": "ops/s"}}
        ]""";
    assertEquals(
        Map.of("classify_1024_per_s", 2959.5, "tokenize_1024_per_s", 163788.0),
        RawResults.fromJmh(new ObjectMapper().readTree(jmh)));
  }

  @Test
  void takesTheLastRoundOfTheStatisticsBenchmarkOutput() {
    String printed =
        """
        events=50000, one slot, windows [P7D] sliding by P1D, in-order live stream with re-classifications
        round 1: pass-through 101,000 events/s; category-stats 20,500 events/s (20.3% of pass-through)
        round 2: pass-through 120,000 events/s; category-stats 30,000 events/s (25.0% of pass-through)
        """;
    assertEquals(
        Optional.of(Map.of("passthrough_events_per_s", 120_000.0, "stats_events_per_s", 30_000.0)),
        RawResults.parseStats(printed));
    assertEquals(Optional.empty(), RawResults.parseStats("Exception in thread main"));
  }

  @Test
  void benchCommandPrintsHelpAndRejectsBadArgumentsWithTheUsage() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(0, BenchCommand.run(new String[] {"--help"}, o, e));
    String help = out.toString(StandardCharsets.UTF_8);
    assertTrue(
        help.startsWith("Usage: faultline bench")
            && help.contains("--repeats=N")
            && help.contains("--quick")
            && help.contains("pipeline")
            && help.contains("Default: 20"),
        help);

    assertEquals(2, BenchCommand.run(new String[] {"--repeats", "0", "--report-only"}, o, e));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("--repeats must be at least 1, got 0"),
        err.toString());
    err.reset();
    assertEquals(
        2, BenchCommand.run(new String[] {"--only", "receiver,nope", "--report-only"}, o, e));
    String stage = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        stage.contains("unknown stage 'nope'") && stage.contains("Usage: faultline bench"), stage);
    err.reset();
    assertEquals(2, BenchCommand.run(new String[] {"--repeats", "many"}, o, e));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("'many' is not an int"), err.toString());
  }
}
