package dev.faultline.graph;

import org.neo4j.driver.Driver;

/**
 * Upserts issues with their classification, labels, versions and release
 * (write/upsert-issues.cypher).
 */
public final class IssueWriter extends BatchWriter<IssueRow> {
  public IssueWriter(Driver driver, String database) {
    super(driver, database, "write/upsert-issues.cypher");
  }

  @Override
  public String keyOf(IssueRow row) {
    return row.id();
  }

  @Override
  public long versionOf(IssueRow row) {
    return row.stateVersion();
  }

  @Override
  public java.util.Map<String, Object> toParameters(IssueRow row) {
    return row.toParameters();
  }
}
