package dev.faultline.infra.bench;

import dev.faultline.graph.query.QueryLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.neo4j.driver.Driver;

/**
 * The methods the similar-issues benchmark compares, each answering "the top k issues like this
 * one" from the stack's graph (every other issue is a candidate, earlier or later):
 *
 * <ul>
 *   <li>{@code today}: the query {@code similar-issues} was before issue #35 (labels and title
 *       words; main 240c4b6, kept as {@code bench/similar-issues-240c4b6.cypher});
 *   <li>{@code tfidf}: plain TF-IDF over title and body, cosine ({@link TfIdf});
 *   <li>{@code fulltext}: {@code similar-issues} with the vector ranking's weight and the boosts at
 *       0 (Neo4j's full-text index alone);
 *   <li>{@code vector}: the same with the full-text ranking's weight at 0 (the vector index alone);
 *   <li>{@code fusion}: {@code similar-issues} as shipped (with any {@code --param} overrides).
 * </ul>
 *
 * Results are cached per method and query.
 */
final class SimilarMethods {
  private static final List<String> NAMES =
      List.of("today", "tfidf", "fulltext", "vector", "fusion");
  private static final Map<String, String> NO_BOOSTS =
      Map.of("frameworkBoost", "0", "symptomBoost", "0", "stageBoost", "0");

  private final Driver driver;
  private final QueryLibrary library;
  private final Map<String, String> overrides;
  private final Map<String, List<String>> cache = new HashMap<>();
  private final String before;
  private TfIdf tfidf;

  SimilarMethods(Driver driver, Map<String, String> overrides) {
    this.driver = driver;
    this.library = SimilarIssuesBenchmark.library(driver);
    this.overrides = overrides;
    this.before = resource("/bench/similar-issues-240c4b6.cypher");
  }

  List<String> names() {
    return NAMES;
  }

  /** The ids of the first {@code k} issues a method finds for {@code query}. */
  List<String> top(String method, String query, int k) {
    List<String> ten =
        cache.computeIfAbsent(method + " " + query, key -> compute(method, query, Math.max(k, 10)));
    return ten.subList(0, Math.min(k, ten.size()));
  }

  private List<String> compute(String method, String query, int k) {
    return switch (method) {
      case "today" -> today(query, k);
      case "tfidf" -> tfidf().top(query, k);
      case "fulltext" -> library(query, k, Map.of("vectorWeight", "0"), NO_BOOSTS);
      case "vector" -> library(query, k, Map.of("textWeight", "0"), NO_BOOSTS);
      case "fusion" -> library(query, k, Map.of(), Map.of());
      default -> throw new IllegalArgumentException("unknown method " + method);
    };
  }

  private List<String> library(
      String query, int k, Map<String, String> weights, Map<String, String> boosts) {
    Map<String, String> p = new LinkedHashMap<>(overrides);
    p.putAll(weights);
    p.putAll(boosts);
    p.put("issue", query);
    p.put("limit", String.valueOf(k));
    List<String> ids = new ArrayList<>();
    library.run("similar-issues", p).forEach(r -> ids.add((String) r.get("id")));
    return ids;
  }

  private List<String> today(String query, int k) {
    try (var session = driver.session()) {
      return session
          .run(before, Map.of("issue", query, "pastOnly", false, "limit", (long) k))
          .list(r -> r.get("id").asString());
    }
  }

  private TfIdf tfidf() {
    if (tfidf == null) {
      Map<String, String> texts = new LinkedHashMap<>();
      try (var session = driver.session()) {
        session
            .run(
                "MATCH (i:Issue) WHERE i.title IS NOT NULL AND coalesce(i.state, '') <> 'deleted'"
                    + " AND i.transferredTo IS NULL"
                    + " RETURN i.id AS id, i.title + '\\n' + coalesce(i.body, '') AS text ORDER BY id")
            .list()
            .forEach(r -> texts.put(r.get("id").asString(), r.get("text").asString()));
      }
      tfidf = new TfIdf(texts);
    }
    return tfidf;
  }

  private static String resource(String path) {
    try (InputStream in = SimilarMethods.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Plain TF-IDF with scikit-learn's defaults (raw term counts, smoothed idf {@code ln((1 + n) / (1
   * + df)) + 1}, L2-normalised rows, tokens of two or more word characters, lower-cased), ranked by
   * cosine.
   */
  static final class TfIdf {
    private final Map<String, Map<String, Double>> vectors = new LinkedHashMap<>();

    TfIdf(Map<String, String> texts) {
      Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
      Map<String, Integer> df = new HashMap<>();
      texts.forEach(
          (id, text) -> {
            Map<String, Integer> c = new HashMap<>();
            var m =
                java.util.regex.Pattern.compile(
                        "\\b\\w\\w+\\b", java.util.regex.Pattern.UNICODE_CHARACTER_CLASS)
                    .matcher(text.toLowerCase(Locale.ROOT));
            while (m.find()) {
              c.merge(m.group(), 1, Integer::sum);
            }
            c.keySet().forEach(t -> df.merge(t, 1, Integer::sum));
            counts.put(id, c);
          });
      int n = texts.size();
      counts.forEach(
          (id, c) -> {
            Map<String, Double> v = new HashMap<>();
            double norm = 0;
            for (var e : c.entrySet()) {
              double w = e.getValue() * (Math.log((1.0 + n) / (1.0 + df.get(e.getKey()))) + 1);
              v.put(e.getKey(), w);
              norm += w * w;
            }
            double len = Math.sqrt(norm);
            v.replaceAll((t, w) -> len == 0 ? 0 : w / len);
            vectors.put(id, v);
          });
    }

    List<String> top(String query, int k) {
      Map<String, Double> q = vectors.get(query);
      if (q == null) {
        return List.of();
      }
      List<Map.Entry<String, Double>> scored = new ArrayList<>();
      vectors.forEach(
          (id, v) -> {
            if (!id.equals(query)) {
              double s = 0;
              for (var e : q.entrySet()) {
                Double w = v.get(e.getKey());
                if (w != null) {
                  s += w * e.getValue();
                }
              }
              scored.add(Map.entry(id, s));
            }
          });
      scored.sort(
          Map.Entry.<String, Double>comparingByValue()
              .reversed()
              .thenComparing(Map.Entry.comparingByKey()));
      return scored.subList(0, Math.min(k, scored.size())).stream().map(Map.Entry::getKey).toList();
    }
  }
}
