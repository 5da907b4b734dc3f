package dev.faultline.graph.stats;

import dev.faultline.graph.BatchWriter;
import java.util.Map;
import org.neo4j.driver.Driver;

/**
 * Upserts the statistics job's {@code CategoryCount} nodes (write/stats-category-counts.cypher),
 * MERGE on {@code id}.
 */
public final class CategoryCountWriter extends BatchWriter<CategoryCountRow> {
  public CategoryCountWriter(Driver driver, String database) {
    super(driver, database, "write/stats-category-counts.cypher");
  }

  @Override
  public String keyOf(CategoryCountRow row) {
    return row.id();
  }

  /**
   * Counts carry no version: of two rows of one id in a batch, the later arrival (the newer count)
   * wins.
   */
  @Override
  public long versionOf(CategoryCountRow row) {
    return 0;
  }

  @Override
  public Map<String, Object> toParameters(CategoryCountRow row) {
    return row.toParameters();
  }
}
