package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * The issue and release writers run in separate sinks, so their transactions overlap. An issue
 * written while the release it reports is being written must still end up filed against that
 * release: neither transaction may decide on a snapshot that misses the other.
 */
@ExtendWith(SharedNeo4j.class)
class ConcurrentWritersIT {
  private static final long DAY = 86_400_000L;
  private static final long RELEASED = 1_700_000_000_000L;

  @Test
  void anIssueReportingAVersionWrittenWhileThatReleaseIsWrittenIsFiledAgainstIt(Driver driver)
      throws Exception {
    race(driver, "Racer" + Long.toHexString(System.nanoTime()), true);
  }

  @Test
  void anIssueReportingNoVersionWrittenWhileANewerReleaseIsWrittenIsFiledAgainstIt(Driver driver)
      throws Exception {
    race(driver, "Racer" + Long.toHexString(System.nanoTime()), false);
  }

  /**
   * Rounds of one release batch (the new release first, then older ones that keep its transaction
   * open) and one issue batch (opened after the new release; reporting its version or none),
   * started together.
   */
  private static void race(Driver driver, String framework, boolean reportsVersion)
      throws Exception {
    IssueWriter issues = new IssueWriter(driver, SharedNeo4j.DATABASE);
    ReleaseWriter releases = new ReleaseWriter(driver, SharedNeo4j.DATABASE);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    int rounds = 5;
    int perBatch = 100;
    try {
      for (int round = 0; round < rounds; round++) {
        String version = "9." + round + ".0";
        List<ReleaseRow> releaseBatch = new ArrayList<>();
        releaseBatch.add(release(framework, version, RELEASED + round * DAY));
        for (int k = 0; k < perBatch; k++) {
          releaseBatch.add(
              release(
                  framework, "1." + round + "." + k, RELEASED - (round * perBatch + k + 1) * DAY));
        }
        List<IssueRow> issueBatch = new ArrayList<>();
        for (int n = 0; n < perBatch; n++) {
          issueBatch.add(
              issue(
                  framework,
                  round * 1000 + n,
                  reportsVersion ? version : null,
                  RELEASED + round * DAY + DAY / 2));
        }
        CyclicBarrier start = new CyclicBarrier(2);
        Future<?> r =
            pool.submit(
                () -> {
                  start.await();
                  releases.write(releaseBatch);
                  return null;
                });
        Future<?> i =
            pool.submit(
                () -> {
                  start.await();
                  issues.write(issueBatch);
                  return null;
                });
        r.get(60, TimeUnit.SECONDS);
        i.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      var counts =
          session
              .run(
                  """
                  MATCH (i:Issue {framework: $framework})
                  OPTIONAL MATCH (i)-[:FILED_AGAINST]->(rel:Release)
                  RETURN count(DISTINCT i) AS issues,
                         count(DISTINCT CASE WHEN rel.version = '9.' + toString(i.number / 1000) + '.0' THEN i END) AS filedRight
                  """,
                  Map.of("framework", framework))
              .single();
      assertEquals(rounds * perBatch, counts.get("issues").asInt());
      assertEquals(
          rounds * perBatch,
          counts.get("filedRight").asInt(),
          "issues filed against the release of their round, though it was written at the same moment");
    }
  }

  private static ReleaseRow release(String framework, String version, long publishedAt) {
    return WriterRows.release("race", framework, version, publishedAt);
  }

  private static IssueRow issue(String framework, int number, String version, long createdAt) {
    return WriterRows.issue("race", framework, number, version, createdAt);
  }
}
