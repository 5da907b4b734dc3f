package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.BatchWriter;
import dev.faultline.graph.CypherResources;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.summary.Plan;
import org.neo4j.driver.summary.ProfiledPlan;

/**
 * Filing issues against a new release reads the issues of its framework by index: those reporting
 * its version by (framework, frameworkVersion), those reporting none by (framework, createdAt) over
 * the release's time span. The figure that shows it is the database hits of the release statement,
 * profiled on a framework with thousands of issues, against the number of issues it files.
 */
@ExtendWith(SharedNeo4j.class)
class ReleaseFilingPlanIT {
  private static final long DAY = 86_400_000L;
  private static final long START = 1_600_000_000_000L;

  @Test
  void aReleaseSeeksTheIssuesItFilesInsteadOfReadingEveryIssueOfItsFramework(Driver driver) {
    String framework = "Plan" + Long.toHexString(System.nanoTime());
    IssueWriter issues = new IssueWriter(driver, SharedNeo4j.DATABASE);
    int total = 4000;
    List<IssueRow> batch = new ArrayList<>();
    for (int n = 0; n < total; n++) {
      // one issue a day; every fourth reports a version of its own, the rest none
      batch.add(issue(framework, n, n % 4 == 0 ? "0." + n + ".0" : null, START + n * DAY));
      if (batch.size() == 500) {
        issues.write(batch);
        batch.clear();
      }
    }
    ReleaseWriter releases = new ReleaseWriter(driver, SharedNeo4j.DATABASE);
    // a release published on day 2000 with a successor on day 2010: it explains the version-less
    // issues of 10 days
    releases.write(List.of(release(framework, "9.1.0", START + 2010 * DAY)));
    ReleaseRow row = release(framework, "9.0.0", START + 2000 * DAY);
    String statement = CypherResources.load("write/upsert-releases.cypher");
    ProfiledPlan plan;
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      session.run("CALL db.awaitIndexes(300)").consume();
      plan =
          session.executeWrite(
              tx ->
                  tx.run(
                          "PROFILE " + statement,
                          BatchWriter.parameters(List.of(releases.toParameters(row))))
                      .consume()
                      .profile());
      long filed =
          session
              .run(
                  "MATCH (:Release {id: $id})<-[:FILED_AGAINST]-(i:Issue) RETURN count(i) AS n",
                  Map.of("id", framework + "@9.0.0"))
              .single()
              .get("n")
              .asLong();
      assertEquals(
          7,
          filed,
          "version-less issues opened on days 2000..2009 (days 2000, 2004, 2008 report versions)");
    }
    long hits = dbHits(plan);
    String operators = operators(plan, new StringBuilder()).toString();
    System.out.println(
        "release statement: " + hits + " database hits for " + total + " issues of the framework");
    assertTrue(
        operators.contains("NodeIndexSeek i:Issue(framework, createdAt)"),
        "no seek by (framework, createdAt):\n" + operators);
    assertTrue(
        operators.contains("NodeIndexSeek i:Issue(framework, frameworkVersion)"),
        "no seek by (framework, frameworkVersion):\n" + operators);
    assertTrue(!operators.contains("NodeIndexScan"), "an index scan:\n" + operators);
    // reading every issue of the framework costs at least one hit per issue (it took 14,000 before
    // the seeks);
    // seeking costs a few per issue in the release's span
    assertTrue(
        hits < total / 10,
        "database hits " + hits + " for " + total + " issues of the framework:\n" + operators);
  }

  private static long dbHits(ProfiledPlan plan) {
    long sum = plan.dbHits();
    for (ProfiledPlan child : plan.children()) {
      sum += dbHits(child);
    }
    return sum;
  }

  private static StringBuilder operators(Plan plan, StringBuilder out) {
    String details =
        String.valueOf(plan.arguments().getOrDefault("Details", null))
            .replace("RANGE INDEX ", "")
            .replace("\"", "");
    out.append(plan.operatorType().replaceFirst("@.*$", ""))
        .append(' ')
        .append(details)
        .append(
            plan instanceof ProfiledPlan p ? " hits=" + p.dbHits() + " rows=" + p.records() : "")
        .append('\n');
    for (Plan child : plan.children()) {
      operators(child, out);
    }
    return out;
  }

  private static ReleaseRow release(String framework, String version, long publishedAt) {
    return WriterRows.release("plan", framework, version, publishedAt);
  }

  private static IssueRow issue(String framework, int number, String version, long createdAt) {
    return WriterRows.issue("plan", framework, number, version, createdAt);
  }
}
