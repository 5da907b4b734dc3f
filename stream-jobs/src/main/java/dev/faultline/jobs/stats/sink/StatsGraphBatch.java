package dev.faultline.jobs.stats.sink;

import dev.faultline.graph.stats.StatsWriter;
import dev.faultline.jobs.stats.records.CategoryStat;
import dev.faultline.jobs.stats.records.StatAlert;
import java.io.Serializable;
import java.util.List;

/** How the graph sink keys and writes one kind of row. */
public interface StatsGraphBatch<T> extends Serializable {
  /** The node key: a later row of the same key replaces an earlier one in the buffer. */
  String key(T row);

  void write(StatsWriter writer, List<T> rows);

  static StatsGraphBatch<CategoryStat> counts() {
    return new StatsGraphBatch<>() {
      @Override
      public String key(CategoryStat row) {
        return row.id;
      }

      @Override
      public void write(StatsWriter writer, List<CategoryStat> rows) {
        writer.writeCounts(rows.stream().map(CategoryStat::toRow).toList());
      }
    };
  }

  static StatsGraphBatch<StatAlert> alerts() {
    return new StatsGraphBatch<>() {
      @Override
      public String key(StatAlert row) {
        return row.id;
      }

      @Override
      public void write(StatsWriter writer, List<StatAlert> rows) {
        writer.writeAlerts(rows.stream().map(StatAlert::toRow).toList());
      }
    };
  }
}
