package dev.faultline.infra.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.infra.BenchCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RawResultsTest {
  @Test
  void namesJmhScoresByMethodAndSize() throws Exception {
    String jmh = """
        [
          {"benchmark": "dev.faultline.classifier.bench.ClassifierBenchmark.classify", "params": {"bytes": "1024"},
           "primaryMetric": {"score": 2959.5, "scoreUnit": "ops/s"}},
          {"benchmark": "dev.faultline.classifier.bench.ClassifierBenchmark.tokenizeOnly", "params": {"bytes": "1024"},
           "primaryMetric": {"score": 163788.0, "scoreUnit": "ops/s"}}
        ]""";
    assertEquals(Map.of("classify_1024_per_s", 2959.5, "tokenize_1024_per_s", 163788.0),
        RawResults.fromJmh(new ObjectMapper().readTree(jmh)));
  }

  @Test
  void takesTheLastRoundOfTheStatisticsBenchmarkOutput() {
    String printed = """
        events=50000, one slot, windows [P7D] sliding by P1D, in-order live stream with re-classifications
        round 1: pass-through 101,000 events/s; category-stats 20,500 events/s (20.3% of pass-through)
        round 2: pass-through 120,000 events/s; category-stats 30,000 events/s (25.0% of pass-through)
        """;
    assertEquals(Optional.of(Map.of("passthrough_events_per_s", 120_000.0, "stats_events_per_s", 30_000.0)),
        RawResults.parseStats(printed));
    assertEquals(Optional.empty(), RawResults.parseStats("Exception in thread main"));
  }

  @Test
  void benchCommandPrintsHelpAndRejectsBadArguments() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertEquals(0, new BenchCommand().run(new String[] {"--help"}, stream, stream));
    String help = out.toString(StandardCharsets.UTF_8);
    assertTrue(help.contains("--repeats N") && help.contains("--quick") && help.contains("pipeline"), help);

    IllegalArgumentException repeats = assertThrows(IllegalArgumentException.class,
        () -> new BenchCommand().run(new String[] {"--repeats", "0", "--report-only"}, stream, stream));
    assertTrue(repeats.getMessage().contains("--repeats"), repeats.getMessage());
    IllegalArgumentException stage = assertThrows(IllegalArgumentException.class,
        () -> new BenchCommand().run(new String[] {"--only", "receiver,nope", "--report-only"}, stream, stream));
    assertTrue(stage.getMessage().contains("unknown stage 'nope'"), stage.getMessage());
  }
}
