package dev.faultline.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobArgsTest {
  private static final JobIo.Defaults DEFAULTS =
      new JobIo.Defaults("the-group", Duration.ofSeconds(5));

  @Test
  void separatesNamedValuesFromKafkaPassThroughProperties() {
    JobArgs args =
        JobArgs.parse(new String[] {"--group-id", "g", "--kafka.security.protocol", "SASL_SSL"});
    assertEquals(Map.of("group-id", "g"), args.named());
    assertEquals(Map.of("security.protocol", "SASL_SSL"), args.kafka());
  }

  @Test
  void argumentsWinOverTheEnvironmentForKafkaAndNeo4j() {
    Map<String, String> env =
        Map.of(
            "FAULTLINE_KAFKA_BOOTSTRAP_SERVERS",
            "env:9092",
            "FAULTLINE_NEO4J_PASSWORD",
            "from-env",
            "FAULTLINE_NEO4J_DATABASE",
            "envdb");
    JobArgs args = JobArgs.parse(new String[] {"--neo4j-uri", "neo4j+s://graph.example:7687"});
    JobIo io = args.io(env, DEFAULTS);
    assertEquals("env:9092", io.kafka().bootstrap());
    assertEquals("neo4j+s://graph.example:7687", io.graph().uri());
    assertEquals("from-env", io.graph().password());
    assertEquals("envdb", io.graph().database(), "the environment's database is kept");
    assertEquals(
        "k:1",
        JobArgs.parse(new String[] {"--kafka-bootstrap", "k:1"})
            .io(env, DEFAULTS)
            .kafka()
            .bootstrap());
  }

  @Test
  void theJobsIoFallsBackToItsDefaultsAndTheCheckpointDirectoryOfTheEnvironment() {
    Map<String, String> env =
        Map.of("FAULTLINE_NEO4J_PASSWORD", "p", "FAULTLINE_CHECKPOINT_DIR", "file:///ckpt");
    JobIo io = JobArgs.parse(new String[0]).io(env, DEFAULTS);
    assertEquals("127.0.0.1:9092", io.kafka().bootstrap());
    assertEquals("the-group", io.groupId());
    assertEquals(new JobIo.Checkpoints(Duration.ofSeconds(5), "file:///ckpt"), io.checkpoints());
    assertEquals(SinkOptions.DEFAULTS, io.sink());
    assertEquals(0, io.parallelism());

    JobIo given =
        JobArgs.parse(
                new String[] {
                  "--group-id", "g",
                  "--sink-batch-size", "250",
                  "--sink-flush-ms", "50",
                  "--checkpoint-interval-ms", "2000",
                  "--parallelism", "3",
                  "--kafka.security.protocol", "SSL"
                })
            .io(Map.of("FAULTLINE_NEO4J_PASSWORD", "p"), DEFAULTS);
    assertEquals("g", given.groupId());
    assertEquals(
        new SinkOptions(250, Duration.ofMillis(50), SinkOptions.DEFAULTS.maxBackoff()),
        given.sink());
    assertEquals(Duration.ofSeconds(2), given.checkpoints().interval());
    assertNull(given.checkpoints().directory());
    assertEquals(3, given.parallelism());
    assertEquals("SSL", given.kafka().clientProperties().getProperty("security.protocol"));
  }

  @Test
  void aValueThatIsNotANumberNamesItsFlag() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                JobArgs.parse(new String[] {"--sink-batch-size", "lots"})
                    .io(Map.of("FAULTLINE_NEO4J_PASSWORD", "p"), DEFAULTS));
    assertEquals("--sink-batch-size 'lots' is not a whole number", e.getMessage());
  }

  @Test
  void rejectsAFlagWithoutItsValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> JobArgs.parse(new String[] {"--parallelism"}));
    assertEquals("Expected --name value pairs, got '--parallelism'", e.getMessage());
  }
}
