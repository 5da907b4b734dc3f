package dev.faultline.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.GraphConfig;
import dev.faultline.stats.StatsConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The local stack builds its jobs' settings as records; they are what the job's flags say. */
class LocalStackConfigTest {
  @Test
  void theStatisticsJobsLocalSettingsAreTheDefaultsWithTheLocalFlags() {
    GraphConfig graph = new GraphConfig("bolt://127.0.0.1:7999", "neo4j", "pw", "neo4j");
    StatsConfig flags =
        StatsConfig.fromArgs(
            new String[] {
              "--kafka-bootstrap", "127.0.0.1:9999",
              "--neo4j-uri", graph.uri(),
              "--neo4j-user", graph.user(),
              "--neo4j-password", graph.password(),
              "--checkpoint-interval-ms", "5000",
              "--parallelism", "1",
              "--idleness", "PT10S",
              "--min-confidence", "all"
            },
            Map.of());
    assertEquals(flags, LocalStack.statsConfig("127.0.0.1:9999", graph, ConfidencePolicy.all()));
  }
}
