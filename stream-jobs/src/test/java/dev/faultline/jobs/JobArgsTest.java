package dev.faultline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JobArgsTest {
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
            "from-env");
    JobArgs args = JobArgs.parse(new String[] {"--neo4j-uri", "neo4j+s://graph.example:7687"});
    assertEquals("env:9092", args.kafkaBootstrap(env));
    assertEquals("neo4j+s://graph.example:7687", args.graph(env).uri());
    assertEquals("from-env", args.graph(env).password());
  }

  @Test
  void rejectsAFlagWithoutItsValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> JobArgs.parse(new String[] {"--parallelism"}));
    assertEquals("Expected --name value pairs, got '--parallelism'", e.getMessage());
  }
}
