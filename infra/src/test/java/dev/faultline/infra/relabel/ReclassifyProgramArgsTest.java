package dev.faultline.infra.relabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.infra.Faultline;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.JobArgs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code reclassify --jobmanager} hands the job on the cluster, and its help. */
class ReclassifyProgramArgsTest {

  @Test
  void theClusterJobGetsTheConnectionTheReplayFlagAndTheScope() {
    Reclassify.Scope scope =
        new Reclassify.Scope(Instant.parse("2024-01-01T00:00:00Z"), null, "DeepSpeed");
    List<String> connection =
        List.of(
            "--group-id",
            "faultline-reclassify-1a2b3c4d",
            "--checkpoint-interval-ms",
            "2000",
            "--kafka-bootstrap",
            "kafka:9092",
            "--neo4j-password",
            "pw");
    List<String> args = Reclassify.clusterProgramArgs(connection, scope);
    assertEquals(connection, args.subList(0, connection.size()), "the job's flags first");
    // IssuePipelineJob.main reads them back: a bounded replay of that scope, under that group.
    JobConfig parsed = JobConfig.fromArgs(args.toArray(String[]::new), Map.of());
    assertEquals(
        Replay.of(new ReplayScope(Instant.parse("2024-01-01T00:00:00Z"), null, "DeepSpeed")),
        parsed.replay(),
        "bounded: " + args);
    assertEquals("faultline-reclassify-1a2b3c4d", parsed.io().groupId());
    assertTrue(
        Replay.fromArgs(
                JobArgs.parse(
                    Reclassify.clusterProgramArgs(connection, Reclassify.Scope.all())
                        .toArray(String[]::new)))
            .bounded(),
        "an unscoped replay is bounded too");
  }

  @Test
  void theHelpSaysWhyABoundedReplayAndHowToRunItOnACluster() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    new Faultline().run(new String[] {"reclassify", "--help"}, print, print);
    String help = bytes.toString(StandardCharsets.UTF_8);
    for (String s :
        List.of("--jobmanager", "FAULTLINE_FLINK_JOBMANAGER", "system of record", "resumable")) {
      assertTrue(help.contains(s), s + " in: " + help);
    }
  }
}
