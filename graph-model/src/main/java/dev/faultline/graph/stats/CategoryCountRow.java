package dev.faultline.graph.stats;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code CategoryCount} node: issues of a framework in one category of one dimension, over a
 * rolling window or for a release.
 *
 * @param id stable key (the same window of the same category always has the same id)
 * @param dimension the taxonomy dimension key as the graph stores it ({@code symptom}, {@code
 *     symptomClass}, …)
 * @param window ISO-8601 window length ({@code P7D}, {@code P30D}) or {@code release}
 * @param windowStart epoch millis, inclusive; null for release counts
 * @param windowEnd epoch millis, exclusive; null for release counts
 * @param release the framework version of a release count, else null
 * @param count issues whose current label is the category (rolling: whose label began inside the
 *     window)
 * @param expected a rolling window's expected number of bug reports in the category (the same
 *     issues' summed probabilities), else null
 * @param variance the variance of {@code expected} (Σ p(1 − p)), else null
 */
public record CategoryCountRow(
    String id,
    String framework,
    String dimension,
    String category,
    String window,
    Long windowStart,
    Long windowEnd,
    String release,
    long count,
    Double expected,
    Double variance) {

  /** A count without an expected count (release counts). */
  public CategoryCountRow(
      String id,
      String framework,
      String dimension,
      String category,
      String window,
      Long windowStart,
      Long windowEnd,
      String release,
      long count) {
    this(
        id,
        framework,
        dimension,
        category,
        window,
        windowStart,
        windowEnd,
        release,
        count,
        null,
        null);
  }

  public CategoryCountRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(framework, "framework");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(window, "window");
  }

  /** The row as Cypher parameters ({@code row.*} in {@code stats-category-counts.cypher}). */
  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("framework", framework);
    m.put("dimension", dimension);
    m.put("category", category);
    m.put("window", window);
    m.put("windowStart", windowStart);
    m.put("windowEnd", windowEnd);
    m.put("release", release);
    m.put("count", count);
    m.put("expected", expected);
    m.put("variance", variance);
    return m;
  }
}
