package dev.faultline.graph.stats;

import dev.faultline.graph.BatchWriter;
import java.util.Map;
import org.neo4j.driver.Driver;

/**
 * Upserts emerging-category {@code Alert} nodes and their {@code EXAMPLE} edges
 * (write/stats-alerts.cypher).
 */
public final class AlertWriter extends BatchWriter<AlertRow> {
  public AlertWriter(Driver driver, String database) {
    super(driver, database, "write/stats-alerts.cypher");
  }

  @Override
  public String keyOf(AlertRow row) {
    return row.id();
  }

  /** An alert's id names its episode; a later row of one id (a re-emission) wins. */
  @Override
  public long versionOf(AlertRow row) {
    return 0;
  }

  @Override
  public Map<String, Object> toParameters(AlertRow row) {
    return row.toParameters();
  }
}
