package dev.faultline.stats.records;

import dev.faultline.graph.stats.CategoryCountRow;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.keys.StatDimensions;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A count of issues in one category, over a rolling window or for a release; a rolling window's
 * also its expected count of bug reports (Σ p) and that count's variance (Σ p(1 − p)). A later
 * record with the same {@link #id} replaces an earlier one.
 *
 * <p>Serialised by {@link CategoryStatSerializer} (named by {@code @TypeInfo}), not Flink's POJO
 * serializer.
 */
@TypeInfo(CategoryStatSerializer.Factory.class)
public class CategoryStat {
  public static final String RELEASE_WINDOW = "release";

  public String id;
  public String framework;
  public Dimension dimension;
  public String category;

  /** ISO-8601 window length (P7D, P30D) or {@value #RELEASE_WINDOW}. */
  public String window;

  public Long windowStart;
  public Long windowEnd;
  public String release;
  public long count;

  /**
   * Rolling windows: the expected number of bug reports in the category (the issues' summed
   * probabilities, over the same issues as {@link #count}), else null.
   */
  public Double expected;

  /** The variance of {@link #expected} (Σ p(1 − p): independent issues), else null. */
  public Double variance;

  public CategoryStat() {}

  /**
   * A rolling window's statistics: the count, and the expected count and its variance rounded to 4
   * decimals (the probabilities' own) and never below 0 (sums of retractions leave rounding dust).
   */
  public static CategoryStat rolling(
      String framework,
      Dimension dimension,
      String category,
      String window,
      long start,
      long end,
      long count,
      double expected,
      double variance) {
    CategoryStat s = rolling(framework, dimension, category, window, start, end, count);
    s.expected = rounded(expected);
    s.variance = rounded(variance);
    return s;
  }

  private static double rounded(double x) {
    return Math.max(0, Math.round(x * 1e4) / 1e4);
  }

  public static CategoryStat rolling(
      String framework,
      Dimension dimension,
      String category,
      String window,
      long start,
      long end,
      long count) {
    CategoryStat s = new CategoryStat();
    s.id =
        framework
            + "/"
            + dimension.key()
            + "/"
            + category
            + "/"
            + window
            + "/"
            + Instant.ofEpochMilli(start).atOffset(ZoneOffset.UTC).toLocalDate();
    s.framework = framework;
    s.dimension = dimension;
    s.category = category;
    s.window = window;
    s.windowStart = start;
    s.windowEnd = end;
    s.count = count;
    return s;
  }

  public static CategoryStat ofRelease(
      String framework, String release, Dimension dimension, String category, long count) {
    CategoryStat s = new CategoryStat();
    s.id =
        framework + "/" + dimension.key() + "/" + category + "/" + RELEASE_WINDOW + "/" + release;
    s.framework = framework;
    s.dimension = dimension;
    s.category = category;
    s.window = RELEASE_WINDOW;
    s.release = release;
    s.count = count;
    return s;
  }

  public CategoryCountRow toRow() {
    return new CategoryCountRow(
        id,
        framework,
        dimension.key(),
        category,
        window,
        windowStart,
        windowEnd,
        release,
        count,
        expected,
        variance);
  }

  public dev.faultline.schemas.CategoryStat toAvro() {
    return dev.faultline.schemas.CategoryStat.newBuilder()
        .setId(id)
        .setFramework(framework)
        .setDimension(StatDimensions.toAvro(dimension))
        .setCategory(category)
        .setWindow(window)
        .setWindowStart(windowStart == null ? null : Instant.ofEpochMilli(windowStart))
        .setWindowEnd(windowEnd == null ? null : Instant.ofEpochMilli(windowEnd))
        .setRelease(release)
        .setCount(count)
        .setExpected(expected)
        .setVariance(variance)
        .build();
  }

  @Override
  public String toString() {
    return "CategoryStat{" + id + "=" + count + (expected == null ? "" : " e" + expected) + "}";
  }
}
