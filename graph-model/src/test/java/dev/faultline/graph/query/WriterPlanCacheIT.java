package dev.faultline.graph.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.testing.SharedNeo4j;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * The writers' statements are planned once whatever the batch's size, on a real Neo4j. Neo4j 5 keys
 * its plan cache on each parameter's type, and a top-level list parameter's type carries a size
 * bucket (1, up to 10, up to 100, …): a writer that passed its rows as {@code $rows} had one cache
 * entry, and one planning, per bucket (BatchWriter).
 */
class WriterPlanCacheIT extends QueryITBase {
  private static final Pattern CLEARED = Pattern.compile("cleared of (\\d+) quer");

  private int next;

  @Test
  void batchesOfEverySizeShareTheCachedPlansOfOneSize(Driver driver) {
    IssueWriter writer = new IssueWriter(driver, SharedNeo4j.DATABASE);
    clearQueryCaches(driver);
    for (int i = 0; i < 4; i++) {
      writer.write(issues(3));
    }
    long oneSize = clearQueryCaches(driver);
    for (int size : new int[] {1, 3, 30, 300}) {
      writer.write(issues(size));
    }
    long fourSizes = clearQueryCaches(driver);
    assertTrue(oneSize > 0, "the count sees the writer's cached plans");
    assertEquals(oneSize, fourSizes, "cached queries after batches of 1, 3, 30 and 300 rows");
  }

  private List<IssueRow> issues(int n) {
    List<IssueRow> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rows.add(WriterRows.issue("plancache", "Trainer", ++next, null, 1_000L));
    }
    return rows;
  }

  /** Empties Neo4j's query caches; how many cached queries it dropped. */
  private static long clearQueryCaches(Driver driver) {
    String message =
        driver
            .executableQuery("CALL db.clearQueryCaches()")
            .execute()
            .records()
            .get(0)
            .get(0)
            .asString();
    Matcher m = CLEARED.matcher(message);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }
}
