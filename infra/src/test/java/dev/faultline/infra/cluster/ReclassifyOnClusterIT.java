package dev.faultline.infra.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.GraphSchema;
import dev.faultline.infra.Faultline;
import dev.faultline.infra.relabel.ScopedHistory;
import dev.faultline.jobs.IssuePipelineJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * {@code faultline reclassify --jobmanager HOST:PORT} runs the bounded replay as a job on a real
 * Flink standalone cluster (a JobManager and a TaskManager, each its own JVM, the job jar uploaded
 * through the REST API), follows it to FINISHED with progress lines, and writes the report; with a
 * scope, only the items in scope are relabelled (by the learned classifier of the job jar, where a
 * local replay with the rules tier labelled the history).
 */
class ReclassifyOnClusterIT {
  private static final String PASSWORD =
      "reclassify-cluster-it-" + UUID.randomUUID().toString().substring(0, 8);

  @TempDir Path tmp;

  @Test
  void aScopedReclassifyRunsAsABoundedJobOnTheClusterAndRelabelsOnlyItsScope() throws Exception {
    Path jobJar =
        Path.of(
            System.getProperty("faultline.job.jar", "target/flink-dist/usrlib/faultline-jobs.jar"));
    assertTrue(Files.isRegularFile(jobJar), "job jar missing at " + jobJar);
    Instant started = Instant.now();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0);
        EmbeddedNeo4j neo4j = EmbeddedNeo4j.start(tmp.resolve("neo4j"), 0, 0, PASSWORD);
        Driver driver =
            GraphDatabase.driver(neo4j.boltUri(), AuthTokens.basic(EmbeddedNeo4j.USER, PASSWORD));
        StandaloneFlinkCluster flink =
            StandaloneFlinkCluster.start(
                tmp.resolve("flink"),
                Path.of(System.getProperty("faultline.flink.lib", "target/flink-dist/lib")),
                System.getProperty("faultline.flink.jvm-opens", ""),
                1,
                2)) {
      System.out.printf(
          "ReclassifyOnClusterIT: Kafka, Neo4j and a 2-JVM Flink cluster up in %d ms%n",
          Duration.between(started, Instant.now()).toMillis());
      try {
        kafka.createTopics(2, ScopedHistory.topics());
        new GraphSchema(driver, "neo4j").migrate();
        String[] conn =
            ScopedHistory.conn(
                kafka.bootstrapServers(), neo4j.boltUri().toString(), EmbeddedNeo4j.USER, PASSWORD);
        ScopedHistory.labelWithTheRules(conn);
        ScopedHistory.assertAllByTheRules(driver);

        Path dir = tmp.resolve("report");
        List<String> args =
            new ArrayList<>(
                List.of(
                    "reclassify",
                    "--jobmanager",
                    flink.jobManagerAddress(),
                    "--jar",
                    jobJar.toString(),
                    "--report-dir",
                    dir.toString()));
        args.addAll(ScopedHistory.SCOPE_FLAGS);
        args.addAll(List.of(conn));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = new Faultline().run(args.toArray(String[]::new), print, print);
        String out = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(out);
        assertEquals(0, code, out);
        Matcher job = Pattern.compile("replaying as job ([0-9a-f]{32}) on ").matcher(out);
        assertTrue(job.find(), "submitted to the cluster: " + out);
        assertTrue(out.contains("deliveries replayed"), "progress: " + out);
        assertTrue(out.contains("reclassify: done"), out);

        // The job ran on the cluster, bounded: it finished, under the replay's own name.
        FlinkRestClient rest = FlinkRestClient.forJobManager(flink.jobManagerAddress());
        assertEquals("FINISHED", rest.jobState(job.group(1)));
        String name =
            rest.jobs().stream()
                .filter(j -> j.id().equals(job.group(1)))
                .findFirst()
                .orElseThrow()
                .name();
        assertTrue(
            name.startsWith(IssuePipelineJob.replayName("faultline-reclassify-").replace(")", "")),
            name);
        ScopedHistory.assertOnlyTheScopeWasRelabelled(driver, dir);
        System.out.printf(
            "ReclassifyOnClusterIT: done in %d ms%n",
            Duration.between(started, Instant.now()).toMillis());
      } catch (Throwable t) {
        flink.printLogs(System.err);
        throw t;
      }
    }
  }
}
