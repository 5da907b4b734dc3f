package dev.faultline.graph;

import java.util.Map;
import org.neo4j.driver.Driver;

/** Upserts releases and files issues against them (write/upsert-releases.cypher). */
public final class ReleaseWriter extends BatchWriter<ReleaseRow> {
  public ReleaseWriter(Driver driver, String database) {
    super(driver, database, "write/upsert-releases.cypher");
  }

  @Override
  public String keyOf(ReleaseRow row) {
    return row.framework() + "@" + row.version();
  }

  @Override
  public long versionOf(ReleaseRow row) {
    return row.publishedAtMillis();
  }

  @Override
  public Map<String, Object> toParameters(ReleaseRow row) {
    return row.toParameters();
  }
}
