package dev.faultline.graph;

import java.util.Map;
import org.neo4j.driver.Driver;

/** Upserts pull requests and their FIXES edges (write/upsert-pull-requests.cypher). */
public final class PullRequestWriter extends BatchWriter<PullRequestRow> {
  public PullRequestWriter(Driver driver, String database) {
    super(driver, database, "write/upsert-pull-requests.cypher");
  }

  @Override
  public String keyOf(PullRequestRow row) {
    return row.id();
  }

  @Override
  public long versionOf(PullRequestRow row) {
    return row.updatedAtMillis();
  }

  @Override
  public Map<String, Object> toParameters(PullRequestRow row) {
    return row.toParameters();
  }
}
