package dev.faultline.dashboard;

import dev.faultline.graph.ConfidencePolicy;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The dashboard's filters of one request: framework, time range, release and confidence bar. A
 * release narrows the aggregates to the time it was its framework's newest release ({@code
 * [publishedAt, next release's publishedAt)}, intersected with any given range) and the issue list
 * to the issues {@code FILED_AGAINST} it. The confidence bar ({@code minConfidence}) says which
 * labels the aggregates count; the issue list shows every issue.
 *
 * @param framework null = every framework
 * @param from inclusive, null = from the start
 * @param to exclusive, null = up to now
 * @param release {@code framework@version}, null = none
 * @param confidence the labels counted: the request's {@code minConfidence}, else the server
 *     default
 * @param confidenceGiven whether the request gave {@code minConfidence} (else the queries use their
 *     default, the same)
 */
record Scope(
    String framework,
    Instant from,
    Instant to,
    String release,
    ConfidencePolicy confidence,
    boolean confidenceGiven) {
  /** The parameter names a scoped endpoint accepts. */
  static final List<String> PARAMETERS =
      List.of("framework", "from", "to", "release", "minConfidence");

  /** A release as the filter needs it. */
  record Release(String id, String framework, Instant publishedAt) {}

  /**
   * Validates the filter parameters and resolves a release to its window.
   *
   * @param releasesOf the releases of a framework (any order); empty when the framework has none
   */
  static Scope resolve(ApiParams params, Function<String, List<Release>> releasesOf) {
    return resolve(params, releasesOf, ConfidencePolicy.calibrated());
  }

  /**
   * As {@link #resolve(ApiParams, Function)}, with {@code defaultConfidence} as the bar when the
   * request gives none (and what {@code minConfidence=default} means).
   */
  static Scope resolve(
      ApiParams params,
      Function<String, List<Release>> releasesOf,
      ConfidencePolicy defaultConfidence) {
    ConfidencePolicy confidence = params.confidence("minConfidence", defaultConfidence);
    boolean confidenceGiven = params.text("minConfidence").isPresent();
    String framework = params.framework("framework").orElse(null);
    Instant from = params.instant("from").orElse(null);
    Instant to = params.instant("to").orElse(null);
    if (from != null && to != null && !from.isBefore(to)) {
      throw ApiError.badParameter("to", "must be after from (" + from + ")");
    }
    Optional<String> release = params.release("release");
    if (release.isEmpty()) {
      return new Scope(framework, from, to, null, confidence, confidenceGiven);
    }
    String id = release.get();
    String releaseFramework = id.substring(0, id.lastIndexOf('@'));
    if (framework != null && !framework.equals(releaseFramework)) {
      throw ApiError.badParameter(
          "release", id + " is not a release of the framework filter " + framework);
    }
    List<Release> releases =
        releasesOf.apply(releaseFramework).stream()
            .filter(r -> r.publishedAt() != null)
            .sorted(Comparator.comparing(Release::publishedAt))
            .toList();
    int index = -1;
    for (int i = 0; i < releases.size(); i++) {
      if (releases.get(i).id().equals(id)) {
        index = i;
      }
    }
    if (index < 0) {
      throw ApiError.badParameter("release", "no release " + id + " in the graph");
    }
    Instant start = releases.get(index).publishedAt();
    Instant end = index + 1 < releases.size() ? releases.get(index + 1).publishedAt() : null;
    Instant windowFrom = from == null || start.isAfter(from) ? start : from;
    Instant windowTo = to == null ? end : end == null || to.isBefore(end) ? to : end;
    return new Scope(releaseFramework, windowFrom, windowTo, id, confidence, confidenceGiven);
  }

  /**
   * The framework/from/to/minConfidence parameters of the library's queries, as text; absent ones
   * left out.
   */
  Map<String, String> queryParameters() {
    Map<String, String> m = new LinkedHashMap<>();
    confidenceParameter(m);
    if (framework != null) {
      m.put("framework", framework);
    }
    if (from != null) {
      m.put("from", from.toString());
    }
    if (to != null) {
      m.put("to", to.toString());
    }
    return m;
  }

  /** Adds {@code minConfidence} to a query's parameters when the request gave one. */
  void confidenceParameter(Map<String, String> queryParameters) {
    if (confidenceGiven) {
      queryParameters.put("minConfidence", confidence.toText());
    }
  }

  /** The scope as echoed in responses, so the page can show what the numbers cover. */
  Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("framework", framework);
    m.put("from", from == null ? null : from.toString());
    m.put("to", to == null ? null : to.toString());
    m.put("release", release);
    m.put("confidence", confidence.toMap());
    return m;
  }
}
