package dev.faultline.infra.relabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * {@code faultline reclassify --framework DeepSpeed --since 2024-01-01} on real parts (in-process
 * Kafka and Neo4j, a Flink mini cluster) relabels only what is in scope: DeepSpeed's issues and
 * merged fix of 2024 get the learned tier's labels, DeepSpeed's issue of 2023 and PyTorch's issues
 * and fix keep the rules' labels they were first given; {@code --dry-run} counts the scope first.
 */
class ReclassifyScopeIT {
  private static final String PASSWORD = "reclassify-scope-it-pw";

  @Test
  void relabelsTheIssuesAndPullRequestsInScopeAndNothingElse(@TempDir Path tmp) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD))) {
      kafka.createTopics(2, ScopedHistory.topics());
      new GraphSchema(driver, "neo4j").migrate();
      String[] conn =
          ScopedHistory.conn(
              kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);
      ScopedHistory.labelWithTheRules(conn);
      ScopedHistory.assertAllByTheRules(driver);
      Path dir = tmp.resolve("report");

      String dry = run(dir, conn, "--dry-run");
      assertTrue(
          dry.contains("3 issues and 1 pull requests (1 merged) in scope"), "dry run: " + dry);
      assertEquals(Map.of(), onlyChanged(ScopedHistory.versions(driver)), "the dry run changes");

      String out = run(dir, conn);
      assertTrue(out.contains("reclassify: done"), out);
      ScopedHistory.assertOnlyTheScopeWasRelabelled(driver, dir);
    }
  }

  /** The items not labelled by the rules. */
  private static Map<String, String> onlyChanged(Map<String, String> versions) {
    Map<String, String> out = new java.util.TreeMap<>(versions);
    out.values().removeIf(v -> v.startsWith("rules-"));
    return out;
  }

  private static String run(Path dir, String[] conn, String... extra) {
    List<String> args = new ArrayList<>(List.of("reclassify", "--report-dir", dir.toString()));
    args.addAll(ScopedHistory.SCOPE_FLAGS);
    args.addAll(List.of(extra));
    args.addAll(List.of(conn));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int code = new Faultline().run(args.toArray(String[]::new), print, print);
    assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
